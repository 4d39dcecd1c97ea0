/**
 * The `weights --json` document: the reference's two-level mixture weights per summary TSV row
 * (docs/reference-pipeline.md §4) next to the probability the sampler really draws each partition with for one split (§5).
 */
import { finding, MixscopeError, sortFindings, uniqueFindings, type Finding } from '../core/findings.ts'
import type { OpenDataset } from '../dataset/open.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { checkMixture, checkSplitSelection } from '../pipeline/config/validate-storage.ts'
import { computeStats } from '../dataset/stats.ts'
import { dataRows } from './mixture-weights.ts'
import { partitionKey, partitionWeightsFromBetas, samplingDistribution, type HoursRow } from '../pipeline/weights.ts'
import { configCheckContext } from '../pipeline/config/dataset-context.ts'
import { selectPartitions, type Selection } from '../pipeline/config/select.ts'
import type { RunOptions } from '../dataset/dataset.ts'

/** One row of `weights`: one summary TSV row (or one data-derived (corpus, language) row). */
export interface WeightsRow {
  corpus: string
  language: string
  /** Hours of this row (NaN → `null` in JSON). */
  hours: number
  /** `p_c` of the row's corpus. */
  corpus_weight: number
  /** `p_{l|c}` of the (corpus, language) entry the reference keeps (the last duplicate row). */
  language_weight: number
  /** `p_c · p_{l|c}` over the whole TSV: the value in the reference's weight dict. */
  weight: number
  /** Whether the split selects this (corpus, language) (after split, corpus and `partition_filters`). */
  in_split: boolean
  /**
   * Probability that one sampler draw picks this partition (float32 cumsums, 24-bit draws): `null` when the
   * partition is not in the split, when the split has no sampler (eval, or no TSV), or when the reference fails to
   * build the sampler (see the findings). 1 for the only partition of a train split (one stream, no sampler).
   */
  sampling_probability: number | null
}

/** `weights --json`. */
export interface WeightsReport {
  schema_version: 1
  root: string
  /** `tsv`: the summary TSV's hours; `data`: hours summed from `audio_size` (no mixture in planning). */
  source: 'tsv' | 'data'
  /** The TSV in use, or `null` for `data`. */
  summary_path: string | null
  weights: WeightsRow[]
  findings: Finding[]
}

/**
 * Builds the report for `config.split`. With a summary TSV: one row per TSV row, in TSV order. Without one: one row
 * per (corpus, language) of the data (all splits, sorted), hours from `audio_size` at 16 kHz, `source: "data"` and no
 * sampling probabilities (the reference has no mixture without a TSV).
 * Findings: the storage-side config checks (split selection, filters, mixture: `checkConfig`'s storage part), the
 * summary TSV's own findings, and `data-derived-weights` when there is no TSV.
 */
export async function weightsReport(dataset: OpenDataset, config: PipelineConfig, options: RunOptions = {}): Promise<WeightsReport> {
  const findings: Finding[] = []
  const context = configCheckContext(dataset)
  const groups = checkSplitSelection(config, context, findings)
  checkMixture(config, context, groups, findings)
  const summary = dataset.summary
  if (summary) findings.push(...dataset.findings.filter((f) => f.path === summary.path))

  let selection: Selection | null = null
  try {
    selection = selectPartitions(dataset, config, config.split)
  } catch (error) {
    if (!(error instanceof MixscopeError)) throw error // its finding is already in `findings`
  }
  const inSplit = new Set((selection?.partitions ?? []).map((p) => partitionKey(p.corpus, p.language)))

  const source = summary ? 'tsv' : 'data'
  const rows: HoursRow[] = summary ? summary.rows : await dataHours(dataset, options)
  if (!summary) {
    findings.push(finding('info', 'data-derived-weights', '', 'no language_distribution TSV was found or given: weights are derived from audio_size over all splits (16 kHz) for display only; the reference has no mixture without a TSV, so batches come from one stream'))
  }
  const entries = rows.length > 0 ? partitionWeightsFromBetas(rows, config.beta_corpus, config.beta_language) : []
  const entryOf = new Map(entries.map((e) => [partitionKey(e.corpus, e.language), e]))
  const probabilityOf = source === 'tsv' && selection ? samplerProbabilities(selection, entryOf) : new Map<string, number>()

  const weights = rows.map((r): WeightsRow => {
    const key = partitionKey(r.corpus, r.language)
    const e = entryOf.get(key)!
    return {
      corpus: r.corpus, language: r.language, hours: r.hours,
      corpus_weight: e.corpusWeight, language_weight: e.languageWeight, weight: e.weight,
      in_split: inSplit.has(key),
      sampling_probability: probabilityOf.get(key) ?? null,
    }
  })
  return { schema_version: 1, root: dataset.root, source, summary_path: summary?.path ?? null, weights, findings: sortFindings(uniqueFindings(findings)) }
}

/**
 * What the sampler draws with (docs/reference-pipeline.md §5): train streaming with more than one partition in the split → partitions
 * with a TSV weight, in partition-dict order, through `samplingDistribution`; one partition → 1; eval → none.
 * A sampler the reference cannot build (zero or invalid weights, nothing matching) gives none.
 */
function samplerProbabilities(selection: Selection, entryOf: Map<string, { weight: number }>): Map<string, number> {
  const out = new Map<string, number>()
  if (!selection.trainStreaming) return out
  const keys = selection.partitions.map((p) => partitionKey(p.corpus, p.language))
  if (keys.length === 1) {
    out.set(keys[0], 1)
    return out
  }
  const kept = keys.filter((k) => entryOf.has(k))
  try {
    const dist = samplingDistribution(kept.map((k) => entryOf.get(k)!.weight))
    kept.forEach((k, i) => out.set(k, dist.probabilities[i]))
  } catch (error) {
    if (!(error instanceof MixscopeError)) throw error // reported by checkMixture
  }
  return out
}

/** Hours per (corpus, language) over all splits from `audio_size` (what the dataprep's TSV would say), sorted. */
async function dataHours(dataset: OpenDataset, options: RunOptions): Promise<HoursRow[]> {
  return dataRows(await computeStats(dataset, options))
}
