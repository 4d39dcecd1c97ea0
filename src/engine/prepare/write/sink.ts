/**
 * Where `prepare` writes: a folder on disk (Node), a FileSystemDirectoryHandle the user picked, OPFS, or memory.
 * Paths are relative to the output root, `/`-separated. A file appears under its name only once closed (Node
 * writes a dot-named temporary and renames it; File System Access commits on close), so a cancelled run never
 * leaves a half-written parquet file that readers would see.
 */
import { MixscopeError } from '../../core/findings.ts'
import { createMemorySource } from '../../source/memory-source.ts'
import type { DatasetSource } from '../../source/source.ts'

/** The lock file a run holds in its output folder (`_`: no reader takes it for data). */
export const LOCK_FILE = '_prepare.lock'

/** One file being written. */
export interface OutputFile {
  /** Appends bytes (the sink may keep `bytes`: pass a copy if you reuse the buffer). */
  write(bytes: Uint8Array): Promise<void>
  /** Commits the file under its name. */
  close(): Promise<void>
  /** Drops what was written. */
  abort(): Promise<void>
}

/** An output folder. */
export interface OutputSink {
  /** Starts writing `path`, replacing any file of that name once closed. */
  create(path: string): Promise<OutputFile>
  /** Size of `path` in bytes, or `null` when it does not exist (resuming checks finished files). */
  size(path: string): Promise<number | null>
  /** The whole of a (small) file, or `null` when it does not exist (the resume state). */
  read(path: string): Promise<Uint8Array | null>
  /**
   * The output's folder `path` as a source to read back (the stats TSV is computed over all of `version=<V>`), or
   * null when the folder does not exist.
   */
  source(path: string): Promise<DatasetSource | null>
  /**
   * Takes the output for one run, so that a second run into it at the same time is refused instead of both
   * renaming files under each other.
   * @param owner what holds it, for the other run's message
   * @returns releases it
   * @throws MixscopeError (`output-locked`) naming the run that holds it
   */
  lock(owner: string): Promise<() => Promise<void>>
}

/** An in-memory sink (tests, and the browser's zip download): closed files in `files`. */
export function createMemorySink(): OutputSink & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>()
  let locked: string | null = null
  return {
    files,
    async create(path) {
      const chunks: Uint8Array[] = []
      return {
        async write(bytes) { chunks.push(bytes) },
        async close() {
          let n = 0
          for (const c of chunks) n += c.length
          const out = new Uint8Array(n)
          let at = 0
          for (const c of chunks) { out.set(c, at); at += c.length }
          files.set(path, out)
        },
        async abort() { chunks.length = 0 },
      }
    },
    async size(path) { return files.get(path)?.length ?? null },
    async read(path) { return files.get(path) ?? null },
    async source(path) {
      const prefix = `${path}/`
      const under = Object.fromEntries([...files].filter(([p]) => p.startsWith(prefix)).map(([p, b]) => [p.slice(prefix.length), b]))
      return Object.keys(under).length ? createMemorySource(under, { rootName: path.slice(path.lastIndexOf('/') + 1) }) : null
    },
    async lock(owner) {
      if (locked !== null) throw new MixscopeError(`prepare: the output is being written by another run (${locked})`, 'output-locked', 'usage')
      locked = owner
      return async () => { locked = null }
    },
  }
}
