/**
 * A source wrapper that records every read, so tests can assert how much I/O an operation costs
 * (which byte ranges, how often) independently of the adapter underneath.
 */
import { newCounters } from './source.ts'
import type { DatasetSource, IoCounters, ReadOptions, SourceFile } from './source.ts'

/** One `read` call as the wrapper saw it. */
export interface ReadRecord {
  path: string
  /** Requested start byte. */
  start: number
  /** Requested end byte (exclusive, before clamping to the file size). */
  end: number
  /** Bytes actually returned. */
  bytes: number
}

/** A wrapped source plus its read log. */
export interface CountingSource extends DatasetSource {
  /** Every completed `read`, in completion order. */
  readonly reads: ReadRecord[]
  /** Number of `list` calls so far. */
  readonly listCalls: number
  /** Completed reads of one path. */
  readsOf(path: string): ReadRecord[]
  /** Clears the log and zeroes this wrapper's counters (the inner source's counters are untouched). */
  reset(): void
}

/**
 * Wraps `inner`: `counters` counts `read`/`readSibling`/`readOptional` calls (requests) and bytes returned,
 * whatever the inner source does below (retries, whole-file caching).
 */
export function createCountingSource(inner: DatasetSource): CountingSource {
  const counters: IoCounters = newCounters()
  const reads: ReadRecord[] = []
  let listCalls = 0
  const source: CountingSource = {
    kind: inner.kind,
    root: inner.root,
    rootName: inner.rootName,
    counters,
    reads,
    get listCalls() { return listCalls },
    async list(options?: ReadOptions): Promise<SourceFile[]> {
      listCalls++
      return inner.list(options)
    },
    async read(path: string, start: number, end: number, options?: ReadOptions): Promise<Uint8Array> {
      const bytes = await inner.read(path, start, end, options)
      reads.push({ path, start, end, bytes: bytes.length })
      counters.requests++
      counters.bytes += bytes.length
      return bytes
    },
    readsOf(path: string): ReadRecord[] {
      return reads.filter((r) => r.path === path)
    },
    reset(): void {
      reads.length = 0
      listCalls = 0
      counters.requests = 0
      counters.bytes = 0
    },
  }
  const readSibling = inner.readSibling
  if (readSibling) {
    source.readSibling = async (name: string, options?: ReadOptions) => {
      const bytes = await readSibling.call(inner, name, options)
      counters.requests++
      counters.bytes += bytes?.length ?? 0
      return bytes
    }
  }
  const listSiblings = inner.listSiblings
  if (listSiblings) source.listSiblings = (options?: ReadOptions) => listSiblings.call(inner, options)
  const listFolders = inner.listFolders
  if (listFolders) source.listFolders = (options?: ReadOptions) => listFolders.call(inner, options)
  const readOptional = inner.readOptional
  if (readOptional) {
    source.readOptional = async (path: string, options?: ReadOptions) => {
      const bytes = await readOptional.call(inner, path, options)
      counters.requests++
      counters.bytes += bytes?.length ?? 0
      return bytes
    }
  }
  if (inner.adoptListing) source.adoptListing = inner.adoptListing.bind(inner)
  if (inner.listProblems) source.listProblems = inner.listProblems.bind(inner)
  if (inner.close) source.close = inner.close.bind(inner)
  Object.defineProperty(source, 'parallelism', { get: () => inner.parallelism, enumerable: true })
  return source
}
