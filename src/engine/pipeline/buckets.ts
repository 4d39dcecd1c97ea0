/**
 * Bucket tables for LENGTH batching: fairseq2/OA `create_bucket_sizes`, the `max_num_elements` rounding and the
 * `max_bucket_size` cap (docs/reference-pipeline.md §9 steps 1-3).
 */
import { referenceError } from './errors.ts'

/** One bucket: at most `batchSize` sequences, each at most `seqLen` samples long. */
export interface BucketSize {
  /** Maximum number of sequences in a batch from this bucket. */
  batchSize: number
  /** Maximum sequence length (audio samples) in this bucket. */
  seqLen: number
}

/** Inputs of `create_bucket_sizes`, in samples. */
export interface BucketSizeOptions {
  maxNumElements: number
  maxSeqLen: number
  minSeqLen: number
  numSeqsMultipleOf: number
}

/**
 * `max_num_elements` as the task uses it: rounded down to a multiple of `max_audio_len` when it is not one
 * (the reference logs a warning).
 * @returns `{ value, rounded }`, `value` in samples.
 */
export function roundMaxNumElements(maxNumElements: number, maxAudioLen: number): { value: number; rounded: boolean } {
  if (maxNumElements % maxAudioLen === 0) return { value: maxNumElements, rounded: false }
  return { value: Math.floor(maxNumElements / maxAudioLen) * maxAudioLen, rounded: true }
}

/**
 * `create_bucket_sizes`: pairs `(batchSize, seqLen)` with `batchSize * seqLen ≤ maxNumElements`, lengths ascending.
 * @throws the reference's `ValueError`s for inconsistent arguments.
 */
export function createBucketSizes(options: BucketSizeOptions): BucketSize[] {
  const { maxNumElements: m, maxSeqLen, minSeqLen, numSeqsMultipleOf: k } = options
  const bad = (msg: string) => referenceError('bucket-sizes', 'ValueError', msg)
  if (maxSeqLen > m) {
    throw bad(`\`max_seq_len\` must be less than or equal to \`max_num_elements\` (${m}), but is ${maxSeqLen} instead.`)
  }
  if (minSeqLen < 1) throw bad(`\`min_seq_len\` must be greater than zero, but is ${minSeqLen} instead.`)
  if (minSeqLen > maxSeqLen) {
    throw bad(`\`min_seq_len\` must be less than or equal to \`max_seq_len\` (${maxSeqLen}), but is ${minSeqLen} instead.`)
  }
  if (k < 1) throw bad(`\`num_seqs_multiple_of\` must be greater than or equal to 1, but is ${k} instead.`)
  if (m % maxSeqLen !== 0) {
    throw bad(`\`max_num_elements\` must be equal to a multiple of \`max_seq_len\`, but is ${m} instead.`)
  }
  const sizes: BucketSize[] = []
  let seqLen = 1
  let batchSize = m
  while (seqLen < maxSeqLen) {
    if (seqLen >= minSeqLen) sizes.push({ batchSize, seqLen })
    batchSize = Math.floor(m / (seqLen + 1))
    seqLen = Math.floor(m / batchSize)
  }
  sizes.push({ batchSize, seqLen: maxSeqLen })
  if (k === 1) return sizes
  return sizes.map(({ batchSize: b, seqLen: s }) => ({ batchSize: b > k ? b - (b % k) : b, seqLen: s }))
}

/**
 * The `max_bucket_size` cap: keep buckets with `batchSize ≤ maxBucketSize` (drops the short, large-count buckets).
 * @param maxBucketSize `null` = no cap.
 * @throws the reference's error when nothing is left.
 */
export function capBucketSizes(sizes: BucketSize[], maxBucketSize: number | null): BucketSize[] {
  const kept = maxBucketSize === null ? sizes : sizes.filter((b) => b.batchSize <= maxBucketSize)
  if (kept.length === 0) {
    throw referenceError('bucket-sizes', 'ValueError', '`bucket_sizes` must contain at least one element.')
  }
  return kept
}

/** LENGTH batching inputs as the AsrTask config names them. */
export interface LengthBucketConfig {
  min_audio_len: number
  max_audio_len: number
  max_num_elements: number
  num_seqs_multiple_of: number
  max_bucket_size: number | null
}

/**
 * The bucket table the task builds from its config: rounding, `create_bucket_sizes`, then the cap.
 * @returns the table and `maxNumElements` after rounding (samples).
 */
export function taskBucketSizes(config: LengthBucketConfig): { sizes: BucketSize[]; maxNumElements: number; rounded: boolean } {
  const { value, rounded } = roundMaxNumElements(config.max_num_elements, config.max_audio_len)
  const sizes = createBucketSizes({
    maxNumElements: value,
    maxSeqLen: config.max_audio_len,
    minSeqLen: config.min_audio_len,
    numSeqsMultipleOf: config.num_seqs_multiple_of,
  })
  return { sizes: capBucketSizes(sizes, config.max_bucket_size), maxNumElements: value, rounded }
}
