/**
 * `RandomAccessBuckets` (byte-buckets.ts) in the browser's origin-private file system (OPFS): the browser's counterpart
 * of Node's file spill (src/engine/node/file-spill.ts), so that an audit in the explorer's worker keeps its row records,
 * findings and fingerprints on disk, not in the worker's memory. One folder `mixscope-spill-<ms>-<random>` under the
 * directory handed in (the OPFS root), one file per bucket, written and read through synchronous access handles (a
 * dedicated worker's fast path: `FileSystemFileHandle.createSyncAccessHandle`). At most `maxOpen` handles are open at
 * once (each locks its file), the least recently used closed first. `close` removes the folder; a folder a closed tab
 * left behind is removed by the next spill once it is a day old (a live one is never a day old: its audit would have
 * to run that long).
 *
 * The directory handle is passed in (I/O injected): the engine never reaches for `navigator.storage` itself.
 */
import type { RandomAccessBuckets } from './byte-buckets.ts'

/** Bucket handles open at once by default. */
const defaultMaxOpen = 16
/** Folders of spills older than this are left-overs (milliseconds). */
const staleAfterMs = 24 * 3600 * 1000
const prefix = 'mixscope-spill-'

/** The part of OPFS's synchronous access handle the spill uses (Chromium ≥ 108: every method synchronous). */
interface SyncHandle {
  read(buffer: Uint8Array, options: { at: number }): number
  write(buffer: Uint8Array, options: { at: number }): number
  getSize(): number
  flush(): void
  close(): void
}

/** The parts of `FileSystemDirectoryHandle` the spill uses. */
export interface SpillDirectory {
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<SpillDirectory>
  getFileHandle(name: string, options?: { create?: boolean }): Promise<{ createSyncAccessHandle(): Promise<SyncHandle> }>
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>
  keys(): AsyncIterableIterator<string>
}

/** Whether this realm offers OPFS synchronous access handles (a dedicated worker in a browser that has them). */
export function opfsSpillSupported(): boolean {
  const proto = (globalThis as { FileSystemFileHandle?: { prototype: object } }).FileSystemFileHandle?.prototype
  return !!proto && 'createSyncAccessHandle' in proto
}

/**
 * Creates a spill in a new folder under `root`.
 * @param root where to make the folder (the OPFS root: `await navigator.storage.getDirectory()`)
 * @param options `maxOpen`: handles open at once; `now`: the clock (ms) that names the folder and ages left-overs
 */
export async function createOpfsSpill(root: SpillDirectory, options: { maxOpen?: number; now?: number } = {}): Promise<RandomAccessBuckets> {
  const now = options.now ?? Date.now()
  await removeStale(root, now)
  const name = `${prefix}${now}-${Math.random().toString(36).slice(2, 10)}`
  const dir = await root.getDirectoryHandle(name, { create: true })
  const maxOpen = Math.max(1, options.maxOpen ?? defaultMaxOpen)
  // open handles, least recently used first (a Map keeps insertion order), and each bucket's size
  const handles = new Map<number, Promise<SyncHandle>>()
  const sizes = new Map<number, number>()
  // every operation on the folder in turn: appends keep their order and a handle is never used while it closes
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task)
    queue = run.catch(() => undefined)
    return run
  }
  const fileName = (bucket: number) => `bucket-${bucket}.bin`
  const closeHandle = async (bucket: number) => {
    const h = handles.get(bucket)
    handles.delete(bucket)
    if (h) (await h).close()
  }
  const handleOf = async (bucket: number): Promise<SyncHandle> => {
    let h = handles.get(bucket)
    if (h) {
      handles.delete(bucket)
      handles.set(bucket, h)
      return h
    }
    if (handles.size >= maxOpen) await closeHandle(handles.keys().next().value!)
    h = dir.getFileHandle(fileName(bucket), { create: true }).then((f) => f.createSyncAccessHandle())
    handles.set(bucket, h)
    return h
  }
  const readAll = (h: SyncHandle, out: Uint8Array, offset: number) => {
    for (let at = 0; at < out.byteLength;) {
      const n = h.read(out.subarray(at), { at: offset + at })
      if (n <= 0) throw new Error(`spill: the browser's storage gave back ${offset + at} bytes where ${offset + out.byteLength} were written`)
      at += n
    }
  }
  let closed = false
  return {
    append(bucket, bytes) {
      return serial(async () => {
        const h = await handleOf(bucket)
        const size = sizes.get(bucket) ?? 0
        for (let at = 0; at < bytes.byteLength;) {
          const n = h.write(bytes.subarray(at), { at: size + at })
          if (n <= 0) throw new Error(`spill: the browser's storage took no bytes (bucket ${bucket}, ${size + at} bytes in): is it full?`)
          at += n
        }
        sizes.set(bucket, size + bytes.byteLength)
      })
    },
    take(bucket) {
      return serial(async () => {
        const size = sizes.get(bucket)
        if (size === undefined) return new Uint8Array(0)
        const out = new Uint8Array(size)
        readAll(await handleOf(bucket), out, 0)
        await closeHandle(bucket)
        sizes.delete(bucket)
        await dir.removeEntry(fileName(bucket))
        return out
      })
    },
    read(bucket, offset, length) {
      return serial(async () => {
        const size = sizes.get(bucket) ?? 0
        if (!(offset >= 0 && length >= 0 && offset + length <= size)) throw new Error(`spill: bytes ${offset}–${offset + length} are past the end of bucket ${bucket} (${size} bytes)`)
        const out = new Uint8Array(length)
        if (length > 0) readAll(await handleOf(bucket), out, offset)
        return out
      })
    },
    close() {
      return serial(async () => {
        if (closed) return
        closed = true
        for (const bucket of [...handles.keys()]) await closeHandle(bucket)
        sizes.clear()
        await root.removeEntry(name, { recursive: true })
      })
    },
  }
}

/** Removes spill folders under `root` named more than a day before `now` (a removal that fails is left alone). */
async function removeStale(root: SpillDirectory, now: number): Promise<void> {
  const stale: string[] = []
  for await (const entry of root.keys()) {
    if (!entry.startsWith(prefix)) continue
    const made = Number(entry.slice(prefix.length).split('-')[0])
    if (Number.isFinite(made) && now - made > staleAfterMs) stale.push(entry)
  }
  for (const entry of stale) await root.removeEntry(entry, { recursive: true }).catch(() => undefined)
}
