/**
 * Node file-system source: a dataset folder (or one `.parquet` file) on local disk.
 */
import { closeSync, fstatSync, openSync, read as readFd, readdirSync, readSync, statSync, type Stats } from 'node:fs'
import { constants as fsConstants } from 'node:fs'
import { open as openFile, readdir, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { MixscopeError } from '../core/findings.ts'
import { checkReadRange } from '../source/memory-source.ts'
import { newCounters, throwIfAborted } from '../source/source.ts'
import type { DatasetSource, ListProblem, ReadOptions, SourceFile } from '../source/source.ts'

/**
 * Opens `rootPath` as a dataset source.
 * - A folder: `list()` walks it recursively (following symlinks), ignored names included; paths are relative,
 *   `/`-separated, names as the OS returns them. `rootName` is the folder's base name.
 * - A file (one-file dataset, e.g. `x.parquet`): `list()` returns just that file, its path being its base name.
 * Siblings are the entries of the root's parent folder (the `language_distribution_*.tsv` beside `version=N`).
 * Each `read`/`readSibling`/`readOptional` counts one request and the bytes returned. At most 32 descriptors stay
 * open between reads (`close()` releases them; they are closed when the source is garbage-collected too).
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
  /** Entries the last walk could not take (a path past PATH_MAX, a link loop, a FIFO or device). */
  let problems: ListProblem[] = []
  const walkTree = async (signal?: AbortSignal): Promise<Tree> => {
    const tree: Tree = { files: [], folders: [], problems: [] }
    await walk(absolute, tree, dirKey(info), signal)
    folders = tree.folders
    problems = tree.problems
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
  const source: DatasetSource = {
    kind: 'fs',
    root: rootPath,
    rootName: basename(absolute),
    counters,
    async list(options?: ReadOptions): Promise<SourceFile[]> {
      throwIfAborted(options?.signal)
      if (singleFile) return [{ path: singleFile, size: info.size, mtimeMs: Math.floor(info.mtimeMs) }]
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
        const bytes = await readRegularFile(join(parent, name), `../${name}`, options?.signal)
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
    async readOptional(path: string, options?: ReadOptions): Promise<Uint8Array | null> {
      throwIfAborted(options?.signal)
      if (singleFile) return null
      try {
        const bytes = await readRegularFile(fullPath(path), path, options?.signal)
        counters.requests++
        counters.bytes += bytes.length
        return bytes
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null
        throw error
      }
    },
    listProblems(): ListProblem[] {
      return [...problems]
    },
    close(): void {
      files.closeAll()
    },
  }
  descriptorReaper.register(source, files)
  return source
}

/** Closes the descriptors of a source nobody holds any more (a safety net: callers close sources they are done with). */
const descriptorReaper = new FinalizationRegistry<FileCache>((cache) => cache.closeAll())

/** Reads up to this many bytes are done with `readSync` (a page-cache read takes microseconds). */
const syncReadLimit = 64 * 1024

/** An open file: its descriptor and size (read once). */
interface OpenFile {
  fd: number
  size: number
  /** reads in flight */
  users: number
  /** evicted from the cache: closed by the last read that still uses it */
  evicted: boolean
  closed: boolean
}

/**
 * Keeps the most recently read files open (LRU, at most `limit` descriptors), so a dataset read row group by row
 * group costs one open and one fstat per file rather than per read. Descriptors are closed synchronously, the moment
 * they leave the cache (or when the last read still using one ends): the process never holds more than `limit` plus
 * the reads in flight, whatever the number of files, so a 1,024 soft `ulimit -n` is never approached. (Closing on a
 * later event-loop turn, as this once did, let descriptors pile up while synchronous reads kept the loop busy.)
 */
export class FileCache {
  private readonly open = new Map<string, OpenFile>()
  /** Evicted while reads were using them: closed when the last one ends. */
  private readonly evictedInUse = new Set<OpenFile>()

  constructor(private readonly limit = 32) {}

  /** Descriptors held now (tests assert the bound). */
  get openCount(): number {
    let n = this.open.size
    for (const f of this.evictedInUse) if (!f.closed) n++
    return n
  }

  /** Reads `[start, min(end, size))` of `file`, looping over short reads. */
  async readRange(file: string, path: string, start: number, end: number): Promise<Uint8Array> {
    const entry = this.acquire(file, path)
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
      if (entry.evicted && entry.users === 0) this.closeEntry(entry)
    }
  }

  /** Closes every descriptor not in use now (those in use close when their reads end). */
  closeAll(): void {
    for (const entry of this.open.values()) this.evict(entry)
    this.open.clear()
  }

  private acquire(file: string, path: string): OpenFile {
    const hit = this.open.get(file)
    if (hit) {
      this.open.delete(file)
      this.open.set(file, hit)
      hit.users++
      return hit
    }
    let entry: OpenFile
    try {
      // open + fstat synchronously: microseconds each, where the thread-pool round trip costs tens
      const fd = openSync(file, 'r')
      try {
        entry = { fd, size: fstatSync(fd).size, users: 1, evicted: false, closed: false }
      } catch (error) {
        closeSync(fd)
        throw error
      }
    } catch (error) {
      const e = error as NodeJS.ErrnoException
      throw new MixscopeError(`fs: cannot open "${path}" (${e.code ?? e.message})`, 'file-not-found', 'io')
    }
    this.open.set(file, entry)
    while (this.open.size > this.limit) {
      const [oldest, old] = this.open.entries().next().value as [string, OpenFile]
      this.open.delete(oldest)
      this.evict(old)
    }
    return entry
  }

  private evict(entry: OpenFile): void {
    entry.evicted = true
    if (entry.users === 0) this.closeEntry(entry)
    else this.evictedInUse.add(entry)
  }

  private closeEntry(entry: OpenFile): void {
    this.evictedInUse.delete(entry)
    if (entry.closed) return
    entry.closed = true
    closeSync(entry.fd)
  }
}

/** Identity of a folder, to stop symlink loops. */
function dirKey(info: { dev: number; ino: number }): string {
  return `${info.dev}:${info.ino}`
}

/** What a walk collects: files and folders below the root, and the entries it could not take. */
interface Tree {
  files: SourceFile[]
  folders: string[]
  problems: ListProblem[]
}

/** Most bytes `readOptional`/`readSibling` read whole (an index of millions of rows is tens of MB). */
export const wholeFileLimit = 1 << 30

/** What a non-regular file is, for errors. */
function fileKind(info: Stats): string {
  return info.isFIFO() ? 'a FIFO' : info.isCharacterDevice() ? 'a character device' : info.isBlockDevice() ? 'a block device'
    : info.isSocket() ? 'a socket' : info.isDirectory() ? 'a folder' : 'not a regular file'
}

/**
 * Reads a whole regular file: opened non-blocking (a FIFO's open would wait for a writer), refused unless `fstat`
 * says it is a regular file (a FIFO, `/dev/zero` or a link to one never ends), and read to the size `fstat` gave,
 * at most `wholeFileLimit` bytes.
 * @throws MixscopeError `not-a-regular-file` / `file-too-large` (exit class `io`) naming `shown`; ENOENT and the like as thrown by `open`
 */
async function readRegularFile(full: string, shown: string, signal?: AbortSignal): Promise<Uint8Array> {
  const handle = await openFile(full, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  try {
    const info = await handle.stat()
    if (info.isDirectory()) throw Object.assign(new Error(`${shown} is a folder`), { code: 'EISDIR' })
    if (!info.isFile()) throw new MixscopeError(`fs: ${shown} is ${fileKind(info)}, not a regular file; it is not read`, 'not-a-regular-file', 'io')
    if (info.size > wholeFileLimit) throw new MixscopeError(`fs: ${shown} has ${info.size} bytes, more than the ${wholeFileLimit} read whole`, 'file-too-large', 'io')
    const bytes = new Uint8Array(info.size)
    let at = 0
    while (at < bytes.length) {
      throwIfAborted(signal)
      const { bytesRead } = await handle.read(bytes, at, Math.min(bytes.length - at, 1 << 24), at)
      if (bytesRead === 0) break
      at += bytesRead
    }
    return at === bytes.length ? bytes : bytes.subarray(0, at)
  } finally {
    await handle.close()
  }
}

/** Entries walked between two yields to the event loop (so an abort is seen, and timers run). */
const walkYieldEvery = 4096

/**
 * Appends every file and folder below `root` to `out`, with paths relative to it. Symlinks are followed (as pyarrow
 * does); a link back into a folder already on the way down, or a dangling link, is skipped. Synchronous `readdir` and
 * `stat` (microseconds each, where a thread-pool round trip per entry costs tens: 100,000 files list in well under a
 * second), yielding to the event loop every few thousand entries.
 */
async function walk(root: string, out: Tree, rootKey: string, signal?: AbortSignal): Promise<void> {
  let sinceYield = 0
  const visit = async (dir: string, prefix: string, above: Set<string>): Promise<void> => {
    const entries = readdirSync(dir, { withFileTypes: true })
    for (const entry of entries) {
      if (++sinceYield >= walkYieldEvery) {
        sinceYield = 0
        await new Promise<void>((resolve) => setImmediate(resolve))
        throwIfAborted(signal)
      }
      const full = join(dir, entry.name)
      const path = prefix + entry.name
      let info: Stats | undefined
      try {
        info = statSync(full, { throwIfNoEntry: false })
      } catch (error) {
        // a link loop (ELOOP), a path past PATH_MAX (ENAMETOOLONG), no permission: said, never dropped silently
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
        const why = code === 'ENAMETOOLONG' ? `its absolute path (${Buffer.byteLength(full)} bytes) is longer than the system allows`
          : code === 'ELOOP' ? 'it is a symbolic link loop' : `it cannot be read (${code})`
        out.problems.push({ path, message: `${path}: ${why}; it is not part of the dataset`, severity: code === 'ELOOP' ? 'info' : 'error' })
        continue
      }
      if (!info) continue // a dangling link, or a name that vanished
      if (info.isFile()) out.files.push({ path, size: info.size, mtimeMs: Math.floor(info.mtimeMs) })
      else if (info.isDirectory()) {
        if (above.has(dirKey(info))) {
          out.problems.push({ path, message: `${path}: a link back to a folder above it (a loop); it is not walked`, severity: 'info' })
          continue
        }
        out.folders.push(path)
        above.add(dirKey(info))
        await visit(full, path + '/', above)
        above.delete(dirKey(info))
      } else {
        out.problems.push({ path, message: `${path} is ${fileKind(info)}, not a regular file; it is not read` })
      }
    }
  }
  throwIfAborted(signal)
  await visit(root, '', new Set([rootKey]))
}
