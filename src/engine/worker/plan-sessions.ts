/**
 * The worker's plan sessions (plan-handlers.ts): one per `plan-start`, holding its async generator and the batches
 * streamed so far; `plan-next` streams more of them (one request of a session at a time), `plan-close` ends it.
 */
import type { RunOptions } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { MixscopeError } from '../core/findings.ts'
import { summarizeBatch, type BatchSummary } from '../batches/batch-summary.ts'
import type { DatasetPlan } from '../batches/plan-dataset.ts'
import type { PlannedBatch } from '../pipeline/plan-batches.ts'
import type { RequestMessage } from './protocol.ts'
import type { PlanChunk, WarmUpProgress } from './protocol/plan.ts'
import type { DeferredFill } from '../pipeline/deferred-fill.ts'
import type { HandlerContext } from './handler-types.ts'

/** One plan session: its plan, its batch generator and the batches streamed so far. */
export interface PlanSession {
  dataset: OpenDataset
  plan: DatasetPlan
  iterator: AsyncGenerator<PlannedBatch>
  batches: PlannedBatch[]
  controller: AbortController
  done: boolean
  /** The `plan-next` running now: requests of one session are served one after another. */
  busy: Promise<unknown>
}

/** The plan sessions of one handler context and the next free id. */
interface SessionTable {
  sessions: Map<number, PlanSession>
  next: number
}

const sessionTables = new WeakMap<HandlerContext, SessionTable>()

/** The plan sessions of `context`. */
export function sessionsOf(context: HandlerContext): SessionTable {
  let table = sessionTables.get(context)
  if (!table) {
    table = { sessions: new Map(), next: 1 }
    sessionTables.set(context, table)
  }
  return table
}

/** Session `id`. @throws MixscopeError (`unknown-plan-session`) when there is none */
export function sessionOf(context: HandlerContext, id: number): PlanSession {
  const session = sessionsOf(context).sessions.get(id)
  if (!session) throw new MixscopeError(`plan: no plan session ${id} (closed, or cancelled mid-chunk)`, 'unknown-plan-session', 'usage')
  return session
}

/**
 * Streams up to `count` more batches (fewer when `maxMs` has passed with at least one). An abort stops the session for good (a generator cut mid-batch cannot resume):
 * the session is closed and a later `plan-next` fails with `unknown-plan-session`.
 */
export async function planNext(message: RequestMessage<'plan-next'>, options: RunOptions, context: HandlerContext): Promise<PlanChunk> {
  const session = sessionOf(context, message.session)
  const dataset = session.dataset
  const run = session.busy.then(async () => {
    const out: BatchSummary[] = []
    const stop = () => session.controller.abort(options.signal?.reason)
    options.signal?.addEventListener('abort', stop, { once: true })
    // row groups read so far, while a batch waits on them (the sampler's first draw reads one row group of every
    // partition stream: 6,400 reads at 1,600 languages before the first batch)
    const reading = () => options.onProgress?.({ phase: 'plan', done: session.plan.io.fragments, total: null, requests: dataset.source.counters.requests, bytes: dataset.source.counters.bytes })
    const ticker = setInterval(reading, 250)
    try {
      if (options.signal?.aborted) throw options.signal.reason ?? new DOMException('plan aborted', 'AbortError')
      const started = performance.now()
      while (!session.done && out.length < message.count) {
        if (message.maxMs !== undefined && out.length > 0 && performance.now() - started >= message.maxMs) break
        const next = await session.iterator.next()
        if (next.done) {
          session.done = true
          break
        }
        session.batches.push(next.value)
        out.push(summarizeBatch(next.value))
      }
    } catch (error) {
      sessionsOf(context).sessions.delete(message.session)
      throw error
    } finally {
      clearInterval(ticker)
      options.signal?.removeEventListener('abort', stop)
    }
    return {
      batches: out, done: session.done, total: session.batches.length,
      mixture: session.plan.mixture ? session.plan.mixture.map((m) => ({ ...m })) : null,
      drops: session.plan.drops.list(), io: { ...session.plan.io }, warmUp: warmUpProgress(session.plan.warmUp, session.plan.mixture?.length ?? 0),
    }
  })
  session.busy = run.catch(() => undefined)
  return run
}

function warmUpProgress(fill: DeferredFill | null, streams: number): WarmUpProgress | null {
  return fill ? { filled: fill.filled, total: fill.total || streams, settled: fill.settled && fill.error === undefined } : null
}

/** Resolves when `signal` aborts. */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal) return
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })
}

/**
 * Waits for the session's deferred first fill (started once the first batch is out) and reports it; fails with its
 * error, or when the request or the session is cancelled first.
 */
export async function planWarmUp(message: RequestMessage<'plan-warm-up'>, options: RunOptions, context: HandlerContext): Promise<WarmUpProgress> {
  const session = sessionOf(context, message.session)
  const fill = session.plan.warmUp
  const streams = session.plan.mixture?.length ?? 0
  if (!fill) return { filled: 0, total: 0, settled: true }
  const counters = session.dataset.source.counters
  const report = () => options.onProgress?.({ phase: 'warm-up', done: fill.filled, total: fill.total || streams, requests: counters.requests, bytes: counters.bytes })
  const ticker = setInterval(report, 250)
  const cancelled = Promise.race([aborted(options.signal), aborted(session.controller.signal)]).then(() => {
    throw new MixscopeError('plan: the warm-up check was cancelled (plan closed or replaced)', 'aborted', 'io')
  })
  cancelled.catch(() => undefined) // (once the fill is through, nobody waits on it)
  try {
    await Promise.race([new Promise<void>((resolve) => fill.onStart(resolve)), cancelled])
    await Promise.race([fill.start(), cancelled])
  } finally {
    clearInterval(ticker)
  }
  report()
  return warmUpProgress(fill, streams) as WarmUpProgress
}

/** Closes a plan session (stopping its generator); `null` also when it is gone already. */
export function planClose(message: RequestMessage<'plan-close'>, _options: RunOptions, context: HandlerContext): null {
  const table = sessionsOf(context)
  const session = table.sessions.get(message.session)
  if (session) {
    session.controller.abort()
    void session.iterator.return(undefined).catch(() => undefined)
    table.sessions.delete(message.session)
  }
  return null
}

