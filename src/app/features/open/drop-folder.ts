/**
 * What a drop holds: a folder as a FileSystemDirectoryHandle (`DataTransferItem.getAsFileSystemHandle`, Chromium),
 * else, through `webkitGetAsEntry`, whether it is a folder the browser can only give as entries, or plain files.
 */

type HandleItem = DataTransferItem & { getAsFileSystemHandle?: () => Promise<FileSystemHandle | null> }

/** The outcome of reading a drop. */
export type Dropped =
  | { kind: 'directory'; handle: FileSystemDirectoryHandle }
  | { kind: 'files'; files: File[] }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'empty' }

/**
 * Reads a drop's items. Must be called synchronously in the `drop` handler: the items are only readable there
 * (the handle promises are started before the first await).
 */
export function readDrop(items: DataTransferItemList): Promise<Dropped> {
  const list = [...items].filter((item) => item.kind === 'file')
  if (list.length === 0) return Promise.resolve({ kind: 'empty' })
  const handles = list.map((item) => (item as HandleItem).getAsFileSystemHandle?.() ?? null)
  const entries = list.map((item) => item.webkitGetAsEntry?.() ?? null)
  const files = list.map((item) => item.getAsFile())
  return (async (): Promise<Dropped> => {
    for (const pending of handles) {
      const handle = pending ? await pending.catch(() => null) : null
      if (handle?.kind === 'directory') return { kind: 'directory', handle: handle as FileSystemDirectoryHandle }
    }
    if (entries.some((e) => e?.isDirectory)) {
      return { kind: 'unsupported', reason: 'this browser gives a dropped folder only as entries without paths the engine can read; use “Open dataset folder”' }
    }
    const plain = files.filter((f): f is File => f !== null)
    return plain.length > 0 ? { kind: 'files', files: plain } : { kind: 'empty' }
  })()
}
