/**
 * `ByteBuckets`: numbered buckets of bytes, appended to in any order and taken back once each. Injected I/O, so the
 * engine stays plain TypeScript: `memoryBuckets` keeps them in memory (the default, and the browser's); Node's
 * `createFileSpill` (src/engine/node/file-spill.ts) appends them to temporary files. The audit's row records
 * (src/engine/audit/rows/spill.ts) and the findings collector (findings-sink.ts) wait in one.
 */

/** Buckets of bytes, appended to in any order and taken back once each. */
export interface ByteBuckets {
  /** Appends `bytes` to `bucket` (the buckets own them from now on). Appends to one bucket keep their order. */
  append(bucket: number, bytes: Uint8Array): Promise<void>
  /** Everything appended to `bucket`, in order; the bucket is emptied. */
  take(bucket: number): Promise<Uint8Array>
  /** Drops whatever is left (temporary files removed); the buckets are not used again. */
  close(): Promise<void>
}

/** Buckets in memory. */
export function memoryBuckets(): ByteBuckets {
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
