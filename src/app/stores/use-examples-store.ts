/** The app's Examples store instance (over the worker client) and its React hook. */
import { useStore } from 'zustand'
import { engineClient } from '../engine-client.ts'
import { createExamplesStore, type ExamplesStore } from './examples-store.ts'
import { configSpec, configStore } from './config-store.ts'
import type { ConfigSpec } from '../../engine/pipeline/config/resolve.ts'

/** `?examples_index_rows=N`: rows above which a transcript search streams (for trying the streamed search on a small dataset). */
function indexRowLimitFromUrl(): number | undefined {
  const value = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('examples_index_rows')
  const n = value === null || value.trim() === '' ? NaN : Number(value)
  return Number.isInteger(n) && n >= 0 ? n : undefined
}

/** The `examples-search` / `examples-neighbour` parameter the list uses (absent: the worker's default). */
const fromUrl = indexRowLimitFromUrl()
export const examplesIndexRowLimit: { indexRowLimit?: number } = fromUrl === undefined ? {} : { indexRowLimit: fromUrl }

/** The config the list's flags follow: the config store's, as the Audit's (one set of flagged rows, engine/audit/flagged.ts). */
export function examplesSpec(): ConfigSpec {
  return configSpec(configStore.getState())
}

export const examplesStore = createExamplesStore(engineClient, { ...examplesIndexRowLimit, spec: examplesSpec })

/** Selects from the Examples store; re-renders when the selected value changes. */
export function useExamplesStore<T>(selector: (state: ExamplesStore) => T): T {
  return useStore(examplesStore, selector)
}
