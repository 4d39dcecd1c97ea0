/**
 * Where `prepare` writes: a folder on disk (Node), a FileSystemDirectoryHandle the user picked, OPFS, or memory.
 * Paths are relative to the output root, `/`-separated. A file appears under its name only once closed (Node
 * writes a dot-named temporary and renames it; File System Access commits on close), so a cancelled run never
 * leaves a half-written parquet file that readers would see.
 */

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
}

/** An in-memory sink (tests, and the browser's zip download): closed files in `files`. */
export function createMemorySink(): OutputSink & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>()
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
  }
}
