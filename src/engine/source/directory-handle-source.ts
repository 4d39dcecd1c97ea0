/**
 * Source over a File System Access `FileSystemDirectoryHandle` (from `showDirectoryPicker()` or OPFS).
 * Typed structurally, so a real handle, an OPFS handle or a test fake all fit.
 */
import { MixscopeError } from '../core/findings.ts'
import { checkReadRange } from './memory-source.ts'
import { newCounters, throwIfAborted } from './source.ts'
import type { DatasetSource, ReadOptions, SourceFile } from './source.ts'

/** The part of `FileSystemHandle` the walk needs. */
export interface HandleLike {
  readonly kind: 'file' | 'directory'
  readonly name: string
}

/** The part of `FileSystemFileHandle` the source needs. */
export interface FileHandleLike extends HandleLike {
  readonly kind: 'file'
  getFile(): Promise<Blob>
}

/** The part of `FileSystemDirectoryHandle` the source needs (its async `values()` iterator; `getFileHandle` to write). */
export interface DirectoryHandleLike extends HandleLike {
  readonly kind: 'directory'
  values(): AsyncIterable<HandleLike>
  getFileHandle?(name: string, options?: { create?: boolean }): Promise<WritableFileHandleLike>
}

/** The part of `FileSystemFileHandle` writing needs. */
export interface WritableFileHandleLike {
  createWritable(): Promise<{ write(data: Uint8Array): Promise<void>; close(): Promise<void>; abort?(): Promise<void> }>
  getFile(): Promise<Blob>
}

/**
 * Creates a source over `handle`. `list()` walks it recursively (once; the result is kept) and keeps each
 * File snapshot, so reads are `file.slice(start, end).arrayBuffer()` with no further lookups.
 * A directory handle gives no access to its parent: `readSibling` returns `null`.
 */
export function createDirectoryHandleSource(handle: DirectoryHandleLike): DatasetSource {
  const counters = newCounters()
  let walked: Promise<WalkedDirectory> | null = null
  const walk = (signal?: AbortSignal): Promise<WalkedDirectory> => {
    if (!walked) {
      walked = walkDirectory(handle, signal)
      walked.catch(() => { walked = null })
    }
    return walked
  }
  return {
    kind: 'directory-handle',
    root: handle.name,
    rootName: handle.name,
    counters,
    async list(options?: ReadOptions): Promise<SourceFile[]> {
      throwIfAborted(options?.signal)
      const { files } = await walk(options?.signal)
      return [...files].map(([path, file]) => withMtime({ path, size: file.size }, file))
    },
    async listFolders(options?: ReadOptions): Promise<string[]> {
      throwIfAborted(options?.signal)
      return [...(await walk(options?.signal)).folders]
    },
    async read(path: string, start: number, end: number, options?: ReadOptions): Promise<Uint8Array> {
      throwIfAborted(options?.signal)
      checkReadRange(path, start, end)
      const file = (await walk(options?.signal)).files.get(path)
      if (!file) throw new MixscopeError(`directory-handle: no file "${path}" under "${handle.name}"`, 'file-not-found', 'io')
      const bytes = new Uint8Array(await file.slice(start, Math.min(end, file.size)).arrayBuffer())
      throwIfAborted(options?.signal)
      counters.requests++
      counters.bytes += bytes.length
      return bytes
    },
    async readSibling(): Promise<Uint8Array | null> {
      return null
    },
    async write(path: string, bytes: Uint8Array, options?: ReadOptions): Promise<void> {
      throwIfAborted(options?.signal)
      if (path.includes('/') || path === '' || path === '.' || path === '..') {
        throw new MixscopeError(`directory-handle: can only write a file in the root folder, not "${path}"`, 'bad-request', 'usage')
      }
      if (!handle.getFileHandle) throw new MixscopeError(`directory-handle: "${handle.name}" cannot be written to`, 'write-refused', 'io')
      const fileHandle = await handle.getFileHandle(path, { create: true })
      const writable = await fileHandle.createWritable()
      try {
        await writable.write(bytes)
        await writable.close()
      } catch (error) {
        await writable.abort?.().catch(() => {})
        throw error
      }
      // the walk keeps File snapshots: the new file is what a later read sees
      const walkedNow = walked && await walked.catch(() => null)
      if (walkedNow) walkedNow.files.set(path, await fileHandle.getFile())
    },
    async readOptional(path: string, options?: ReadOptions): Promise<Uint8Array | null> {
      throwIfAborted(options?.signal)
      const file = (await walk(options?.signal)).files.get(path)
      if (!file) return null
      const bytes = new Uint8Array(await file.arrayBuffer())
      counters.requests++
      counters.bytes += bytes.length
      return bytes
    },
  }
}

/** `file` with the Blob's `lastModified` (a File's) as `mtimeMs`, when it has one. */
export function withMtime(file: SourceFile, blob: Blob): SourceFile {
  const lastModified = (blob as Partial<File>).lastModified
  if (typeof lastModified === 'number' && Number.isFinite(lastModified)) file.mtimeMs = Math.floor(lastModified)
  return file
}

/** A walked directory: relative path → File snapshot, and every folder's relative path. */
interface WalkedDirectory {
  files: Map<string, Blob>
  folders: string[]
}

/** `getFile()` calls in flight at once while walking (each is a round trip to the browser's file system backend). */
const walkConcurrency = 32

/**
 * Walks `root` depth-first. A folder's `getFile()` calls overlap (up to 32 at once) instead of following one another:
 * 100,000 files then list in seconds, not minutes.
 */
async function walkDirectory(root: DirectoryHandleLike, signal?: AbortSignal): Promise<WalkedDirectory> {
  const files = new Map<string, Blob>()
  const folders: string[] = []
  const pending = new Set<Promise<void>>()
  const getFile = async (path: string, entry: FileHandleLike) => {
    while (pending.size >= walkConcurrency) await Promise.race(pending)
    const task = entry.getFile().then((file) => { files.set(path, file) })
    pending.add(task)
    void task.catch(() => {}).finally(() => pending.delete(task))
  }
  const visit = async (dir: DirectoryHandleLike, prefix: string): Promise<void> => {
    for await (const entry of dir.values()) {
      throwIfAborted(signal)
      const path = prefix + entry.name
      if (entry.kind === 'directory') {
        folders.push(path)
        await visit(entry as DirectoryHandleLike, path + '/')
      }
      else await getFile(path, entry as FileHandleLike)
    }
  }
  await visit(root, '')
  await Promise.all(pending)
  return { files, folders }
}
