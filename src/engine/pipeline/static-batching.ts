/**
 * STATIC batching: fairseq2 `bucket(batch_size, drop_remainder)` (FS2:native/src/fairseq2n/data/bucket_data_source.cc;
 * docs/reference-pipeline.md §9 STATIC).
 */
import { MixscopeError } from '../core/findings.ts'
import type { ItemSource } from './iterables.ts'

/**
 * Yields consecutive groups of `batchSize` items; the last partial group is yielded unless `dropRemainder`.
 * @param onDropRemainder called with the discarded partial group, if any.
 */
export async function* staticBatches<T>(
  source: ItemSource<T>,
  batchSize: number,
  dropRemainder: boolean,
  onDropRemainder?: (items: T[]) => void,
): AsyncGenerator<T[]> {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new MixscopeError(`pipeline: STATIC batching needs batch_size ≥ 1 (the reference fails too), got ${batchSize}`, 'batch-size')
  }
  let batch: T[] = []
  for await (const item of source) {
    batch.push(item)
    if (batch.length === batchSize) {
      yield batch
      batch = []
    }
  }
  if (batch.length === 0) return
  if (dropRemainder) onDropRemainder?.(batch)
  else yield batch
}
