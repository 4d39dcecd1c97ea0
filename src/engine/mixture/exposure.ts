/**
 * What the sampler makes the model see over N optimizer steps: per (corpus, language) and per language, the hours
 * drawn by step N, how many times its data is repeated (`expected_epochs`), and the probability it is never drawn
 * (`p_not_drawn`). docs/interpretations.md "Exposure over training" states the model and its approximations.
 *
 * The model follows the reference (docs/reference-pipeline.md §5, §8, §9): every example yielded by the sampler is one
 * i.i.d. categorical draw with the sampling probabilities, and every rank draws the same partition sequence (same
 * `sampling_seed`); the length filter drops what is outside `[min_audio_len, max_audio_len]`; a kept example of
 * length L fills 1/batchSize(L) of a batch (the LENGTH bucket table, or `batch_size` for STATIC); a step is
 * `num_accumulate` batches per rank, on `world_size` ranks that read disjoint shards of every partition. Row lengths
 * come from the row groups' `audio_size` facts, so no row is read: a row group inside the length filter's bounds
 * counts all its rows at their mean length; one whose `[min, max]` straddles a bound has one row at `min`, one at
 * `max` and the others at the mean of the rest (the facts say exactly that much), each kept or not.
 */
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { taskBucketSizes } from '../pipeline/buckets.ts'
import type { BucketSize } from '../pipeline/buckets.ts'
import { finding, type Finding } from '../core/findings.ts'

/**
 * Stored lengths of one partition's rows at row-group granularity: `rows[k]` rows of mean length `lengths[k]` samples,
 * all within `[mins[k], maxs[k]]` when those are given.
 */
export interface LengthBins {
  lengths: number[]
  rows: number[]
  mins?: number[]
  maxs?: number[]
}

/** One partition as the exposure model takes it. */
export interface ExposurePartition {
  corpus: string
  language: string
  /** Partition folder of its first file, for findings. */
  path: string
  /** Probability that one draw picks it (the sampler's, or its share of rows in a single stream). */
  probability: number
  bins: LengthBins
}

/** The per-rank draw rate the config's batching gives, and what each partition contributes to it. */
export interface ExposureModel {
  /** Sampler draws per optimizer step on one rank (the same partition sequence on every rank); `null` when no draw is ever kept. */
  draws_per_step: number | null
  /** Kept examples per batch, on average. */
  examples_per_batch: number | null
  /** `num_accumulate × world_size`. */
  batches_per_step: number
  basis: 'length-buckets' | 'batch_size'
  partitions: ExposurePartitionModel[]
}

/** One partition's constants in the model. */
export interface ExposurePartitionModel {
  corpus: string
  language: string
  path: string
  probability: number
  /** Hours of its rows the length filter keeps (the data a draw can give). */
  hours_available: number
  /** Fraction of its rows the length filter keeps. */
  kept_fraction: number
  /** Mean length of its kept rows, seconds (`null` when none is kept). */
  mean_kept_seconds: number | null
}

/** What the model says about one partition (or one language) by a step. */
export interface ExposureRow {
  corpus: string | null
  language: string
  probability: number
  hours_available: number
  /** Expected hours of its data seen by the model (all ranks) by the step. */
  hours_drawn: number | null
  /** `hours_drawn / hours_available` (`null` without data). */
  expected_epochs: number | null
  /** Probability that no draw on any rank picked it by the step. */
  p_not_drawn: number | null
}

/**
 * The model's constants for `partitions` under `config`'s batching.
 * @throws the reference's bucket-table errors for an inconsistent LENGTH config (callers report those elsewhere).
 */
export function exposureModel(partitions: ExposurePartition[], config: PipelineConfig): ExposureModel {
  const statics = config.batching_strategy === 'STATIC'
  const table: BucketSize[] = statics ? [] : [...taskBucketSizes(config).sizes].sort((a, b) => a.seqLen - b.seqLen)
  const maxLen = Math.min(config.max_audio_len, statics ? Infinity : table[table.length - 1]!.seqLen)
  const batchFraction = (length: number) => statics ? 1 / config.batch_size : 1 / table[firstAtLeast(table, length)]!.batchSize
  let batchesPerDraw = 0
  let keptPerDraw = 0
  const models = partitions.map((p): ExposurePartitionModel => {
    const total = p.bins.rows.reduce((s, r) => s + r, 0)
    let keptRows = 0
    let keptSamples = 0
    let batches = 0
    p.bins.lengths.forEach((mean, k) => {
      const { rows, length } = keptPart(p.bins.rows[k]!, mean, p.bins.mins?.[k], p.bins.maxs?.[k], config.min_audio_len, maxLen)
      if (rows <= 0) return
      keptRows += rows
      keptSamples += rows * length
      batches += rows * batchFraction(length)
    })
    if (total > 0) {
      batchesPerDraw += p.probability * batches / total
      keptPerDraw += p.probability * keptRows / total
    }
    return {
      corpus: p.corpus, language: p.language, path: p.path, probability: p.probability,
      hours_available: keptSamples / 16_000 / 3600,
      kept_fraction: total > 0 ? keptRows / total : 0,
      mean_kept_seconds: keptRows > 0 ? keptSamples / keptRows / 16_000 : null,
    }
  })
  const drawsPerStep = batchesPerDraw > 0 ? config.num_accumulate / batchesPerDraw : null
  return {
    draws_per_step: drawsPerStep,
    examples_per_batch: batchesPerDraw > 0 ? keptPerDraw / batchesPerDraw : null,
    batches_per_step: config.num_accumulate * config.world_size,
    basis: statics ? 'batch_size' : 'length-buckets',
    partitions: models,
  }
}

/** Each partition's exposure by `steps` optimizer steps. */
export function exposureAt(model: ExposureModel, steps: number, worldSize: number): ExposureRow[] {
  const draws = model.draws_per_step === null ? null : model.draws_per_step * steps
  return model.partitions.map((p) => {
    const drawn = draws === null || p.mean_kept_seconds === null ? (draws === null ? null : 0)
      : worldSize * draws * p.probability * p.kept_fraction * p.mean_kept_seconds / 3600
    return {
      corpus: p.corpus, language: p.language, probability: p.probability, hours_available: p.hours_available,
      hours_drawn: drawn,
      expected_epochs: drawn === null || p.hours_available <= 0 ? null : drawn / p.hours_available,
      p_not_drawn: draws === null ? null : notDrawn(p.probability, draws),
    }
  })
}

/** The same by language: hours and availability summed over corpora, `p_not_drawn` the product (one draw sequence). */
export function exposureByLanguage(rows: ExposureRow[]): ExposureRow[] {
  const byLanguage = new Map<string, ExposureRow>()
  for (const r of rows) {
    const acc = byLanguage.get(r.language)
    if (!acc) {
      byLanguage.set(r.language, { ...r, corpus: null })
      continue
    }
    acc.probability += r.probability
    acc.hours_available += r.hours_available
    acc.hours_drawn = acc.hours_drawn === null || r.hours_drawn === null ? null : acc.hours_drawn + r.hours_drawn
    acc.p_not_drawn = acc.p_not_drawn === null || r.p_not_drawn === null ? null : acc.p_not_drawn * r.p_not_drawn
  }
  for (const r of byLanguage.values()) r.expected_epochs = r.hours_drawn === null || r.hours_available <= 0 ? null : r.hours_drawn / r.hours_available
  return [...byLanguage.values()]
}

/** Steps to draw a curve at: 1, 2, 5, 10, 20, 50, … below `steps`, then `steps`. */
export function curveSteps(steps: number): number[] {
  const out: number[] = []
  for (let decade = 1; decade < steps; decade *= 10) {
    for (const m of [1, 2, 5]) if (m * decade < steps) out.push(m * decade)
  }
  out.push(steps)
  return out
}

/**
 * `over-repeated-partition` where a partition's data is seen more than `exposure.max_epochs` times by `steps`, and
 * `unseen-partition` where it is more likely than `exposure.max_p_not_drawn` never to be drawn.
 */
export function exposureFindings(rows: ExposureRow[], paths: Map<string, string>, config: PipelineConfig, steps: number): Finding[] {
  const out: Finding[] = []
  const { max_epochs: maxEpochs, max_p_not_drawn: maxUnseen } = config.exposure
  const n = steps.toLocaleString('en-US')
  for (const r of rows) {
    const name = `${r.corpus}/${r.language}`
    const path = paths.get(name) ?? ''
    if (r.expected_epochs !== null && r.expected_epochs > maxEpochs) {
      out.push(finding('warning', 'over-repeated-partition', path,
        `${name}: its ${r.hours_available.toPrecision(3)} h are seen ${r.expected_epochs.toPrecision(3)} times by step ${n} (${(r.hours_drawn ?? 0).toPrecision(3)} h drawn), more than exposure.max_epochs = ${maxEpochs}: the model may memorize it; lower beta_language/beta_corpus or add data`))
    }
    if (r.p_not_drawn !== null && r.p_not_drawn > maxUnseen) {
      out.push(finding('warning', 'unseen-partition', path,
        `${name}: drawn with probability ${r.probability.toPrecision(3)} per example, it is never drawn by step ${n} with probability ${r.p_not_drawn.toPrecision(3)} (above exposure.max_p_not_drawn = ${maxUnseen}): the model will likely not see it; raise beta_language/beta_corpus or train longer`))
    }
  }
  return out
}

/**
 * The rows of a row group the length filter `[lo, hi]` keeps, and their mean length: all at the mean when `[min, max]`
 * lies inside (or is unknown and the mean does); else one row at `min`, one at `max`, the other `rows − 2` at the mean
 * of the rest, each kept when inside the bounds.
 */
function keptPart(rows: number, mean: number, min: number | undefined, max: number | undefined, lo: number, hi: number): { rows: number; length: number } {
  const inside = (length: number) => length >= lo && length <= hi
  if (min === undefined || max === undefined || rows < 3 || (min >= lo && max <= hi)) {
    if (min !== undefined && max !== undefined && rows === 2) return sumOf([[1, min], [1, max]], inside)
    return inside(mean) ? { rows, length: mean } : { rows: 0, length: 0 }
  }
  return sumOf([[1, min], [1, max], [rows - 2, (mean * rows - min - max) / (rows - 2)]], inside)
}

function sumOf(parts: [rows: number, length: number][], inside: (length: number) => boolean): { rows: number; length: number } {
  let rows = 0
  let samples = 0
  for (const [n, length] of parts) {
    if (!inside(length)) continue
    rows += n
    samples += n * length
  }
  return rows > 0 ? { rows, length: samples / rows } : { rows: 0, length: 0 }
}

/** `(1 − p)^draws`, accurate for tiny `p`. */
function notDrawn(p: number, draws: number): number {
  if (p <= 0) return 1
  if (p >= 1) return draws > 0 ? 0 : 1
  return Math.exp(draws * Math.log1p(-p))
}

function firstAtLeast(table: BucketSize[], length: number): number {
  let lo = 0
  let hi = table.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (table[mid]!.seqLen < length) lo = mid + 1
    else hi = mid
  }
  return lo
}
