/**
 * fairseq2 `bucket_by_length` (FS2:native/src/fairseq2n/data/bucket_by_length_data_source.cc; docs/reference-pipeline.md §9.4).
 */
import type { BucketSize } from './buckets.ts'
import { asyncIteratorOf, type ItemSource } from './iterables.ts'
import { referenceError } from './errors.ts'

/** Options of `bucketByLength`, as the AsrTask sets them (skip flags are always true there). */
export interface BucketByLengthOptions<T> {
  /** Length of an item (samples): the stored `length`. */
  lengthOf: (item: T) => number
  /** Items shorter than this are skipped (`min_data_len` = `min_audio_len`). */
  minDataLen: number
  /** Discard the first leftover batch that is not full at end of input, and stop there. */
  dropRemainder: boolean
  /** Called for every skipped item: `below` min length or `above` the last bucket's length. */
  onSkip?: (item: T, why: 'below' | 'above') => void
  /** Called for leftover items discarded by `dropRemainder` (those in the dropped batch only). */
  onDropRemainder?: (items: T[]) => void
}

/**
 * Groups items into length buckets and yields each bucket when it is full, in insertion order.
 * - buckets sorted by `seqLen` ascending; an item goes to the first bucket with `seqLen ≥ length`;
 * - at end of input, from the largest bucket down, a non-empty bucket is topped up with items taken from the
 *   back of the next-smaller buckets (nearest first) and yielded; with `dropRemainder` the first such batch that
 *   is not full is discarded and iteration ends.
 * @param sizes bucket table (any order; sorted here by length, stable).
 * @returns batches `[items]`.
 */
export async function* bucketByLength<T>(source: ItemSource<T>, sizes: BucketSize[], options: BucketByLengthOptions<T>): AsyncGenerator<T[]> {
  if (sizes.length === 0) throw referenceError('bucket-sizes', 'ValueError', '`bucket_sizes` must contain at least one element.')
  const table = [...sizes].sort((a, b) => a.seqLen - b.seqLen)
  const maxDataLen = table[table.length - 1].seqLen
  const buckets: T[][] = table.map(() => [])
  const input = asyncIteratorOf(source)
  for (;;) {
    const r = await input.next()
    if (r.done) break
    const item = r.value
    const len = options.lengthOf(item)
    if (len < options.minDataLen) {
      options.onSkip?.(item, 'below')
      continue
    }
    if (len > maxDataLen) {
      options.onSkip?.(item, 'above')
      continue
    }
    const i = firstBucketAtLeast(table, len)
    buckets[i].push(item)
    if (buckets[i].length >= table[i].batchSize) {
      const out = buckets[i]
      buckets[i] = []
      yield out
    }
  }
  yield* flushLeftovers(buckets, table, options)
}

/** Index of the first bucket whose `seqLen ≥ len` (binary search; `table` sorted ascending, `len ≤` last). */
function firstBucketAtLeast(table: BucketSize[], len: number): number {
  let lo = 0
  let hi = table.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (table[mid].seqLen < len) lo = mid + 1
    else hi = mid
  }
  return lo
}

function* flushLeftovers<T>(buckets: T[][], table: BucketSize[], options: BucketByLengthOptions<T>): Generator<T[]> {
  for (let i = buckets.length - 1; i >= 0; i--) {
    const bucket = buckets[i]
    if (bucket.length === 0) continue
    let remaining = table[i].batchSize - bucket.length
    for (let j = i - 1; j >= 0 && remaining > 0; j--) {
      const other = buckets[j]
      while (remaining > 0 && other.length > 0) {
        bucket.push(other.pop() as T)
        remaining--
      }
    }
    buckets[i] = []
    if (options.dropRemainder && bucket.length !== table[i].batchSize) {
      options.onDropRemainder?.(bucket)
      return
    }
    yield bucket
  }
}
