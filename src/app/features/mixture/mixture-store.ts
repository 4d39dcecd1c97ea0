/**
 * The Mixture store: the latest `mixture` report for the dataset and config. Every change asks the worker again and
 * cancels the previous request, so sliders update live without piling up work.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { EngineClient } from '../../../engine/worker/client.ts'
import type { ConfigSpec } from '../../../engine/pipeline/config/resolve.ts'
import type { MixtureReport } from '../../../engine/mixture/mixture.ts'

export interface MixtureState {
  status: 'idle' | 'loading' | 'ready' | 'error'
  report: MixtureReport | null
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

export const initialMixtureState: MixtureState = { status: 'idle', report: null, error: null, draws: 10_000, steps: 1_000 }

/** Creates the store over a worker client (a fake in tests). */
export function createMixtureStore(client: Pick<EngineClient, 'request'>): StoreApi<MixtureStore> {
  let running: AbortController | null = null
  return createStore<MixtureStore>()((set, get) => ({
    ...initialMixtureState,
    async load(dataset, spec) {
      running?.abort()
      const own = new AbortController()
      running = own
      set({ status: 'loading' })
      try {
        const report = await client.request('mixture', { dataset, spec, draws: get().draws, steps: get().steps }, { signal: own.signal })
        if (running === own) set({ status: 'ready', report, error: null })
      } catch (error) {
        if (running !== own || (error instanceof Error && error.name === 'AbortError')) return
        set({ status: 'error', error: error instanceof Error ? error.message : String(error) })
      }
    },
    setDraws: (draws) => set({ draws }),
    setSteps: (steps) => set({ steps }),
  }))
}
