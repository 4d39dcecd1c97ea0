/**
 * The cheap half of a Mixture update when only `beta_corpus` / `beta_language` move: everything that does not depend
 * on the betas (the TSV or data rows, which of them the split selects, the partitions the sampler keeps and their
 * order, each partition's mean stored length) is built once (`mixtureBasis`); `mixtureWeightsAt` then gives every
 * row's two-level weights (docs/reference-pipeline.md §4), the probability the sampler draws it with (§5) and its
 * share of the training audio in O(rows), the same numbers `mixtureReport` gives for those betas. The sampler's
 * first draws and the exposure model stay with `mixtureReport` (the expensive half).
 */
import { compareUtf8, MixscopeError } from '../core/findings.ts'
import type { OpenDataset } from '../dataset/open.ts'
import type { StatsReport } from '../dataset/stats-types.ts'
import { hoursOf } from '../dataset/stats.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { selectPartitions } from '../pipeline/config/select.ts'
import { partitionKey, partitionWeightsFromBetas, samplingDistribution, type HoursRow } from '../pipeline/weights.ts'

/** What `mixtureWeightsAt` needs that the betas do not change; rows in `mixtureReport`'s row order. */
export interface MixtureBasis {
  source: 'tsv' | 'data'
  /** The TSV rows (or one data-derived row per (corpus, language)), in report order. */
  rows: HoursRow[]
  /** Per row: whether the split selects its (corpus, language). */
  inSplit: boolean[]
  /**
   * Partition keys the sampler draws from, in partition-dict order (`null`: no sampler: eval, no TSV, or a
   * selection the reference cannot build); one key: the only partition of a train split (probability 1).
   */
  sampled: string[] | null
  /** Per row: mean stored length of its partition's rows in the split, seconds at 16 kHz (`null` without rows). */
  meanSeconds: (number | null)[]
}

/** Every row's weights at one pair of betas, columns aligned with `MixtureBasis.rows` (and `mixtureReport`'s rows). */
export interface MixtureWeights {
  beta_corpus: number
  beta_language: number
  /** Rows the columns hold (the report's row count, a guard against applying them to another report). */
  rows: number
  /** `p_c` of each row's corpus. */
  corpus_weight: number[]
  /** `p_{l|c}` of each row (the last duplicate row's). */
  language_weight: number[]
  /** `p_c · p_{l|c}`. */
  weight: number[]
  /** As `WeightsRow.sampling_probability`. */
  sampling_probability: (number | null)[]
  /** As `MixtureRow.audio_share`. */
  audio_share: (number | null)[]
}

/**
 * The beta-independent part of `config.split`'s mixture. `stats` is the dataset's `computeStats` (the explorer keeps
 * one per dataset): it gives the data-derived rows without a TSV, and each partition's mean length.
 */
export function mixtureBasis(dataset: OpenDataset, config: PipelineConfig, stats: StatsReport): MixtureBasis {
  const summary = dataset.summary
  let selection: ReturnType<typeof selectPartitions> | null = null
  try {
    selection = selectPartitions(dataset, config, config.split)
  } catch (error) {
    if (!(error instanceof MixscopeError)) throw error // weightsReport reports why
  }
  const selected = (selection?.partitions ?? []).map((p) => partitionKey(p.corpus, p.language))
  const inSplitKeys = new Set(selected)
  const rows = summary ? summary.rows : dataRows(stats)
  const rowKeys = new Set(rows.map((r) => partitionKey(r.corpus, r.language)))
  let sampled: string[] | null = null
  if (summary && selection?.trainStreaming) sampled = selected.length === 1 ? selected : selected.filter((k) => rowKeys.has(k))
  const split = config.split.split('_')[0]
  const lengthOf = splitLengths(stats, split)
  return {
    source: summary ? 'tsv' : 'data', rows,
    inSplit: rows.map((r) => inSplitKeys.has(partitionKey(r.corpus, r.language))),
    sampled,
    meanSeconds: rows.map((r) => { const l = lengthOf.get(partitionKey(r.corpus, r.language)); return l && l.rows > 0 ? l.samples / l.rows / 16_000 : null }),
  }
}

/**
 * Every row's weights at `betaCorpus` / `betaLanguage` (each in [0, 1]), O(rows).
 * @throws MixscopeError `mixture-betas` (from `partitionWeightsFromBetas`) for betas the reference rejects
 */
export function mixtureWeightsAt(basis: MixtureBasis, betaCorpus: number, betaLanguage: number): MixtureWeights {
  const entries = basis.rows.length > 0 ? partitionWeightsFromBetas(basis.rows, betaCorpus, betaLanguage) : []
  const entryOf = new Map(entries.map((e) => [partitionKey(e.corpus, e.language), e]))
  const probabilityOf = new Map<string, number>()
  if (basis.sampled !== null && basis.sampled.length === 1) probabilityOf.set(basis.sampled[0], 1)
  else if (basis.sampled !== null) {
    try {
      const dist = samplingDistribution(basis.sampled.map((k) => entryOf.get(k)!.weight))
      basis.sampled.forEach((k, i) => probabilityOf.set(k, dist.probabilities[i]))
    } catch (error) {
      if (!(error instanceof MixscopeError)) throw error // the sampler cannot be built: no probabilities (weightsReport says why)
    }
  }
  const keys = basis.rows.map((r) => partitionKey(r.corpus, r.language))
  const probability = keys.map((k) => probabilityOf.get(k) ?? null)
  const mass = probability.reduce<number>((s, p, i) => s + (p ?? 0) * (basis.meanSeconds[i] ?? 0), 0)
  return {
    beta_corpus: betaCorpus, beta_language: betaLanguage, rows: basis.rows.length,
    corpus_weight: keys.map((k) => entryOf.get(k)!.corpusWeight),
    language_weight: keys.map((k) => entryOf.get(k)!.languageWeight),
    weight: keys.map((k) => entryOf.get(k)!.weight),
    sampling_probability: probability,
    audio_share: probability.map((p, i) => { const mean = basis.meanSeconds[i]; return p !== null && mass > 0 && mean !== null ? p * mean / mass : null }),
  }
}

/** Hours per (corpus, language) over all splits from `audio_size` at 16 kHz, sorted: `weightsReport`'s rows without a TSV. */
export function dataRows(stats: StatsReport): HoursRow[] {
  const byKey = new Map<string, { corpus: string; language: string; samples: number }>()
  for (const p of stats.partitions) {
    if (p.corpus === null || p.language === null) continue
    const key = partitionKey(p.corpus, p.language)
    const row = byKey.get(key)
    if (row) row.samples += p.samples
    else byKey.set(key, { corpus: p.corpus, language: p.language, samples: p.samples })
  }
  return [...byKey.values()]
    .sort((a, b) => compareUtf8(a.corpus, b.corpus) || compareUtf8(a.language, b.language))
    .map((r) => ({ corpus: r.corpus, language: r.language, hours: hoursOf(r.samples) }))
}

/** Rows and samples (16 kHz) per (corpus, language) partition of one split, from the stats' partitions. */
export function splitLengths(stats: StatsReport, split: string): Map<string, { rows: number; samples: number }> {
  const lengthOf = new Map<string, { rows: number; samples: number }>()
  for (const p of stats.partitions) {
    if (p.split !== split || p.corpus === null || p.language === null) continue
    const key = partitionKey(p.corpus, p.language)
    const acc = lengthOf.get(key) ?? { rows: 0, samples: 0 }
    acc.rows += p.rows
    acc.samples += p.samples
    lengthOf.set(key, acc)
  }
  return lengthOf
}
