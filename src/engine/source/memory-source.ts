/**
 * In-memory dataset source: a map of relative paths to bytes. For tests and for data already in memory.
 */
import { MixscopeError } from '../core/findings.ts'
import { newCounters, throwIfAborted } from './source.ts'
import type { DatasetSource, ReadOptions, SourceFile } from './source.ts'

/** Where a memory source says it lives, and what lies beside it. */
export interface MemorySourceOptions {
  /** Printed as `root`; default `memory:/<rootName>`. */
  root?: string
  /** Base name of the root folder, e.g. `version=0`; default `memory`. */
  rootName?: string
  /** Files in the root's parent folder (e.g. `language_distribution_0.tsv`); without it the parent is invisible. */
  siblings?: Record<string, Uint8Array>
}

/**
 * Checks a read's byte range: `start` a non-negative integer, `end` an integer or `Infinity`, `end ≥ start`.
 * Shared by every adapter, so a bad range reads the same everywhere.
 * @throws MixscopeError `bad-read-range` (exit class `usage`)
 */
export function checkReadRange(path: string, start: number, end: number): void {
  const endOk = Number.isSafeInteger(end) || end === Infinity
  if (!Number.isSafeInteger(start) || start < 0 || !endOk || end < start) {
    throw new MixscopeError(`source: read of "${path}" asks for bytes [${start}, ${end}), expected integers with 0 ≤ start ≤ end`, 'bad-read-range', 'usage')
  }
}

/**
 * Creates a source over `files` (relative path → bytes). Reads return copies, so callers may mutate them.
 * Each `read` counts one request and the bytes returned.
 */
export function createMemorySource(files: Record<string, Uint8Array>, options: MemorySourceOptions = {}): DatasetSource {
  const rootName = options.rootName ?? 'memory'
  const root = options.root ?? `memory:/${rootName}`
  const counters = newCounters()
  const siblings = options.siblings
  return {
    kind: 'memory',
    root,
    rootName,
    counters,
    async list(opts?: ReadOptions): Promise<SourceFile[]> {
      throwIfAborted(opts?.signal)
      return Object.entries(files).map(([path, bytes]) => ({ path, size: bytes.length }))
    },
    async read(path: string, start: number, end: number, opts?: ReadOptions): Promise<Uint8Array> {
      throwIfAborted(opts?.signal)
      checkReadRange(path, start, end)
      const bytes = Object.hasOwn(files, path) ? files[path] : undefined
      if (!bytes) throw new MixscopeError(`memory: no file "${path}" under ${root}`, 'file-not-found', 'io')
      const out = bytes.slice(start, Math.min(end, bytes.length))
      counters.requests++
      counters.bytes += out.length
      return out
    },
    async readOptional(path: string, opts?: ReadOptions): Promise<Uint8Array | null> {
      throwIfAborted(opts?.signal)
      const bytes = Object.hasOwn(files, path) ? files[path] : undefined
      if (!bytes) return null
      counters.requests++
      counters.bytes += bytes.length
      return bytes.slice()
    },
    async readSibling(name: string, opts?: ReadOptions): Promise<Uint8Array | null> {
      throwIfAborted(opts?.signal)
      const bytes = siblings && Object.hasOwn(siblings, name) ? siblings[name] : undefined
      if (!bytes) return null
      counters.requests++
      counters.bytes += bytes.length
      return bytes.slice()
    },
    async listSiblings(opts?: ReadOptions): Promise<string[]> {
      throwIfAborted(opts?.signal)
      return siblings ? Object.keys(siblings) : []
    },
  }
}
