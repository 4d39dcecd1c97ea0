/**
 * `RowSpill`: where the audit's metadata pass keeps its row records until their partition's turn (row-records.ts).
 * Injected I/O, so the engine stays plain TypeScript: `memorySpill` (the default, and the browser's) keeps them in
 * memory; Node's `createFileSpill` (src/engine/node/file-spill.ts) appends them to temporary files, so the pass
 * holds one partition at a time whatever the row count. An OPFS store fits the same interface.
 */

/** Buckets of bytes, appended to in any order and taken back once each. */
export interface RowSpill {
  /** Appends `bytes` to `bucket` (the spill owns them from now on). Appends to one bucket keep their order. */
  append(bucket: number, bytes: Uint8Array): Promise<void>
  /** Everything appended to `bucket`, in order; the bucket is emptied. */
  take(bucket: number): Promise<Uint8Array>
  /** Drops whatever is left (temporary files removed); the spill is not used again. */
  close(): Promise<void>
}

/** Makes the spill of one audit. */
export type RowSpillFactory = () => Promise<RowSpill>

/** A spill in memory. */
export function memorySpill(): RowSpill {
  const buckets = new Map<number, Uint8Array[]>()
  return {
    async append(bucket, bytes) {
      const list = buckets.get(bucket)
      if (list) list.push(bytes)
      else buckets.set(bucket, [bytes])
    },
    async take(bucket) {
      const list = buckets.get(bucket) ?? []
      buckets.delete(bucket)
      return concatBytes(list)
    },
    async close() {
      buckets.clear()
    },
  }
}

/** `parts` as one array (the part itself when there is one). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.byteLength
  }
  return out
}
