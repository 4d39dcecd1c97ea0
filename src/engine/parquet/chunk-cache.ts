/**
 * A bounded LRU of byte ranges read from a source (in practice: row-group column chunks and footers), so that
 * inspecting neighbouring examples does not refetch. Bounded by bytes, not entries.
 */

/** LRU cache of `path@start-end` → bytes, evicting least-recently-used entries beyond `maxBytes`. */
export class ChunkCache {
  private readonly entries = new Map<string, Uint8Array>()
  private bytes = 0

  /** @param maxBytes upper bound on the bytes held (default 64 MiB) */
  constructor(readonly maxBytes = 64 * 1024 * 1024) {}

  /** Bytes currently held. */
  get size(): number {
    return this.bytes
  }

  get(key: string): Uint8Array | undefined {
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
    }
    return hit
  }

  set(key: string, value: Uint8Array): void {
    if (value.byteLength > this.maxBytes) return
    const old = this.entries.get(key)
    if (old) {
      this.bytes -= old.byteLength
      this.entries.delete(key)
    }
    this.entries.set(key, value)
    this.bytes += value.byteLength
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(k)
      this.bytes -= v.byteLength
    }
  }

  clear(): void {
    this.entries.clear()
    this.bytes = 0
  }
}
