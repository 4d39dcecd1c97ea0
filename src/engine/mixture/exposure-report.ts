/**
 * `exposureReport`: the exposure model (./exposure.ts) of a split of an opened dataset, from the sampler's
 * probabilities (`weightsReport`) and the row groups' `audio_size` facts (`computeStats` fills them; an index has
 * them). `weights --steps N` prints it; the Mixture view draws its curves.
 */
import type { OpenDataset } from '../dataset/open.ts'
import type { Finding } from '../core/findings.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { partitionKey } from '../pipeline/weights.ts'
import { selectPartitions } from '../pipeline/config/select.ts'
import type { WeightsRow } from './weights-report.ts'
import {
  curveSteps, exposureAt, exposureByLanguage, exposureFindings, exposureModel,
  type ExposureModel, type ExposurePartition, type ExposureRow,
} from './exposure.ts'

/** One language's (or partition's) exposure by `steps`, and its hours drawn at each of `curve_steps`. */
export interface ExposureCurveRow extends ExposureRow {
  /** Hours drawn by each step of `ExposureReport.curve_steps` (`null` where the model has no draw rate). */
  curve: (number | null)[]
}

/** What `exposureReport` returns (`weights --steps N --json`'s `exposure`). */
export interface ExposureReport {
  /** The step every row is for. */
  steps: number
  /** Steps the curves are sampled at: 1, 2, 5, 10, … and `steps`. */
  curve_steps: number[]
  /** Sampler draws per step on one rank (all ranks draw the same partition sequence). */
  draws_per_step: number | null
  /** Kept examples per batch on average (length buckets or `batch_size`). */
  examples_per_batch: number | null
  /** `num_accumulate × world_size`. */
  batches_per_step: number
  /** Seconds of audio per step over all ranks. */
  step_seconds: number | null
  basis: ExposureModel['basis']
  /** `sampler`: the weighted sampler's probabilities; `stream`: one shuffled stream, a partition's share of rows. */
  draws: 'sampler' | 'stream'
  partitions: ExposureCurveRow[]
  languages: ExposureCurveRow[]
  /** `over-repeated-partition`, `unseen-partition`. */
  findings: Finding[]
}

/**
 * The exposure of `config.split` by `steps` optimizer steps, or `null` when the split is read once (eval) or has no
 * rows. `weights` are `weightsReport(dataset, config).weights`. Files without `audio_size` facts count no rows.
 * @throws the reference's bucket-table errors for an inconsistent LENGTH config.
 */
export function exposureReport(dataset: OpenDataset, config: PipelineConfig, weights: WeightsRow[], steps: number): ExposureReport | null {
  const selection = selectPartitions(dataset, config, config.split)
  if (!selection.trainStreaming) return null
  const fileOf = new Map(dataset.files.map((f) => [f.path, f]))
  const probabilityOf = new Map(weights.filter((w) => w.in_split && w.sampling_probability !== null).map((w) => [partitionKey(w.corpus, w.language), w.sampling_probability as number]))
  const sampler = probabilityOf.size > 0
  const totalRows = selection.partitions.reduce((s, p) => s + p.fragments.reduce((n, f) => n + f.rows, 0), 0)
  if (totalRows === 0) return null
  const paths = new Map<string, string>()
  const partitions: ExposurePartition[] = []
  for (const p of selection.partitions) {
    const key = partitionKey(p.corpus, p.language)
    const probability = sampler ? probabilityOf.get(key) : p.fragments.reduce((n, f) => n + f.rows, 0) / totalRows
    if (probability === undefined) continue // no weight: the sampler leaves it out (weightsReport says so)
    const bins = { lengths: [] as number[], rows: [] as number[], mins: [] as number[], maxs: [] as number[] }
    for (const fragment of p.fragments) {
      const facts = fileOf.get(fragment.path)?.facts?.groups[fragment.rowGroup]
      const counted = facts ? facts.rows - facts.nulls : 0
      if (!facts || counted <= 0) continue
      bins.lengths.push(facts.sum / counted)
      bins.rows.push(counted)
      bins.mins.push(facts.min ?? facts.sum / counted)
      bins.maxs.push(facts.max ?? facts.sum / counted)
    }
    const first = p.fragments[0]?.path ?? ''
    const path = first.slice(0, Math.max(0, first.lastIndexOf('/')))
    paths.set(`${p.corpus}/${p.language}`, path)
    partitions.push({ corpus: p.corpus, language: p.language, path, probability, bins })
  }
  const model = exposureModel(partitions, config)
  const curve = curveSteps(steps)
  const atSteps = curve.map((s) => exposureAt(model, s, config.world_size))
  const final = atSteps[atSteps.length - 1]!
  const withCurve = (rows: ExposureRow[], curves: ExposureRow[][]) => rows.map((r, i) => ({ ...r, curve: curves.map((c) => c[i]!.hours_drawn) }))
  const byLanguage = atSteps.map(exposureByLanguage)
  const stepSeconds = model.draws_per_step === null ? null
    : config.world_size * model.draws_per_step * model.partitions.reduce((s, p) => s + p.probability * p.kept_fraction * (p.mean_kept_seconds ?? 0), 0)
  return {
    steps, curve_steps: curve, draws_per_step: model.draws_per_step, examples_per_batch: model.examples_per_batch,
    batches_per_step: model.batches_per_step, step_seconds: stepSeconds, basis: model.basis, draws: sampler ? 'sampler' : 'stream',
    partitions: withCurve(final, atSteps),
    languages: withCurve(byLanguage[byLanguage.length - 1]!, byLanguage),
    findings: exposureFindings(final, paths, config, steps),
  }
}
