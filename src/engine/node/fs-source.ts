/**
 * Node file-system source: a dataset folder (or one `.parquet` file) on local disk.
 */
import { close, fstatSync, openSync, read as readFd, readSync } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { MixscopeError } from '../findings.ts'
import { checkReadRange } from '../source/memory-source.ts'
import { newCounters, throwIfAborted } from '../source/source.ts'
import type { DatasetSource, ReadOptions, SourceFile } from '../source/source.ts'

/**
 * Opens `rootPath` as a dataset source.
 * - A folder: `list()` walks it recursively (following symlinks), ignored names included; paths are relative,
 *   `/`-separated, names as the OS returns them. `rootName` is the folder's base name.
 * - A file (one-file dataset, e.g. `x.parquet`): `list()` returns just that file, its path being its base name.
 * Siblings are the entries of the root's parent folder (the `language_distribution_*.tsv` beside `version=N`).
 * Each `read`/`readSibling` counts one request and the bytes returned.
 * @throws MixscopeError `root-not-found` (exit class `io`) when `rootPath` does not exist.
 */
export async function createFsSource(rootPath: string): Promise<DatasetSource> {
  const absolute = resolve(rootPath)
  const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
    throw new MixscopeError(`fs: cannot open dataset root "${rootPath}" (${error.code ?? error.message})`, 'root-not-found', 'io')
  })
  const singleFile = info.isFile() ? basename(absolute) : null
  if (!singleFile && !info.isDirectory()) {
    throw new MixscopeError(`fs: dataset root "${rootPath}" is neither a folder nor a file`, 'root-not-found', 'io')
  }
  const parent = dirname(absolute)
  const counters = newCounters()
  const files = new FileCache()
  /** Folders seen by the last walk (`list()` walks; `listFolders()` reuses it). */
  let folders: string[] | null = null
  const walkTree = async (signal?: AbortSignal): Promise<Tree> => {
    const tree: Tree = { files: [], folders: [] }
    await walk(absolute, '', tree, new Set([dirKey(info)]), signal)
    folders = tree.folders
    return tree
  }
  const fullPath = (path: string): string => {
    if (singleFile) {
      if (path !== singleFile) throw new MixscopeError(`fs: no file "${path}" in one-file dataset "${rootPath}"`, 'file-not-found', 'io')
      return absolute
    }
    if (path.split('/').some((part) => part === '..' || part === '.' || part === '')) {
      throw new MixscopeError(`fs: path "${path}" is not a plain relative path under "${rootPath}"`, 'file-not-found', 'io')
    }
    return join(absolute, ...path.split('/'))
  }
  return {
    kind: 'fs',
    root: rootPath,
    rootName: basename(absolute),
    counters,
    async list(options?: ReadOptions): Promise<SourceFile[]> {
      throwIfAborted(options?.signal)
      if (singleFile) return [{ path: singleFile, size: info.size }]
      return (await walkTree(options?.signal)).files
    },
    async listFolders(options?: ReadOptions): Promise<string[]> {
      throwIfAborted(options?.signal)
      if (singleFile) return []
      return [...(folders ?? (await walkTree(options?.signal)).folders)]
    },
    async read(path: string, start: number, end: number, options?: ReadOptions): Promise<Uint8Array> {
      throwIfAborted(options?.signal)
      checkReadRange(path, start, end)
      const bytes = await files.readRange(fullPath(path), path, start, end)
      throwIfAborted(options?.signal)
      counters.requests++
      counters.bytes += bytes.length
      return bytes
    },
    async readSibling(name: string, options?: ReadOptions): Promise<Uint8Array | null> {
      throwIfAborted(options?.signal)
      if (name.includes('/') || name.includes('\\') || name === '..' || name === '.') return null
      try {
        const bytes = new Uint8Array(await readFile(join(parent, name), { signal: options?.signal }))
        counters.requests++
        counters.bytes += bytes.length
        return bytes
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null
        throw error
      }
    },
    async listSiblings(options?: ReadOptions): Promise<string[]> {
      throwIfAborted(options?.signal)
      const entries = await readdir(parent, { withFileTypes: true })
      return entries.filter((e) => e.isFile() || e.isSymbolicLink()).map((e) => e.name)
    },
  }
}

/** Reads up to this many bytes are done with `readSync` (a page-cache read takes microseconds). */
const syncReadLimit = 64 * 1024

/** An open file: its descriptor and size (read once). */
interface OpenFile {
  fd: number
  size: number
  /** reads in flight */
  users: number
  /** evicted from the cache: close when the last read ends */
  evicted: boolean
  closed: boolean
}

function closeOnce(f: OpenFile): void {
  if (f.closed || f.users > 0) return
  f.closed = true
  close(f.fd, () => {})
}

/**
 * Keeps recently read files open (LRU, at most `limit` descriptors, well under the usual 1024 soft limit), so a dataset read row group by row group
 * costs one open and one fstat per file rather than per read (stats on 2,000 files make ~10,000 reads).
 */
class FileCache {
  private readonly open = new Map<string, Promise<OpenFile>>()

  constructor(private readonly limit = 256) {}

  /** Reads `[start, min(end, size))` of `file`, looping over short reads. */
  async readRange(file: string, path: string, start: number, end: number): Promise<Uint8Array> {
    const entry = await this.get(file, path)
    entry.users++
    try {
      const length = Math.max(0, Math.min(end, entry.size) - start)
      const out = new Uint8Array(length)
      let done = 0
      while (done < length) {
        // small reads (footers, audio_size chunks) are faster synchronously than through the thread pool
        const bytesRead = length - done <= syncReadLimit
          ? readSync(entry.fd, out, done, length - done, start + done)
          : await new Promise<number>((ok, fail) => readFd(entry.fd, out, done, length - done, start + done, (error, n) => (error ? fail(error) : ok(n))))
        if (bytesRead === 0) break
        done += bytesRead
      }
      return done === length ? out : out.subarray(0, done)
    } finally {
      entry.users--
      if (entry.evicted) closeOnce(entry)
    }
  }

  private get(file: string, path: string): Promise<OpenFile> {
    const hit = this.open.get(file)
    if (hit) {
      this.open.delete(file)
      this.open.set(file, hit)
      return hit
    }
    // open + fstat synchronously: microseconds each, where the thread-pool round trip costs tens
    let opened: Promise<OpenFile>
    try {
      const fd = openSync(file, 'r')
      try {
        opened = Promise.resolve({ fd, size: fstatSync(fd).size, users: 0, evicted: false, closed: false })
      } catch (error) {
        close(fd, () => {})
        throw error
      }
    } catch (error) {
      const e = error as NodeJS.ErrnoException
      opened = Promise.reject(new MixscopeError(`fs: cannot open "${path}" (${e.code ?? e.message})`, 'file-not-found', 'io'))
    }
    opened.catch(() => this.open.delete(file))
    this.open.set(file, opened)
    while (this.open.size > this.limit) {
      const [oldest, entry] = this.open.entries().next().value as [string, Promise<OpenFile>]
      this.open.delete(oldest)
      // readers that already hold the entry resume (microtasks) before setImmediate, so they keep it open
      entry.then((f) => {
        f.evicted = true
        setImmediate(() => closeOnce(f))
      }, () => {})
    }
    return opened
  }
}

/** Identity of a folder, to stop symlink loops. */
function dirKey(info: { dev: number; ino: number }): string {
  return `${info.dev}:${info.ino}`
}

/** What a walk collects: files and folders below the root. */
interface Tree {
  files: SourceFile[]
  folders: string[]
}

/**
 * Appends every file and folder below `dir` to `out`, with paths prefixed by `prefix`. Symlinks are followed
 * (as pyarrow does); a link back into a folder already on the way down, or a dangling link, is skipped.
 */
async function walk(dir: string, prefix: string, out: Tree, above: Set<string>, signal?: AbortSignal): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true })
  for (const entry of entries) {
    throwIfAborted(signal)
    const full = join(dir, entry.name)
    const path = prefix + entry.name
    const info = await stat(full).catch(() => null)
    if (!info) continue
    if (info.isFile()) out.files.push({ path, size: info.size })
    else if (info.isDirectory() && !above.has(dirKey(info))) {
      out.folders.push(path)
      await walk(full, path + '/', out, new Set([...above, dirKey(info)]), signal)
    }
  }
}
