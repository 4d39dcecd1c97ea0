/**
 * The dataprep's output into a FileSystemDirectoryHandle: a folder the user picked read-write, or an OPFS folder.
 * `createWritable()` writes to a swap file that replaces the real one on `close()` (and is dropped on `abort()`),
 * so a cancelled run never leaves a partial file under its name.
 */
import { MixscopeError } from '../../core/findings.ts'
import { createDirectoryHandleSource, type DirectoryHandleLike } from '../../source/directory-handle-source.ts'
import { LOCK_FILE, type OutputSink } from './sink.ts'

async function folderOf(root: FileSystemDirectoryHandle, path: string, create: boolean): Promise<{ dir: FileSystemDirectoryHandle; name: string } | null> {
  const parts = path.split('/')
  if (parts.some((p) => p === '' || p === '.' || p === '..')) throw new Error(`directory-sink: "${path}" is not a plain relative path`)
  let dir = root
  for (const part of parts.slice(0, -1)) {
    try {
      dir = await dir.getDirectoryHandle(part, { create })
    } catch (error) {
      if (!create && (error as DOMException).name === 'NotFoundError') return null
      throw error
    }
  }
  return { dir, name: parts[parts.length - 1] }
}

async function fileOf(root: FileSystemDirectoryHandle, path: string): Promise<File | null> {
  const at = await folderOf(root, path, false)
  if (!at) return null
  try {
    return await (await at.dir.getFileHandle(at.name)).getFile()
  } catch (error) {
    if ((error as DOMException).name === 'NotFoundError' || (error as DOMException).name === 'TypeMismatchError') return null
    throw error
  }
}

/** The part of the Web Locks API (`navigator.locks`) used here. */
interface WebLocks {
  request(name: string, options: { ifAvailable: boolean }, callback: (lock: unknown) => Promise<void> | void): Promise<unknown>
}

/** An output sink writing under `root`. */
export function createDirectoryHandleSink(root: FileSystemDirectoryHandle): OutputSink {
  return {
    async create(path) {
      const at = (await folderOf(root, path, true))!
      const handle = await at.dir.getFileHandle(at.name, { create: true })
      const stream = await handle.createWritable()
      return {
        write: (bytes) => stream.write(bytes as Uint8Array<ArrayBuffer>),
        close: () => stream.close(),
        abort: () => stream.abort(),
      }
    },
    async size(path) {
      return (await fileOf(root, path))?.size ?? null
    },
    async read(path) {
      const f = await fileOf(root, path)
      return f ? new Uint8Array(await f.arrayBuffer()) : null
    },
    async source(path) {
      const at = await folderOf(root, `${path}/${LOCK_FILE}`, false)
      return at ? createDirectoryHandleSource(at.dir as unknown as DirectoryHandleLike) : null
    },
    async lock(owner) {
      // the Web Locks API, where there is one: one run per output folder name in this origin
      const locks = (globalThis as { navigator?: { locks?: WebLocks } }).navigator?.locks
      if (!locks) return async () => {}
      const name = `mixscope-prepare:${root.name}`
      let release!: () => void
      const held = await new Promise<boolean>((resolve) => {
        void locks.request(name, { ifAvailable: true }, (lock: unknown) => {
          if (!lock) { resolve(false); return }
          resolve(true)
          return new Promise<void>((done) => { release = done })
        })
      })
      if (!held) throw new MixscopeError(`prepare: the folder ${root.name} is being written by another prepare run (${owner} waits)`, 'output-locked', 'usage')
      return async () => release()
    },
  }
}
