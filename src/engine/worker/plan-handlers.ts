/**
 * Handlers of the explorer's planning kinds (protocol/plan.ts; `config-resolve` is config-handlers.ts'): `mixture`
 * (`mixtureReport`), and the batch-streaming session `plan-start` → `plan-next`… → `plan-close`, with `plan-batch`
 * (one batch's examples), `plan-export` (JSONL / Arrow IPC, the same bytes as `mixscope batches --jsonl` / `--arrow`)
 * and `plan-featurize`.
 *
 * A plan session (plan-sessions.ts) keeps its async generator and the batches streamed so far in the worker; the UI
 * only receives per-batch summaries, in chunks it asks for, so its memory stays bounded.
 */
import { featurizePlannedBatches } from './featurize-batches-handler.ts'
import type { RunOptions } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { MixscopeError, sortFindings } from '../core/findings.ts'
import { resolutionErrors, resolveConfig } from '../pipeline/config/resolve.ts'
import { examplesTable, planIpcFile, tableToTransfer } from '../batches/arrow.ts'
import { batchJsonLine } from '../batches/jsonl.ts'
import { mixtureReport, mixtureViewReport } from '../mixture/mixture.ts'
import { mixtureBasis, mixtureWeightsAt, type MixtureBasis } from '../mixture/mixture-weights.ts'
import type { ConfigSpec } from '../pipeline/config/resolve.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { applyBatchLimit, planDataset } from '../batches/plan-dataset.ts'
import { taskBucketSizes } from '../pipeline/buckets.ts'
import { computeStats } from '../dataset/stats.ts'
import type { StatsReport } from '../dataset/stats-types.ts'
import type { RequestMessage } from './protocol.ts'
import type { BatchTransfer, FeaturizeResult, PlanRequests, PlanStartResult } from './protocol/plan.ts'
import { planClose, planNext, planWarmUp, sessionOf, sessionsOf } from './plan-sessions.ts'
import type { HandlerContext, HandlerTable } from './handler-types.ts'

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
 * Starts a plan session: the session then streams exactly the batches `mixscope batches --jsonl` prints for the same
 * config. @throws MixscopeError `plan-refused` when resolving the spec has `error` findings
 */
function planStart(message: RequestMessage<'plan-start'>, _options: RunOptions, context: HandlerContext): PlanStartResult {
  const dataset = context.dataset(message.dataset)
  const resolved = resolveConfig(message.spec)
  const errors = resolutionErrors(resolved)
  if (errors) throw new MixscopeError(`plan: ${errors}`, 'plan-refused', 'usage')
  const config = resolved.config
  const { trainStreaming: train } = applyBatchLimit(config, message.maxBatches)
  const controller = new AbortController()
  // the explorer shows the first batch after the reads its draws need; the rest of the sampler's first fill follows
  const plan = planDataset(dataset, config, { signal: controller.signal, deferFirstFill: true })
  const table = sessionsOf(context)
  const id = table.next++
  table.sessions.set(id, { dataset, plan, iterator: plan.batches, batches: [], controller, done: false, busy: Promise.resolve() })
  let buckets: PlanStartResult['buckets'] = null
  if (config.batching_strategy === 'LENGTH') buckets = taskBucketSizes(config)
  return {
    session: id, config: plan.config, findings: sortFindings([...resolved.findings, ...plan.findings]), trainStreaming: train,
    limit: config.max_num_batches, buckets, mixture: plan.mixture, unweighted: plan.unweighted, diagnostics: plan.diagnostics,
    summaryPath: plan.summaryPath, weighted: plan.weights !== null, warmUpStreams: plan.warmUp && plan.mixture ? plan.mixture.length : null,
  }
}

function planBatch(message: RequestMessage<'plan-batch'>, _options: RunOptions, context: HandlerContext): BatchTransfer {
  const session = sessionOf(context, message.session)
  const batch = session.batches[message.index]
  if (!batch) throw new MixscopeError(`plan: batch ${message.index} has not been streamed yet (${session.batches.length} so far)`, 'bad-request', 'usage')
  return { index: batch.index, step: batch.step, indexInStep: batch.indexInStep, examples: tableToTransfer(examplesTable([batch], { text: true })) }
}

function planExport(message: RequestMessage<'plan-export'>, _options: RunOptions, context: HandlerContext): Uint8Array {
  const session = sessionOf(context, message.session)
  if (message.format === 'arrow') return planIpcFile(session.batches)
  return new TextEncoder().encode(session.batches.map(batchJsonLine).join(''))
}

/** Decodes and featurizes `count` streamed batches from `index` (featurize-batches-handler.ts). */
async function planFeaturize(message: RequestMessage<'plan-featurize'>, options: RunOptions, context: HandlerContext): Promise<FeaturizeResult> {
  const session = sessionOf(context, message.session)
  const batches = session.batches.slice(message.index, message.index + Math.max(1, Math.min(64, message.count)))
  if (batches.length === 0) throw new MixscopeError(`plan: batch ${message.index} has not been streamed yet (${session.batches.length} so far)`, 'bad-request', 'usage')
  return featurizePlannedBatches(session.dataset, batches, session.plan.config, message.device, options.signal)
}

const basisCache = new WeakMap<OpenDataset, { key: string; basis: Promise<MixtureBasis> }>()

/**
 * `mixtureBasis` of the config without its betas, the latest one kept per open dataset (a slider's moves all reuse
 * it). @throws MixscopeError `mixture-refused` when resolving the spec has `error` findings
 */
function cachedBasis(dataset: OpenDataset, spec: ConfigSpec, options: RunOptions): { config: PipelineConfig; basis: Promise<MixtureBasis> } {
  const resolved = resolveConfig(spec)
  const errors = resolutionErrors(resolved)
  if (errors) throw new MixscopeError(`mixture: ${errors}`, 'mixture-refused', 'usage')
  const config = resolved.config
  const key = JSON.stringify({ ...config, beta_corpus: null, beta_language: null })
  const cached = basisCache.get(dataset)
  if (cached?.key === key) return { config, basis: cached.basis }
  const basis = cachedStats(dataset, options).then((stats) => mixtureBasis(dataset, config, stats))
  basis.catch(() => { if (basisCache.get(dataset)?.basis === basis) basisCache.delete(dataset) })
  basisCache.set(dataset, { key, basis })
  return { config, basis }
}

export const planHandlers: HandlerTable<Exclude<keyof PlanRequests, 'config-resolve'>> = {
  'mixture-weights': async (message, options, context) => {
    const { config, basis } = cachedBasis(context.dataset(message.dataset), message.spec, options)
    if (config.beta_corpus === null || config.beta_language === null) {
      throw new MixscopeError(`mixture: beta_corpus = ${config.beta_corpus}, beta_language = ${config.beta_language}: both must be set`, 'mixture-betas', 'usage')
    }
    return mixtureWeightsAt(await basis, config.beta_corpus, config.beta_language)
  },
  'mixture': async (message, options, context) => {
    const dataset = context.dataset(message.dataset)
    const resolved = resolveConfig(message.spec)
    const report = await mixtureReport(dataset, resolved.config, { ...options, draws: message.draws, steps: message.steps, stats: cachedStats(dataset, options) })
    // the basis of the next slider step, ready before it comes
    if (!resolutionErrors(resolved)) void cachedBasis(dataset, message.spec, options).basis.catch(() => undefined)
    return mixtureViewReport({ ...report, findings: sortFindings([...resolved.findings, ...report.findings]) })
  },
  'plan-start': planStart,
  'plan-next': planNext,
  'plan-warm-up': planWarmUp,
  'plan-batch': planBatch,
  'plan-export': planExport,
  'plan-featurize': planFeaturize,
  'plan-close': planClose,
}
