/**
 * A bounded LRU of byte ranges read from a source (in practice: row-group column chunks, runs of neighbouring
 * chunks read together, and footers), so that inspecting neighbouring examples does not refetch. Bounded by bytes,
 * not entries. A read inside any cached range of the same file is served from it (`getRange`).
 */

interface Entry { path: string; start: number; end: number; bytes: Uint8Array }

/** LRU cache of `path@start-end` → bytes, evicting least-recently-used entries beyond `maxBytes`. */
export class ChunkCache {
  private readonly entries = new Map<string, Entry>()
  /** Keys of the entries of each path (for `getRange`). */
  private readonly byPath = new Map<string, Set<string>>()
  private bytes = 0

  /** @param maxBytes upper bound on the bytes held (default 64 MiB) */
  constructor(readonly maxBytes = 64 * 1024 * 1024) {}

  /** Bytes currently held. */
  get size(): number {
    return this.bytes
  }

  /** The bytes cached under exactly `key` (`path@start-end`). */
  get(key: string): Uint8Array | undefined {
    const hit = this.entries.get(key)
    if (hit) this.touch(key, hit)
    return hit?.bytes
  }

  /** Bytes `[start, end)` of `path` when a cached range holds them (a view, no copy). */
  getRange(path: string, start: number, end: number): Uint8Array | undefined {
    const exact = this.get(rangeKey(path, start, end))
    if (exact) return exact
    const keys = this.byPath.get(path)
    if (!keys) return undefined
    for (const key of keys) {
      const e = this.entries.get(key)!
      if (e.start <= start && end <= e.end) {
        this.touch(key, e)
        return e.bytes.subarray(start - e.start, end - e.start)
      }
    }
    return undefined
  }

  set(key: string, value: Uint8Array): void {
    const at = key.lastIndexOf('@')
    const [start, end] = key.slice(at + 1).split('-').map(Number)
    this.put(key, { path: key.slice(0, at), start, end, bytes: value })
  }

  /** Caches bytes `[start, start + bytes.length)` of `path`. */
  setRange(path: string, start: number, bytes: Uint8Array): void {
    this.put(rangeKey(path, start, start + bytes.length), { path, start, end: start + bytes.length, bytes })
  }

  clear(): void {
    this.entries.clear()
    this.byPath.clear()
    this.bytes = 0
  }

  private put(key: string, entry: Entry): void {
    if (entry.bytes.byteLength > this.maxBytes) return
    this.remove(key)
    this.entries.set(key, entry)
    let keys = this.byPath.get(entry.path)
    if (!keys) this.byPath.set(entry.path, (keys = new Set()))
    keys.add(key)
    this.bytes += entry.bytes.byteLength
    for (const [k] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.remove(k)
    }
  }

  private remove(key: string): void {
    const old = this.entries.get(key)
    if (!old) return
    this.entries.delete(key)
    this.bytes -= old.bytes.byteLength
    const keys = this.byPath.get(old.path)!
    keys.delete(key)
    if (keys.size === 0) this.byPath.delete(old.path)
  }

  private touch(key: string, entry: Entry): void {
    this.entries.delete(key)
    this.entries.set(key, entry)
  }
}

/** The cache key of bytes `[start, end)` of `path`. */
function rangeKey(path: string, start: number, end: number): string {
  return `${path}@${start}-${end}`
}
