/** One planned batch in numbers (no texts): what the Batches list shows per row. */
import { partitionKey } from '../pipeline/weights.ts'
import type { PlannedBatch } from '../pipeline/plan-batches.ts'

/** One batch as the list shows it: sizes in samples (16 kHz). */
export interface BatchSummary {
  index: number
  step: number
  indexInStep: number
  /** Examples in the batch. */
  size: number
  /** Longest example (samples): every example is padded to it. */
  longest: number
  /** `longest × size`: elements of the padded batch. */
  padded: number
  /** Σ example lengths. */
  samples: number
  /** `1 − samples / padded` (0 for an empty batch). */
  waste: number
  /** Examples per (corpus, language), most first (ties in first-seen order). */
  partitions: { corpus: string; language: string; count: number }[]
}

/** The summary of one planned batch. */
export function summarizeBatch(batch: PlannedBatch): BatchSummary {
  let longest = 0
  let samples = 0
  const counts = new Map<string, { corpus: string; language: string; count: number }>()
  for (const e of batch.examples) {
    longest = Math.max(longest, e.length)
    samples += e.length
    const key = partitionKey(e.corpus, e.language)
    const c = counts.get(key)
    if (c) c.count++
    else counts.set(key, { corpus: e.corpus, language: e.language, count: 1 })
  }
  const padded = longest * batch.examples.length
  return {
    index: batch.index, step: batch.step, indexInStep: batch.indexInStep, size: batch.examples.length, longest, padded, samples,
    waste: padded > 0 ? 1 - samples / padded : 0,
    partitions: [...counts.values()].sort((a, b) => b.count - a.count),
  }
}
