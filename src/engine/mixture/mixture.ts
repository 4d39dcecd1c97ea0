/**
 * The mixture of a split as the explorer's Mixture view shows it: `weightsReport` (docs/reference-pipeline.md §4-§5)
 * plus natural shares, the first N picks of the real sampler, each partition's share of the training audio and the
 * hours it gets in N optimizer steps.
 */
import type { RunOptions } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { MixscopeError, sortFindings, type Finding } from '../core/findings.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { firstDraws } from '../pipeline/sampler.ts'
import { partitionKey, partitionWeightsFromBetas, samplingDistribution } from '../pipeline/weights.ts'
import { computeStats } from '../dataset/stats.ts'
import type { StatsReport } from '../dataset/stats-types.ts'
import { selectPartitions } from '../pipeline/config/select.ts'
import { weightsReport, type WeightsRow } from './weights-report.ts'
import { splitLengths } from './mixture-weights.ts'
import { exposureReport, type ExposureReport } from './exposure-report.ts'

/** One (corpus, language) row of the mixture: `weights --json`'s row plus shares, draws and hours per N steps. */
export interface MixtureRow extends WeightsRow {
  /** `hours` / Σ hours of the rows in the split (`null` when not in the split). */
  natural_share: number | null
  /** Mean stored length of the partition's examples in the split, seconds at 16 kHz (`null` without rows). */
  mean_seconds: number | null
  /** Draws of the real sampler that picked this partition among the first `draws` (`null` without a sampler). */
  sampled: number | null
  /** `draws × sampling_probability`. */
  expected: number | null
  /** Share of the training audio: `p · mean_seconds / Σ p · mean_seconds` (`null` without a sampler). */
  audio_share: number | null
  /** Hours of this partition the model sees in `steps` steps (the exposure model: `exposure.partitions`' `hours_drawn`). */
  hours_per_steps: number | null
  /** `hours_per_steps` / the hours of its rows the length filter keeps: how many times its data is seen. */
  expected_epochs: number | null
  /** Probability that no draw picked it by `steps` steps. */
  p_not_drawn: number | null
}

/** What `mixtureReport` returns. */
export interface MixtureReport {
  config: PipelineConfig
  /** `weightsReport`'s findings (callers add the config resolution's). */
  findings: Finding[]
  source: 'tsv' | 'data'
  summary_path: string | null
  rows: MixtureRow[]
  /** Sampler draws counted (`sampled`) and the seed they used (`sampling_seed`). */
  draws: number
  sampling_seed: number
  /** Steps the `hours_per_steps` column is for. */
  steps: number
  /**
   * Audio of one optimizer step across all ranks, in seconds at 16 kHz, as the exposure model has it:
   * `num_accumulate × world_size` batches of `samples_per_batch` kept audio (length buckets or `batch_size`); 0 for a
   * split read once.
   */
  step_seconds: number
  batches_per_step: number
  samples_per_batch: number
  basis: ExposureReport['basis']
  /** What the sampler makes the model see by `steps` (curves per language), or `null` for a split read once. */
  exposure: ExposureReport | null
}

/** Options of `mixtureReport`. */
export interface MixtureOptions extends RunOptions {
  /** Sampler draws to count (`sampled`). */
  draws: number
  /** Optimizer steps the `hours_per_steps` column is for. */
  steps: number
  /** The dataset's `computeStats` when the caller already has it (the explorer keeps it per dataset). */
  stats?: StatsReport | Promise<StatsReport>
}

/**
 * The mixture of `config.split`: `weightsReport`, natural shares, the first `draws` picks of the real sampler
 * (`firstDraws` with `sampling_seed`), and the hours each partition gets in `steps` steps.
 */
export async function mixtureReport(dataset: OpenDataset, config: PipelineConfig, options: MixtureOptions): Promise<MixtureReport> {
  const { draws, steps } = options
  const weights = await weightsReport(dataset, config, options)
  const stats = await (options.stats ?? computeStats(dataset, { signal: options.signal }))
  const split = config.split.split('_')[0]
  const lengthOf = splitLengths(stats, split)
  // between the phases the worker takes its next message: a newer request's abort stops this one there
  await nextTask(options.signal)
  const counts = samplerDraws(dataset, config, weights.source, draws)
  await nextTask(options.signal)
  const inSplitHours = weights.weights.filter((w) => w.in_split && Number.isFinite(w.hours)).reduce((s, w) => s + w.hours, 0)
  const meanSeconds = (w: WeightsRow) => {
    const l = lengthOf.get(partitionKey(w.corpus, w.language))
    return l && l.rows > 0 ? l.samples / l.rows / 16_000 : null
  }
  const mass = weights.weights.reduce((s, w) => s + (w.sampling_probability ?? 0) * (meanSeconds(w) ?? 0), 0)
  const exposure = safeExposure(dataset, config, weights.weights, steps)
  const exposureOf = new Map((exposure?.partitions ?? []).map((r) => [partitionKey(r.corpus as string, r.language), r]))
  const rows = weights.weights.map((w): MixtureRow => {
    const mean = meanSeconds(w)
    const share = w.sampling_probability !== null && mass > 0 && mean !== null ? w.sampling_probability * mean / mass : null
    const count = counts?.get(partitionKey(w.corpus, w.language))
    const seen = w.in_split ? exposureOf.get(partitionKey(w.corpus, w.language)) : undefined
    return {
      ...w,
      natural_share: w.in_split && inSplitHours > 0 && Number.isFinite(w.hours) ? w.hours / inSplitHours : null,
      mean_seconds: mean,
      sampled: count?.sampled ?? null,
      expected: count?.expected ?? null,
      audio_share: share,
      hours_per_steps: seen?.hours_drawn ?? null,
      expected_epochs: seen?.expected_epochs ?? null,
      p_not_drawn: seen?.p_not_drawn ?? null,
    }
  })
  const batchesPerStep = config.num_accumulate * config.world_size
  const stepSeconds = exposure?.step_seconds ?? 0
  return {
    config, findings: sortFindings([...weights.findings, ...(exposure?.findings ?? [])]), source: weights.source, summary_path: weights.summary_path,
    rows, draws, sampling_seed: config.sampling_seed, steps, step_seconds: stepSeconds, batches_per_step: batchesPerStep,
    samples_per_batch: batchesPerStep > 0 ? stepSeconds * 16_000 / batchesPerStep : 0,
    basis: exposure?.basis ?? (config.batching_strategy === 'STATIC' ? 'batch_size' : 'length-buckets'), exposure,
  }
}

/**
 * Resolves on a later task (a macrotask, so messages queued meanwhile are handled first: an `abort` among them);
 * rejects with an `AbortError` when `signal` is aborted by then.
 */
export function nextTask(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => setTimeout(() => {
    if (signal?.aborted) reject(signal.reason instanceof Error ? signal.reason : new DOMException('mixture: aborted', 'AbortError'))
    else resolve()
  }, 0))
}

/** The exposure model, or `null` when the config cannot build its bucket table (the config checks say why). */
function safeExposure(dataset: OpenDataset, config: PipelineConfig, weights: WeightsRow[], steps: number): ExposureReport | null {
  try {
    return exposureReport(dataset, config, weights, steps)
  } catch (error) {
    if (error instanceof MixscopeError) return null
    throw error
  }
}

/** Per partition key: the first `n` sampler picks and `n × p`, as the planner's sampler draws them; `null` without a sampler. */
function samplerDraws(dataset: OpenDataset, config: PipelineConfig, source: 'tsv' | 'data', n: number): Map<string, { sampled: number; expected: number }> | null {
  if (source !== 'tsv' || !dataset.summary || n <= 0) return null
  try {
    const selection = selectPartitions(dataset, config, config.split)
    if (!selection.trainStreaming || selection.partitions.length < 2) return null
    const entries = partitionWeightsFromBetas(dataset.summary.rows, config.beta_corpus, config.beta_language)
    const weightOf = new Map(entries.map((e) => [partitionKey(e.corpus, e.language), e.weight]))
    const kept = selection.partitions.map((p) => partitionKey(p.corpus, p.language)).filter((k) => weightOf.has(k))
    const dist = samplingDistribution(kept.map((k) => weightOf.get(k) as number))
    const drawn = firstDraws(dist.cumsums, dist.probabilities, config.sampling_seed, n)
    return new Map(kept.map((k, i) => [k, { sampled: drawn.sampled[i], expected: drawn.expected[i] }]))
  } catch (error) {
    if (error instanceof MixscopeError) return null // the reference fails to build the sampler: weightsReport's findings say why
    throw error
  }
}

/**
 * What the explorer's `mixture` kind sends: the report less `exposure.partitions` (each partition's exposure is in its
 * row already, `hours_per_steps`, and the view draws only the languages' curves): at 1,600 languages those rows and
 * their curves were a third of the message (0.8 of 2.4 MB), cloned on the worker and again on the page at each step.
 */
export type MixtureViewReport = Omit<MixtureReport, 'exposure'> & { exposure: Omit<ExposureReport, 'partitions'> | null }

/** `report` as the `mixture` kind sends it (`MixtureViewReport`). */
export function mixtureViewReport(report: MixtureReport): MixtureViewReport {
  if (report.exposure === null) return report
  const { partitions: _, ...exposure } = report.exposure
  return { ...report, exposure }
}
