/**
 * The config store: the training configuration Mixture, Batches and Audit use, as the worker's `ConfigSpec`
 * (a preset or the reference defaults, an optional recipe file, then field overrides). The values that matter for a
 * link (preset, split, seed, rank, world size, betas, max batches) live in the page URL; a recipe's text does not
 * (only its name is shown).
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useStore } from 'zustand'
import { useEffect, useMemo, useState } from 'react'
import type { EngineClient } from '../../engine/worker/client.ts'
import type { ConfigSpec, ResolvedConfig } from '../../engine/pipeline/config/resolve.ts'

/** The preset the explorer starts with: the shipped CTC fine-tuning recipe. */
export const defaultPreset = 'ctc-finetune'

export interface ConfigState {
  /** Preset name, or `null` for the reference defaults. */
  preset: string | null
  /** A recipe YAML/JSON the user loaded (applied on top of the preset). */
  recipe: { name: string; text: string } | null
  /** Raw split string given to the reader. */
  split: string
  /** Task seed (`seed`), `null` = the config's. */
  seed: number | null
  /** Data-parallel rank, `null` = the config's (0). */
  rank: number | null
  /** Data-parallel size, `null` = the config's (1). */
  worldSize: number | null
  betaCorpus: number | null
  betaLanguage: number | null
  /** Batches a train stream is cut at (the CLI's `--max-batches`); `null` = CLI default (20 for train). */
  maxBatches: number | null
  /** Other config keys set from the form (`--set` names → values). */
  fields: Record<string, unknown>
}

export interface ConfigActions {
  /** Merges `patch` into the state. */
  update(patch: Partial<ConfigState>): void
  /** Sets one config key from the form (`undefined` removes the override). */
  setField(key: string, value: unknown): void
  /** Back to the default preset, no recipe, no overrides. */
  reset(): void
}

export type ConfigStore = ConfigState & ConfigActions

export const initialConfigState: ConfigState = {
  preset: defaultPreset, recipe: null, split: 'train', seed: null, rank: null, worldSize: null,
  betaCorpus: null, betaLanguage: null, maxBatches: null, fields: {},
}

/** Creates a config store starting at `initial`. */
export function createConfigStore(initial: ConfigState = initialConfigState): StoreApi<ConfigStore> {
  return createStore<ConfigStore>()((set) => ({
    ...initial,
    update: (patch) => set(patch),
    setField: (key, value) => set((s) => {
      const fields = { ...s.fields }
      if (value === undefined) delete fields[key]
      else fields[key] = value
      return { fields }
    }),
    reset: () => set({ ...initialConfigState }),
  }))
}

/** The worker's `ConfigSpec` for a state: form fields first, then split, seed, rank, world size and betas. */
export function configSpec(state: ConfigState): ConfigSpec {
  const overrides: Record<string, unknown> = { ...state.fields, split: state.split }
  if (state.seed !== null) overrides.seed = state.seed
  if (state.rank !== null) overrides.rank = state.rank
  if (state.worldSize !== null) overrides.world_size = state.worldSize
  if (state.betaCorpus !== null) overrides.beta_corpus = state.betaCorpus
  if (state.betaLanguage !== null) overrides.beta_language = state.betaLanguage
  return { preset: state.preset, recipe: state.recipe, overrides }
}

/** URL parameter of each number-valued state field. */
const numberParams = {
  seed: 'seed', rank: 'rank', worldSize: 'world_size', betaCorpus: 'beta_corpus', betaLanguage: 'beta_language', maxBatches: 'max_batches',
} as const satisfies Partial<Record<keyof ConfigState, string>>

/** The state a query string describes (`preset=none` = reference defaults); unreadable numbers are ignored. */
export function configFromSearch(search: string): ConfigState {
  const params = new URLSearchParams(search)
  const state: ConfigState = { ...initialConfigState, fields: {} }
  const preset = params.get('preset')
  if (preset !== null && preset !== '') state.preset = preset === 'none' ? null : preset
  const split = params.get('split')
  if (split) state.split = split
  for (const [key, name] of Object.entries(numberParams) as [keyof typeof numberParams, string][]) {
    const text = params.get(name)
    if (text === null || text.trim() === '') continue
    const value = Number(text)
    if (Number.isFinite(value)) state[key] = value
  }
  return state
}

/** `href` with the config parameters of `state` (defaults and `null`s left out; other parameters kept). */
export function withConfigParams(href: string, state: ConfigState): string {
  const url = new URL(href)
  const p = url.searchParams
  if (state.preset === defaultPreset) p.delete('preset')
  else p.set('preset', state.preset ?? 'none')
  if (state.split === initialConfigState.split) p.delete('split')
  else p.set('split', state.split)
  for (const [key, name] of Object.entries(numberParams) as [keyof typeof numberParams, string][]) {
    const value = state[key]
    if (value === null) p.delete(name)
    else p.set(name, String(value))
  }
  return url.href
}

/** Replaces the history entry's URL whenever the config changes; returns the unsubscribe. */
export function syncConfigToPageUrl(store: StoreApi<ConfigStore>): () => void {
  return store.subscribe((state) => {
    const next = withConfigParams(window.location.href, state)
    if (next !== window.location.href) window.history.replaceState(window.history.state, '', next)
  })
}

const inBrowser = typeof window !== 'undefined' && typeof window.location !== 'undefined'

/** The app's config store, seeded from the page URL and kept in it (in a browser). */
export const configStore: StoreApi<ConfigStore> = createConfigStore(inBrowser ? configFromSearch(window.location.search) : initialConfigState)
if (inBrowser) syncConfigToPageUrl(configStore)

/** Selects from the app's config store. */
export function useConfigStore<T>(selector: (state: ConfigStore) => T): T {
  return useStore(configStore, selector)
}

/**
 * The config the worker resolves from the current state (`config-resolve`: preset, recipe, overrides), with its
 * findings and the preset list; `null` until the first answer. Re-asked whenever the state changes.
 */
export function useResolvedConfig(client: Pick<EngineClient, 'request'>): ResolvedConfig | null {
  const state = useStore(configStore)
  const spec = useMemo(() => configSpec(state), [state])
  const [resolved, setResolved] = useState<ResolvedConfig | null>(null)
  useEffect(() => {
    const controller = new AbortController()
    client.request('config-resolve', { spec }, { signal: controller.signal }).then(setResolved, () => undefined)
    return () => controller.abort()
  }, [client, spec])
  return resolved
}
