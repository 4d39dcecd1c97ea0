/**
 * `ByteBuckets`: numbered buckets of bytes, appended to in any order and taken back once each. Injected I/O, so the
 * engine stays plain TypeScript: `memoryBuckets` keeps them in memory (the default, and the browser's); Node's
 * `createFileSpill` (src/engine/node/file-spill.ts) appends them to temporary files. The audit's row records
 * (src/engine/audit/rows/spill.ts) and the findings collector (findings-sink.ts) wait in one. `RandomAccessBuckets`
 * can also read a range of a bucket back without taking it: the near-duplicate search's fingerprints wait in one
 * (src/engine/audit/fingerprint-spill.ts).
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

/** `ByteBuckets` that can also read a range of a bucket back, leaving it in place. */
export interface RandomAccessBuckets extends ByteBuckets {
  /**
   * Bytes `[offset, offset + length)` of everything appended to `bucket` so far (appends still pending included).
   * The result may be a view of the bucket's own bytes: read it, do not change it.
   * @throws when the bucket holds fewer than `offset + length` bytes
   */
  read(bucket: number, offset: number, length: number): Promise<Uint8Array>
}

/** Buckets in memory. */
export function memoryBuckets(): RandomAccessBuckets {
  // per bucket: its appends and where each starts in the bucket
  const buckets = new Map<number, { chunks: Uint8Array[]; starts: number[]; size: number }>()
  return {
    async append(bucket, bytes) {
      const b = buckets.get(bucket)
      if (!b) buckets.set(bucket, { chunks: [bytes], starts: [0], size: bytes.byteLength })
      else {
        b.chunks.push(bytes)
        b.starts.push(b.size)
        b.size += bytes.byteLength
      }
    },
    async take(bucket) {
      const b = buckets.get(bucket)
      buckets.delete(bucket)
      return b ? concatBytes(b.chunks) : new Uint8Array(0)
    },
    async read(bucket, offset, length) {
      const b = buckets.get(bucket)
      const size = b?.size ?? 0
      if (!(offset >= 0 && length >= 0 && offset + length <= size)) throw new Error(`spill: bytes ${offset}–${offset + length} are past the end of bucket ${bucket} (${size} bytes)`)
      if (!b || length === 0) return new Uint8Array(0)
      // the last append starting at or before offset
      let lo = 0, hi = b.starts.length - 1
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1
        if (b.starts[mid] <= offset) lo = mid
        else hi = mid - 1
      }
      const first = b.chunks[lo], at = offset - b.starts[lo]
      if (at + length <= first.byteLength) return first.subarray(at, at + length)
      const out = new Uint8Array(length)
      for (let k = lo, done = 0; done < length; k++) {
        const from = k === lo ? at : 0
        const piece = b.chunks[k].subarray(from, from + length - done)
        out.set(piece, done)
        done += piece.byteLength
      }
      return out
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
