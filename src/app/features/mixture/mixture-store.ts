/**
 * The Mixture store: the latest `mixture` report for the dataset and config. Only the latest request matters: every
 * change aborts what the previous one still had running (in the worker too).
 *
 * A change of the betas alone (a slider step) is answered in two halves: first `mixture-weights` (every row's
 * weights, sampling probability and audio share, O(rows) in the worker) patched into the report shown, then, once
 * the value has stayed put for `detailsDelayMs`, the full `mixture` (the sampler's first draws and the exposure
 * model), which replaces it. Any other change asks for the full report at once.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { EngineClient } from '../../../engine/worker/client.ts'
import type { ConfigSpec } from '../../../engine/pipeline/config/resolve.ts'
import type { MixtureViewReport } from '../../../engine/mixture/mixture.ts'
import type { MixtureWeights } from '../../../engine/mixture/mixture-weights.ts'
import { specKeyWithoutBetas } from '../../../engine/index.ts'

export interface MixtureState {
  status: 'idle' | 'loading' | 'ready' | 'error'
  report: MixtureViewReport | null
  /**
   * What in `report` is not yet for the latest request: `null` nothing; `details` the sampler draws and exposure
   * (the weights are current); `all` everything.
   */
  stale: 'details' | 'all' | null
  error: string | null
  /** Sampler draws counted for "sampled vs expected". */
  draws: number
  /** Training steps the hours column is for. */
  steps: number
}

export interface MixtureActions {
  load(dataset: number, spec: ConfigSpec): Promise<void>
  setDraws(draws: number): void
  setSteps(steps: number): void
}

export type MixtureStore = MixtureState & MixtureActions

export const initialMixtureState: MixtureState = { status: 'idle', report: null, stale: null, error: null, draws: 10_000, steps: 1_000 }

/** Quiet time after a beta's cheap update before the expensive half is asked for, ms. */
export const detailsDelayMs = 150

/** What a request asks besides the betas: two requests with the same key give reports with the same rows. */
export function mixtureKey(dataset: number, spec: ConfigSpec, draws: number, steps: number): string {
  return JSON.stringify([dataset, specKeyWithoutBetas(spec), draws, steps])
}

/** `report` with the weights of `w` (its rows in the same order; the draws and exposure are left as they were). */
export function withWeights(report: MixtureViewReport, w: MixtureWeights): MixtureViewReport {
  return {
    ...report,
    config: { ...report.config, beta_corpus: w.beta_corpus, beta_language: w.beta_language },
    rows: report.rows.map((r, i) => ({
      ...r, corpus_weight: w.corpus_weight[i]!, language_weight: w.language_weight[i]!, weight: w.weight[i]!,
      sampling_probability: w.sampling_probability[i]!, audio_share: w.audio_share[i]!,
    })),
  }
}

const aborted = (error: unknown) => error instanceof Error && error.name === 'AbortError'

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => { clearTimeout(timer); reject(new DOMException('mixture: superseded', 'AbortError')) }, { once: true })
  })
}

/** Creates the store over a worker client (a fake in tests). */
export function createMixtureStore(client: Pick<EngineClient, 'request'>, options: { detailsDelayMs?: number } = {}): StoreApi<MixtureStore> {
  let running: AbortController | null = null
  /** The key of the report shown (`mixtureKey`). */
  let shownKey: string | null = null
  const delay = options.detailsDelayMs ?? detailsDelayMs
  return createStore<MixtureStore>()((set, get) => ({
    ...initialMixtureState,
    async load(dataset, spec) {
      running?.abort()
      const own = new AbortController()
      running = own
      const { draws, steps } = get()
      const key = mixtureKey(dataset, spec, draws, steps)
      set({ status: 'loading', stale: 'all' })
      try {
        if (get().report !== null && shownKey === key) {
          // a beta moved: the weights now, the sampler draws and exposure once the value stays put
          try {
            const weights = await client.request('mixture-weights', { dataset, spec }, { signal: own.signal })
            const report = get().report
            if (running !== own) return
            if (report && weights.rows === report.rows.length) set({ report: withWeights(report, weights), stale: 'details', error: null })
          } catch (error) {
            if (running !== own || aborted(error)) return
            // the full report below says what is wrong
          }
          await wait(delay, own.signal)
        }
        const report = await client.request('mixture', { dataset, spec, draws, steps }, { signal: own.signal })
        if (running !== own) return
        shownKey = key
        set({ status: 'ready', report, stale: null, error: null })
      } catch (error) {
        if (running !== own || aborted(error)) return
        set({ status: 'error', stale: null, error: error instanceof Error ? error.message : String(error) })
      }
    },
    setDraws: (draws) => set({ draws }),
    setSteps: (steps) => set({ steps }),
  }))
}
