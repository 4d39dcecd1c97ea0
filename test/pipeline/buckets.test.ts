import { describe, expect, it } from 'vitest'
import { capBucketSizes, createBucketSizes, roundMaxNumElements, taskBucketSizes, type BucketSize } from '../../src/engine/pipeline/buckets.ts'

const pairs = (sizes: BucketSize[]) => sizes.map((b) => [b.batchSize, b.seqLen])

// docs/reference-pipeline.md §9 "Bucket tables"
const tables = [
  { name: 'AsrTaskConfig defaults', cfg: { max_num_elements: 3_200_000, max_audio_len: 800_000, min_audio_len: 1 }, m: 3_200_000, count: 3573,
    first: [[3200000, 1], [1600000, 2], [1066664, 3]], last: [[6, 533333], [5, 640000], [4, 800000]] },
  { name: 'ctc-finetune / llm-from-encoder', cfg: { max_num_elements: 960_000, max_audio_len: 960_000, min_audio_len: 32_000 }, m: 960_000, count: 30,
    first: [[24, 32000], [24, 33103], [24, 34285]], last: [[3, 320000], [2, 480000], [1, 960000]] },
  { name: '*-recommendation', cfg: { max_num_elements: 7_680_000, max_audio_len: 960_000, min_audio_len: 1 }, m: 7_680_000, count: 5534,
    first: [[7680000, 1], [3840000, 2]], last: [[8, 853333], [8, 960000]] },
  { name: 'llm-finetune', cfg: { max_num_elements: 320_000, max_audio_len: 320_000, min_audio_len: 32_000 }, m: 320_000, count: 10,
    first: [[8, 32000], [8, 35555], [8, 40000]], last: [[2, 160000], [1, 320000]] },
]

describe('taskBucketSizes reproduces the §9 tables', () => {
  for (const t of tables) {
    it(t.name, () => {
      const { sizes, maxNumElements } = taskBucketSizes({ ...t.cfg, num_seqs_multiple_of: 8, max_bucket_size: null })
      expect(maxNumElements).toBe(t.m)
      expect(sizes.length).toBe(t.count)
      const p = pairs(sizes)
      expect(p.slice(0, t.first.length)).toEqual(t.first)
      expect(p.slice(-t.last.length)).toEqual(t.last)
      for (const b of sizes) expect(b.batchSize * b.seqLen).toBeLessThanOrEqual(t.m)
      for (let i = 1; i < sizes.length; i++) expect(sizes[i].seqLen).toBeGreaterThan(sizes[i - 1].seqLen)
    })
  }
})

describe('createBucketSizes', () => {
  it('works a small table out by hand (M 12, max 6, min 2, k 1)', () => {
    // s=1 (skipped, < min); b=6,s=2 -> (6,2); b=4,s=3 -> (4,3); b=3,s=4 -> (3,4); b=2,s=6 stops; final (2,6)
    expect(pairs(createBucketSizes({ maxNumElements: 12, maxSeqLen: 6, minSeqLen: 2, numSeqsMultipleOf: 1 })))
      .toEqual([[6, 2], [4, 3], [3, 4], [2, 6]])
  })

  it('rounds counts above k down to a multiple of k and leaves counts ≤ k alone', () => {
    expect(pairs(createBucketSizes({ maxNumElements: 12, maxSeqLen: 6, minSeqLen: 1, numSeqsMultipleOf: 4 })))
      .toEqual([[12, 1], [4, 2], [4, 3], [3, 4], [2, 6]])
  })

  it('raises the reference errors with their messages', () => {
    const base = { maxNumElements: 12, maxSeqLen: 6, minSeqLen: 1, numSeqsMultipleOf: 1 }
    expect(() => createBucketSizes({ ...base, maxSeqLen: 13 })).toThrow('`max_seq_len` must be less than or equal to `max_num_elements` (12), but is 13 instead.')
    expect(() => createBucketSizes({ ...base, minSeqLen: 0 })).toThrow('`min_seq_len` must be greater than zero, but is 0 instead.')
    expect(() => createBucketSizes({ ...base, minSeqLen: 7 })).toThrow('`min_seq_len` must be less than or equal to `max_seq_len` (6), but is 7 instead.')
    expect(() => createBucketSizes({ ...base, numSeqsMultipleOf: 0 })).toThrow('`num_seqs_multiple_of` must be greater than or equal to 1, but is 0 instead.')
    expect(() => createBucketSizes({ ...base, maxSeqLen: 5 })).toThrow('`max_num_elements` must be equal to a multiple of `max_seq_len`, but is 12 instead.')
  })
})

describe('max_num_elements rounding and max_bucket_size', () => {
  it('rounds down to a multiple of max_audio_len', () => {
    expect(roundMaxNumElements(1_600_000, 960_000)).toEqual({ value: 960_000, rounded: true })
    expect(roundMaxNumElements(1_920_000, 960_000)).toEqual({ value: 1_920_000, rounded: false })
  })

  it('cap keeps buckets with count ≤ max_bucket_size and errors when none is left', () => {
    const sizes = createBucketSizes({ maxNumElements: 12, maxSeqLen: 6, minSeqLen: 2, numSeqsMultipleOf: 1 })
    expect(pairs(capBucketSizes(sizes, 3))).toEqual([[3, 4], [2, 6]])
    expect(() => capBucketSizes(sizes, 1)).toThrow('`bucket_sizes` must contain at least one element.')
    expect(capBucketSizes(sizes, null)).toBe(sizes)
  })
})
