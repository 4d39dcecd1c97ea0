/**
 * Source over a File System Access `FileSystemDirectoryHandle` (from `showDirectoryPicker()` or OPFS).
 * Typed structurally, so a real handle, an OPFS handle or a test fake all fit.
 */
import { MixscopeError } from '../findings.ts'
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

/** The part of `FileSystemDirectoryHandle` the source needs (its async `values()` iterator). */
export interface DirectoryHandleLike extends HandleLike {
  readonly kind: 'directory'
  values(): AsyncIterable<HandleLike>
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
      return [...files].map(([path, file]) => ({ path, size: file.size }))
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
  }
}

/** A walked directory: relative path → File snapshot, and every folder's relative path. */
interface WalkedDirectory {
  files: Map<string, Blob>
  folders: string[]
}

/** Walks `root` depth-first. */
async function walkDirectory(root: DirectoryHandleLike, signal?: AbortSignal): Promise<WalkedDirectory> {
  const files = new Map<string, Blob>()
  const folders: string[] = []
  const visit = async (dir: DirectoryHandleLike, prefix: string): Promise<void> => {
    for await (const entry of dir.values()) {
      throwIfAborted(signal)
      const path = prefix + entry.name
      if (entry.kind === 'directory') {
        folders.push(path)
        await visit(entry as DirectoryHandleLike, path + '/')
      }
      else files.set(path, await (entry as FileHandleLike).getFile())
    }
  }
  await visit(root, '')
  return { files, folders }
}
