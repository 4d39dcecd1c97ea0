/**
 * Handlers of the explorer's planning kinds: `config-resolve` (preset / recipe / overrides → config), `mixture`
 * (weights, sampling probabilities, sampled-vs-expected draws, hours per N steps) and the batch-streaming session
 * `plan-start` → `plan-next`… → `plan-close`, with `plan-batch` (one batch's examples) and `plan-export`
 * (JSONL / Arrow IPC, the same bytes as `mixscope batches --jsonl` / `--arrow`).
 *
 * A plan session keeps its async generator and the batches streamed so far in the worker; the UI only receives
 * per-batch summaries, in chunks it asks for, so its memory stays bounded.
 */
import { featurizePlannedBatches, type FeaturizeResult } from './featurize-batches-handler.ts'
import type { FeatureDevice } from './inspect-handlers.ts'
import type { RunOptions } from '../dataset.ts'
import type { OpenDataset } from '../discovery/open.ts'
import { finding, MixscopeError, sortFindings, type Finding } from '../findings.ts'
import { defaultPipelineConfig } from '../config/defaults.ts'
import { getPreset, presetNames } from '../config/presets.ts'
import { loadRecipe } from '../config/recipe.ts'
import { setConfigValue } from '../config/set.ts'
import { isTrainStreaming } from '../config/split.ts'
import type { PipelineConfig } from '../config/types.ts'
import { examplesTable, planIpcFile, tableToTransfer } from '../plan/arrow.ts'
import { batchJsonLine } from '../plan/jsonl.ts'
import { planDataset, type DatasetPlan } from '../plan/plan-dataset.ts'
import { selectPartitions } from '../plan/select.ts'
import { weightsReport, type WeightsRow } from '../plan/weights-report.ts'
import { taskBucketSizes, type BucketSize } from '../pipeline/buckets.ts'
import type { DropCount } from '../pipeline/drops.ts'
import type { MixtureStream, PlannedBatch, RankDiagnostic } from '../pipeline/plan.ts'
import { firstDraws } from '../pipeline/sampler.ts'
import { partitionKey, partitionWeightsFromBetas, samplingDistribution } from '../pipeline/weights.ts'
import { computeStats } from '../stats/stats.ts'
import type { StatsReport } from '../stats/types.ts'
import type { RequestMessage } from './protocol.ts'
import type { HandlerContext, HandlerTable } from './handler-types.ts'

/** How the UI names a config: a preset (or the reference defaults), an optional recipe text, then overrides. */
export interface ConfigSpec {
  /** Preset name (`presetNames`), or `null` for the reference defaults. */
  preset: string | null
  /** A recipe YAML/JSON text (`loadRecipe`); it starts from the preset when both are given. */
  recipe: { name: string; text: string } | null
  /** Config keys (`--set` names) → values, applied in order after the preset and the recipe. */
  overrides: Record<string, unknown>
}

/** A resolved config and what resolving it found (unknown keys, bad values: `error` findings do not throw). */
export interface ResolvedConfig {
  config: PipelineConfig
  findings: Finding[]
  /** Every preset, for the picker. */
  presets: { name: string; description: string }[]
}

/**
 * Resolves a `ConfigSpec` as the CLI does `--preset` / `--config` / `--set`: preset (or defaults), recipe on top,
 * overrides in order. A bad override or an unknown preset is an `error` finding (the value is not applied).
 * @throws MixscopeError `recipe-unparsable` when the recipe text is neither YAML nor JSON
 */
export function resolveConfigSpec(spec: ConfigSpec): ResolvedConfig {
  const findings: Finding[] = []
  let config = defaultPipelineConfig()
  if (spec.preset !== null) {
    try {
      config = getPreset(spec.preset).config
    } catch (error) {
      if (!(error instanceof MixscopeError)) throw error
      findings.push(finding('error', error.kind, '', error.message))
    }
  }
  if (spec.recipe) {
    const loaded = loadRecipe(spec.recipe.text, { name: spec.recipe.name, base: config })
    config = loaded.config
    findings.push(...loaded.findings)
  }
  for (const [key, value] of Object.entries(spec.overrides)) {
    try {
      config = setConfigValue(config, key, value)
    } catch (error) {
      if (!(error instanceof MixscopeError)) throw error
      findings.push(finding('error', error.kind, '', error.message))
    }
  }
  const presets = presetNames.map((name) => ({ name, description: getPreset(name).description }))
  return { config, findings: sortFindings(findings), presets }
}

// ---------------------------------------------------------------------------------------------------------------
// mixture

/** One (corpus, language) row of the mixture view: `weights --json`'s row plus shares, draws and hours per N steps. */
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
  /** Hours of this partition training sees in `steps` steps at full batches (`audio_share × step audio`). */
  hours_per_steps: number | null
}

/** What `mixture` returns. */
export interface MixtureReport {
  config: PipelineConfig
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
   * Audio of one optimizer step across all ranks, in seconds at 16 kHz: `num_accumulate × world_size` batches of
   * `samples_per_batch` (LENGTH: `max_num_elements` after rounding, an upper bound: padding and part-filled
   * buckets lower it; STATIC: `batch_size` × the mean example length).
   */
  step_seconds: number
  batches_per_step: number
  samples_per_batch: number
  basis: 'max_num_elements' | 'batch_size'
}

const statsCache = new WeakMap<OpenDataset, Promise<StatsReport>>()

/** `computeStats` once per open dataset (the mixture view asks again at every slider move). */
function cachedStats(dataset: OpenDataset, options: RunOptions): Promise<StatsReport> {
  let stats = statsCache.get(dataset)
  if (!stats) {
    stats = computeStats(dataset, { signal: options.signal })
    stats.catch(() => statsCache.delete(dataset))
    statsCache.set(dataset, stats)
  }
  return stats
}

/**
 * The mixture of `spec`'s split: `weightsReport`, natural shares, the first `draws` picks of the real sampler
 * (`firstDraws` with `sampling_seed`), and the hours each partition gets in `steps` steps.
 */
export async function mixtureReport(dataset: OpenDataset, spec: ConfigSpec, draws: number, steps: number, options: RunOptions = {}): Promise<MixtureReport> {
  const resolved = resolveConfigSpec(spec)
  const config = resolved.config
  const weights = await weightsReport(dataset, config, options)
  const stats = await cachedStats(dataset, options)
  const split = config.split.split('_')[0]
  const lengthOf = new Map<string, { rows: number; samples: number }>()
  for (const p of stats.partitions) {
    if (p.split !== split || p.corpus === null || p.language === null) continue
    const key = partitionKey(p.corpus, p.language)
    const acc = lengthOf.get(key) ?? { rows: 0, samples: 0 }
    acc.rows += p.rows
    acc.samples += p.samples
    lengthOf.set(key, acc)
  }
  const counts = samplerDraws(dataset, config, weights.source, draws)
  const inSplitHours = weights.weights.filter((w) => w.in_split && Number.isFinite(w.hours)).reduce((s, w) => s + w.hours, 0)
  const meanSeconds = (w: WeightsRow) => {
    const l = lengthOf.get(partitionKey(w.corpus, w.language))
    return l && l.rows > 0 ? l.samples / l.rows / 16_000 : null
  }
  const mass = weights.weights.reduce((s, w) => s + (w.sampling_probability ?? 0) * (meanSeconds(w) ?? 0), 0)
  const meanExample = [...lengthOf.values()].reduce((a, l) => ({ rows: a.rows + l.rows, samples: a.samples + l.samples }), { rows: 0, samples: 0 })
  const batchesPerStep = config.num_accumulate * config.world_size
  const basis = config.batching_strategy === 'STATIC' ? 'batch_size' : 'max_num_elements'
  const samplesPerBatch = basis === 'batch_size'
    ? config.batch_size * (meanExample.rows > 0 ? meanExample.samples / meanExample.rows : 0)
    : safeMaxNumElements(config)
  const stepSeconds = batchesPerStep * samplesPerBatch / 16_000
  const rows = weights.weights.map((w): MixtureRow => {
    const mean = meanSeconds(w)
    const share = w.sampling_probability !== null && mass > 0 && mean !== null ? w.sampling_probability * mean / mass : null
    const count = counts?.get(partitionKey(w.corpus, w.language))
    return {
      ...w,
      natural_share: w.in_split && inSplitHours > 0 && Number.isFinite(w.hours) ? w.hours / inSplitHours : null,
      mean_seconds: mean,
      sampled: count?.sampled ?? null,
      expected: count?.expected ?? null,
      audio_share: share,
      hours_per_steps: share === null ? null : share * stepSeconds * steps / 3600,
    }
  })
  return {
    config, findings: sortFindings([...resolved.findings, ...weights.findings]), source: weights.source, summary_path: weights.summary_path,
    rows, draws, sampling_seed: config.sampling_seed, steps, step_seconds: stepSeconds, batches_per_step: batchesPerStep,
    samples_per_batch: samplesPerBatch, basis,
  }
}

function safeMaxNumElements(config: PipelineConfig): number {
  try {
    return taskBucketSizes(config).maxNumElements
  } catch {
    return config.max_num_elements
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

// ---------------------------------------------------------------------------------------------------------------
// batch streaming

/** One batch as the list shows it (no texts): sizes in samples (16 kHz). */
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

/** What `plan-start` returns: everything known before the first batch. */
export interface PlanStartResult {
  session: number
  config: PipelineConfig
  /** Config resolution findings, then `planDataset`'s. */
  findings: Finding[]
  trainStreaming: boolean
  /** Batches the session stops at (`max_num_batches` after the cap), `null` for a full eval pass. */
  limit: number | null
  buckets: { sizes: BucketSize[]; maxNumElements: number; rounded: boolean } | null
  mixture: MixtureStream[] | null
  unweighted: { corpus: string; language: string }[]
  diagnostics: RankDiagnostic[]
  summaryPath: string | null
}

/** What `plan-next` returns. */
export interface PlanChunk {
  batches: BatchSummary[]
  /** The stream ended (limit reached or eval pass done). */
  done: boolean
  /** Batches streamed so far in this session. */
  total: number
  mixture: MixtureStream[] | null
  drops: DropCount[]
  io: { fragments: number; rows: number }
}

interface PlanSession {
  dataset: OpenDataset
  plan: DatasetPlan
  iterator: AsyncGenerator<PlannedBatch>
  batches: PlannedBatch[]
  controller: AbortController
  done: boolean
  /** The `plan-next` running now: requests of one session are served one after another. */
  busy: Promise<unknown>
}

interface SessionTable {
  sessions: Map<number, PlanSession>
  next: number
}

const sessionTables = new WeakMap<HandlerContext, SessionTable>()

function sessionsOf(context: HandlerContext): SessionTable {
  let table = sessionTables.get(context)
  if (!table) {
    table = { sessions: new Map(), next: 1 }
    sessionTables.set(context, table)
  }
  return table
}

function sessionOf(context: HandlerContext, id: number): PlanSession {
  const session = sessionsOf(context).sessions.get(id)
  if (!session) throw new MixscopeError(`plan: no plan session ${id} (closed, or cancelled mid-chunk)`, 'unknown-plan-session', 'usage')
  return session
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

/**
 * Starts a plan session. `maxBatches` caps train (infinite) streams as the CLI's `--max-batches` (`null`: the
 * config's `max_num_batches`, else 20 for train streams); the session then streams exactly the batches
 * `mixscope batches --jsonl` prints for the same config.
 * @throws PlanRefusedError when the config has `error` findings (resolution errors included)
 */
function planStart(message: RequestMessage<'plan-start'>, _options: RunOptions, context: HandlerContext): PlanStartResult {
  const dataset = context.dataset(message.dataset)
  const resolved = resolveConfigSpec(message.spec)
  const resolveErrors = resolved.findings.filter((f) => f.severity === 'error')
  if (resolveErrors.length > 0) throw new MixscopeError(`plan: the config has errors:\n${resolveErrors.map((f) => `  ${f.kind}: ${f.message}`).join('\n')}`, 'plan-refused', 'usage')
  const config = resolved.config
  const train = isTrainStreaming(config.split, config.sync_mode)
  const limit = Math.min(message.maxBatches ?? (train ? 20 : Infinity), config.max_num_batches ?? Infinity)
  config.max_num_batches = Number.isFinite(limit) ? limit : null
  const controller = new AbortController()
  const plan = planDataset(dataset, config, { signal: controller.signal })
  const table = sessionsOf(context)
  const id = table.next++
  table.sessions.set(id, { dataset, plan, iterator: plan.batches, batches: [], controller, done: false, busy: Promise.resolve() })
  let buckets: PlanStartResult['buckets'] = null
  if (config.batching_strategy === 'LENGTH') buckets = taskBucketSizes(config)
  return {
    session: id, config: plan.config, findings: sortFindings([...resolved.findings, ...plan.findings]), trainStreaming: train,
    limit: config.max_num_batches, buckets, mixture: plan.mixture, unweighted: plan.unweighted, diagnostics: plan.diagnostics,
    summaryPath: plan.summaryPath,
  }
}

/**
 * Streams up to `count` more batches. An abort stops the session for good (a generator cut mid-batch cannot resume):
 * the session is closed and a later `plan-next` fails with `unknown-plan-session`.
 */
async function planNext(message: RequestMessage<'plan-next'>, options: RunOptions, context: HandlerContext): Promise<PlanChunk> {
  const session = sessionOf(context, message.session)
  const dataset = session.dataset
  const run = session.busy.then(async () => {
    const out: BatchSummary[] = []
    const stop = () => session.controller.abort(options.signal?.reason)
    options.signal?.addEventListener('abort', stop, { once: true })
    try {
      if (options.signal?.aborted) throw options.signal.reason ?? new DOMException('plan aborted', 'AbortError')
      while (!session.done && out.length < message.count) {
        const next = await session.iterator.next()
        if (next.done) {
          session.done = true
          break
        }
        session.batches.push(next.value)
        out.push(summarizeBatch(next.value))
        options.onProgress?.({ phase: 'plan', done: session.batches.length, total: session.plan.config.max_num_batches ?? 0, requests: dataset.source.counters.requests, bytes: dataset.source.counters.bytes })
      }
    } catch (error) {
      sessionsOf(context).sessions.delete(message.session)
      throw error
    } finally {
      options.signal?.removeEventListener('abort', stop)
    }
    return {
      batches: out, done: session.done, total: session.batches.length,
      mixture: session.plan.mixture ? session.plan.mixture.map((m) => ({ ...m })) : null,
      drops: session.plan.drops.list(), io: { ...session.plan.io },
    }
  })
  session.busy = run.catch(() => undefined)
  return run
}

/** One streamed batch: its numbers, and its examples (texts included) as an Arrow IPC stream (columnar, one buffer). */
export interface BatchTransfer {
  index: number
  step: number
  indexInStep: number
  /** `examplesTable([batch], {text: true})` as IPC bytes; `batchFromTransfer` (src/engine/plan/arrow.ts) reads it back. */
  examples: Uint8Array
}

function planBatch(message: RequestMessage<'plan-batch'>, _options: RunOptions, context: HandlerContext): BatchTransfer {
  const session = sessionOf(context, message.session)
  const batch = session.batches[message.index]
  if (!batch) throw new MixscopeError(`plan: batch ${message.index} has not been streamed yet (${session.batches.length} so far)`, 'bad-request', 'usage')
  return { index: batch.index, step: batch.step, indexInStep: batch.indexInStep, examples: tableToTransfer(examplesTable([batch], { text: true })) }
}

/** The batches streamed so far as `batches --jsonl` (UTF-8) or `--arrow` (Arrow IPC file) bytes. */
function planExport(message: RequestMessage<'plan-export'>, _options: RunOptions, context: HandlerContext): Uint8Array {
  const session = sessionOf(context, message.session)
  if (message.format === 'arrow') return planIpcFile(session.batches)
  return new TextEncoder().encode(session.batches.map(batchJsonLine).join(''))
}

function planClose(message: RequestMessage<'plan-close'>, _options: RunOptions, context: HandlerContext): null {
  const table = sessionsOf(context)
  const session = table.sessions.get(message.session)
  if (session) {
    session.controller.abort()
    void session.iterator.return(undefined).catch(() => undefined)
    table.sessions.delete(message.session)
  }
  return null
}

/** Decodes and featurizes `count` streamed batches from `index` (featurize-batches-handler.ts). */
async function planFeaturize(message: RequestMessage<'plan-featurize'>, options: RunOptions, context: HandlerContext): Promise<FeaturizeResult> {
  const session = sessionOf(context, message.session)
  const batches = session.batches.slice(message.index, message.index + Math.max(1, Math.min(64, message.count)))
  if (batches.length === 0) throw new MixscopeError(`plan: batch ${message.index} has not been streamed yet (${session.batches.length} so far)`, 'bad-request', 'usage')
  return featurizePlannedBatches(session.dataset, batches, session.plan.config, message.device, options.signal)
}

/** Request kinds of this module: params and results (protocol.ts lists them in `Requests`). */
export interface PlanRequests {
  'config-resolve': { params: { spec: ConfigSpec }; result: ResolvedConfig }
  'mixture': { params: { dataset: number; spec: ConfigSpec; draws: number; steps: number }; result: MixtureReport }
  'plan-start': { params: { dataset: number; spec: ConfigSpec; maxBatches: number | null }; result: PlanStartResult }
  'plan-next': { params: { session: number; count: number }; result: PlanChunk }
  'plan-batch': { params: { session: number; index: number }; result: BatchTransfer }
  'plan-export': { params: { session: number; format: 'jsonl' | 'arrow' }; result: Uint8Array }
  /** Decode + model input of `count` (≤ 64) streamed batches from `index`, decode ahead of features. */
  'plan-featurize': { params: { session: number; index: number; count: number; device: FeatureDevice }; result: FeaturizeResult }
  'plan-close': { params: { session: number }; result: null }
}

export const planHandlers: HandlerTable<keyof PlanRequests> = {
  'config-resolve': (message) => resolveConfigSpec(message.spec),
  'mixture': (message, options, context) => mixtureReport(context.dataset(message.dataset), message.spec, message.draws, message.steps, options),
  'plan-start': planStart,
  'plan-next': planNext,
  'plan-batch': planBatch,
  'plan-export': planExport,
  'plan-featurize': planFeaturize,
  'plan-close': planClose,
}
