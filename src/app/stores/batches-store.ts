/**
 * The Batches store: one plan session in the worker, streamed in chunks. The worker keeps the batches (with their
 * examples); this store keeps only the per-batch summaries the list shows, plus the batch that is open.
 * A new `run` (config or dataset changed) cancels the stream and closes the old session, unless the change is one the
 * plan does not see: betas alone change nothing in a plan without mixture weights (`PlanStartResult.weighted`: an eval
 * split, or no stats TSV), and in a weighted plan they re-plan once they have stayed put for `betaDelayMs` and the view
 * is shown (docs/architecture.md "What a config change recomputes").
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { EngineClient } from '../../engine/worker/client.ts'
import type { PlannedBatch } from '../../engine/pipeline/plan-batches.ts'
import type { BatchSummary } from '../../engine/batches/batch-summary.ts'
import type { ConfigSpec } from '../../engine/pipeline/config/resolve.ts'
import type { FeaturizeResult, PlanChunk, PlanStartResult } from '../../engine/worker/protocol/plan.ts'
import type { FeatureDevice } from '../../engine/features/model-input.ts'
import { batchFromTransfer, specBetasKey, specKeyWithoutBetas } from '../../engine/index.ts'

/** Batches asked for per `plan-next`: small enough that each chunk renders in well under a frame budget. */
export const chunkSize = 32
/** A chunk comes back once it holds a batch and has taken this long, so the first batches show as they come. */
export const chunkMs = 200

/** Quiet time after a beta change before a weighted plan starts over, ms (a slider's steps come faster). */
export const betaDelayMs = 300

export type BatchesStatus = 'idle' | 'starting' | 'streaming' | 'done' | 'stopped' | 'error'

export interface BatchesState {
  status: BatchesStatus
  start: PlanStartResult | null
  /** Summaries of the batches streamed so far, in order. */
  batches: BatchSummary[]
  /** Row groups the plan has read so far, while a chunk is on its way (`null` before any). */
  rowGroupsRead: number | null
  /** Latest chunk's live numbers (sampler counts, drops, rows read). */
  live: Pick<PlanChunk, 'mixture' | 'drops' | 'io'> | null
  /** Batches per second over the stream so far. */
  rate: number | null
  error: string | null
  /** The open batch's index and, once fetched, its examples. */
  selected: number | null
  selectedBatch: PlannedBatch | null
  /** The last "decode & featurize" run over streamed batches (the data loader's cost on this machine). */
  featurize: { status: 'idle' | 'running' | 'done' | 'error'; from: number; count: number; result: FeaturizeResult | null; error: string | null }
  /** Plans started (`plan-start` asked): a config change the plan does not see starts none. */
  plans: number
  /**
   * The sampler's first fill, read behind the first batch (`plan-warm-up`): until `done`, the batches are those
   * training draws unless one of those reads fails; `failed` replaced them with the error. `null` without a mixture.
   */
  warmUp: { filled: number; total: number; status: 'running' | 'done' | 'failed' } | null
}

export interface BatchesActions {
  /**
   * Starts a new plan (cancelling the running one) and streams it until done, stopped or replaced. A call that
   * differs from the last one in the betas alone keeps the plan when it is unweighted, and otherwise waits
   * `betaDelayMs` (a newer call cancels it) and for the view to be shown.
   */
  run(dataset: number, spec: ConfigSpec, maxBatches: number | null): Promise<void>
  /** Stops asking for more batches after the chunk in flight (what was streamed stays, and can be exported). */
  stop(): void
  /** Resumes a stopped stream. */
  resume(): Promise<void>
  /** Opens batch `index` (fetches its examples). */
  select(index: number | null): Promise<void>
  /** Decodes and featurizes `count` streamed batches from `from` on `device` (cancels a run in flight). */
  featurizeBatches(from: number, count: number, device: FeatureDevice): Promise<void>
  /** The streamed batches as `batches --jsonl` or Arrow IPC bytes. */
  exportPlan(format: 'jsonl' | 'arrow'): Promise<Uint8Array>
  /**
   * Whether the view is shown: while not, the stream asks for no further chunk (the one in flight lands), so a
   * hidden Batches view puts no work on the page's main thread; shown again, it carries on where it was.
   */
  setVisible(visible: boolean): void
  /** Cancels and closes everything (view unmounted). */
  dispose(): void
}

export type BatchesStore = BatchesState & BatchesActions

export const initialBatchesState: BatchesState = {
  status: 'idle', start: null, batches: [], rowGroupsRead: null, live: null, rate: null, error: null, selected: null, selectedBatch: null,
  featurize: { status: 'idle', from: 0, count: 0, result: null, error: null }, plans: 0, warmUp: null,
}

/** Creates the store over a worker client (`request` only; a fake in tests) and a clock in ms. */
export function createBatchesStore(client: Pick<EngineClient, 'request'>, now: () => number = () => performance.now(),
  options: { betaDelayMs?: number } = {}): StoreApi<BatchesStore> {
  const delay = options.betaDelayMs ?? betaDelayMs
  let controller: AbortController | null = null
  /** What the last `run` asked for: the keys of its spec with and without the betas. */
  let asked: { dataset: number; maxBatches: number | null; withoutBetas: string; betas: string } | null = null
  /** A beta change waiting for stillness and for the view (a newer `run` aborts it). */
  let waiting: AbortController | null = null
  let featurizing: AbortController | null = null
  let session: number | null = null
  let startedAt = 0
  /** Resolves when the view is shown again (`null` while shown). */
  let shown: { promise: Promise<void>; resolve: () => void } | null = null
  /** Time spent hidden since the stream started (left out of the rate), ms. */
  let hiddenMs = 0
  let hiddenAt = 0

  function close(): void {
    controller?.abort()
    controller = null
    featurizing?.abort()
    featurizing = null
    if (session !== null) void client.request('plan-close', { session }).catch(() => undefined)
    session = null
  }

  const store = createStore<BatchesStore>()((set, get) => {
    async function stream(own: AbortController, id: number): Promise<void> {
      set({ status: 'streaming' })
      try {
        for (;;) {
          if (shown) await shown.promise
          if (controller !== own) return
          const chunk = await client.request('plan-next', { session: id, count: chunkSize, maxMs: chunkMs }, {
            signal: own.signal,
            onProgress: (p) => { if (controller === own && get().batches.length === 0) set({ rowGroupsRead: p.done }) },
          })
          if (controller !== own) return
          const batches = get().batches.concat(chunk.batches)
          const seconds = (now() - startedAt - hiddenMs - (shown ? now() - hiddenAt : 0)) / 1000
          set({ batches, live: { mixture: chunk.mixture, drops: chunk.drops, io: chunk.io }, rate: seconds > 0 ? batches.length / seconds : null })
          if (chunk.done) {
            set({ status: 'done' })
            return
          }
          if (get().status === 'stopped') return
        }
      } catch (error) {
        if (controller !== own) return
        if (error instanceof Error && error.name === 'AbortError') return
        set({ status: 'error', error: error instanceof Error ? error.message : String(error) })
      }
    }

    /** Follows the sampler's deferred first fill; its failure replaces the batches with the reference's error. */
    async function watchWarmUp(own: AbortController, id: number, total: number): Promise<void> {
      set({ warmUp: { filled: 0, total, status: 'running' } })
      try {
        const done = await client.request('plan-warm-up', { session: id }, {
          signal: own.signal,
          onProgress: (p) => { if (controller === own) set({ warmUp: { filled: p.done, total: p.total ?? total, status: 'running' } }) },
        })
        if (controller === own) set({ warmUp: { filled: done.filled, total: done.total, status: 'done' } })
      } catch (error) {
        if (controller !== own || (error instanceof Error && error.name === 'AbortError') || own.signal.aborted) return
        const message = error instanceof Error ? error.message : String(error)
        set((s) => ({ status: 'error', error: `Training stops before its first batch: ${message}`, batches: [], selected: null, selectedBatch: null,
          warmUp: { filled: s.warmUp?.filled ?? 0, total, status: 'failed' } }))
        own.abort()
      }
    }

    return {
      ...initialBatchesState,

      async run(dataset, spec, maxBatches) {
        waiting?.abort()
        waiting = null
        const request = { dataset, maxBatches, withoutBetas: specKeyWithoutBetas(spec), betas: specBetasKey(spec) }
        const previous = asked
        asked = request
        if (previous && previous.dataset === dataset && previous.maxBatches === maxBatches && previous.withoutBetas === request.withoutBetas) {
          if (previous.betas === request.betas) return
          // the betas alone: nothing to do for a plan without weights, else one re-plan once the slider rests
          const start = get().start
          if (start && !start.weighted && controller) return
          const own = new AbortController()
          waiting = own
          try {
            await new Promise<void>((resolve, reject) => {
              const timer = setTimeout(resolve, delay)
              own.signal.addEventListener('abort', () => { clearTimeout(timer); reject(new DOMException('batches: superseded', 'AbortError')) }, { once: true })
            })
            // hidden, the plan waits for the view (the one in flight keeps what it streamed meanwhile)
            while (shown) {
              await Promise.race([shown.promise, new Promise((resolve) => own.signal.addEventListener('abort', resolve, { once: true }))])
              if (own.signal.aborted) return
            }
          } catch {
            return
          }
          if (waiting !== own) return
          waiting = null
        }
        close()
        const own = new AbortController()
        controller = own
        set((s) => ({ ...initialBatchesState, status: 'starting', plans: s.plans + 1 }))
        try {
          const start = await client.request('plan-start', { dataset, spec, maxBatches }, { signal: own.signal })
          if (controller !== own) {
            void client.request('plan-close', { session: start.session }).catch(() => undefined)
            return
          }
          session = start.session
          startedAt = now()
          hiddenMs = 0
          hiddenAt = now()
          set({ start })
          if (start.warmUpStreams !== null) void watchWarmUp(own, start.session, start.warmUpStreams)
          await stream(own, start.session)
        } catch (error) {
          if (controller !== own || (error instanceof Error && error.name === 'AbortError')) return
          set({ status: 'error', error: error instanceof Error ? error.message : String(error) })
        }
      },

      stop() {
        // the chunk in flight finishes (cutting it would end the worker's session); no further chunk is asked for
        if (get().status === 'streaming') set({ status: 'stopped' })
      },

      async resume() {
        if (get().status !== 'stopped' || session === null || !controller) return
        await stream(controller, session)
      },

      async select(index) {
        if (index === null || session === null) {
          set({ selected: null, selectedBatch: null })
          return
        }
        featurizing?.abort()
        featurizing = null
        set({ selected: index, selectedBatch: null, featurize: initialBatchesState.featurize })
        try {
          const batch = batchFromTransfer(await client.request('plan-batch', { session, index }))
          if (get().selected === index) set({ selectedBatch: batch })
        } catch (error) {
          if (get().selected === index) set({ error: error instanceof Error ? error.message : String(error) })
        }
      },

      async featurizeBatches(from, count, device) {
        if (session === null) return
        featurizing?.abort()
        const own = new AbortController()
        featurizing = own
        set({ featurize: { status: 'running', from, count, result: null, error: null } })
        try {
          const result = await client.request('plan-featurize', { session, index: from, count, device }, { signal: own.signal })
          if (featurizing === own) set({ featurize: { status: 'done', from, count, result, error: null } })
        } catch (error) {
          if (featurizing !== own || (error instanceof Error && error.name === 'AbortError')) return
          set({ featurize: { status: 'error', from, count, result: null, error: error instanceof Error ? error.message : String(error) } })
        }
      },

      exportPlan(format) {
        if (session === null) return Promise.reject(new Error('batches: no plan to export yet'))
        return client.request('plan-export', { session, format })
      },

      setVisible(visible) {
        if (visible && shown) {
          hiddenMs += now() - hiddenAt
          const { resolve } = shown
          shown = null
          resolve()
        } else if (!visible && !shown) {
          hiddenAt = now()
          let resolve!: () => void
          const promise = new Promise<void>((r) => { resolve = r })
          shown = { promise, resolve }
        }
      },

      dispose() {
        waiting?.abort()
        waiting = null
        asked = null
        close()
        set({ ...initialBatchesState })
      },
    }
  })
  return store
}
