/**
 * Training-sized batches for the benchmarks: fairseq2 LENGTH batching (`create_bucket_sizes` + `bucket_by_length`,
 * the project's own implementation) over the corpus' utterance lengths, so every padded batch holds at most
 * `max_num_elements` samples (`batch size × longest utterance`).
 */
import { bucketByLength, collect, createBucketSizes } from '../../src/engine/index.ts'

/** `max_num_elements` of the benchmarks: 960,000 samples (60 s at 16 kHz) per padded batch. */
export const BENCH_MAX_NUM_ELEMENTS = 960_000

/**
 * Groups utterances into padded batches of at most `maxNumElements` samples.
 * @param lengths samples per utterance
 * @returns batches as utterance indices; every index appears exactly once
 * @throws when an utterance is longer than `maxNumElements` (it could never be batched)
 */
export async function trainingBatches(lengths: number[], maxNumElements = BENCH_MAX_NUM_ELEMENTS): Promise<number[][]> {
  const longest = Math.max(...lengths)
  if (longest > maxNumElements) throw new Error(`bench: an utterance of ${longest} samples exceeds max_num_elements ${maxNumElements}`)
  const sizes = createBucketSizes({ maxNumElements, maxSeqLen: maxNumElements, minSeqLen: 1, numSeqsMultipleOf: 1 })
  const batches = await collect(bucketByLength(lengths.map((_, i) => i), sizes, { lengthOf: (i) => lengths[i], minDataLen: 1, dropRemainder: false }))
  const seen = batches.flat().sort((a, b) => a - b)
  if (seen.length !== lengths.length || seen.some((v, i) => v !== i)) throw new Error(`bench: batching lost or repeated utterances (${seen.length} of ${lengths.length})`)
  for (const b of batches) {
    const padded = b.length * Math.max(...b.map((i) => lengths[i]))
    if (padded > maxNumElements) throw new Error(`bench: batch of ${b.length} pads to ${padded} samples > ${maxNumElements}`)
  }
  return batches
}
