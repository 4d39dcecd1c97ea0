/**
 * The Inspector store: the settings of the model-input view (device, SpecAugment seed, the `features` SpecAugment
 * probability, GPU-vs-CPU comparison, a loaded SentencePiece model) and the inspected example's result from the
 * worker (`inspect-example`). Each load aborts the one in flight. The playback WAV becomes a Blob URL, revoked as
 * soon as another example replaces it or the store is disposed.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { EngineClient } from '../../../engine/worker/client.ts'
import { defaultFeatureSpecAugment } from '../../../engine/index.ts'
import type { FeatureDevice } from '../../../engine/features/model-input.ts'
import type { InspectConfig, InspectResult } from '../../../engine/worker/protocol/inspect.ts'

export interface InspectorSettings {
  device: FeatureDevice
  /** Seed of `random.Random` for both SpecAugment draws. */
  seed: number
  /** `features` SpecAugment probability (mixscope's own, outlined over the fbank; 0 = off). */
  featureP: number
  /** Also compute on the other device and show the largest difference. */
  compare: boolean
  /** A SentencePiece model loaded into the worker, `null` = char vocabulary. */
  tokenizer: { handle: number; name: string; vocabSize: number } | null
}

export interface InspectorState {
  settings: InspectorSettings
  status: 'idle' | 'loading' | 'ready' | 'error'
  /** What the shown result is of: example id, and the config it was computed with. */
  exampleId: string | null
  result: InspectResult | null
  /** Blob URL of `result.playback.wav` (revoked when replaced). */
  audioUrl: string | null
  error: string | null
}

export interface InspectorActions {
  /** Inspects `id` of `dataset` with `config` and the current settings (aborting the previous load). */
  load(dataset: number, id: string, config: InspectConfig): Promise<void>
  updateSettings(patch: Partial<InspectorSettings>): void
  /** Loads a SentencePiece `.model` into the worker and uses it for tokens. */
  loadTokenizer(name: string, bytes: Uint8Array): Promise<void>
  /** Drops the result and revokes its Blob URL. */
  clear(): void
}

export type InspectorStore = InspectorState & InspectorActions

/** Blob URL factory (tests pass a fake; the page uses `URL.createObjectURL`). */
export interface BlobUrls {
  create(wav: ArrayBuffer): string
  revoke(url: string): void
}

const browserUrls: BlobUrls = {
  create: (wav) => URL.createObjectURL(new Blob([wav], { type: 'audio/wav' })),
  revoke: (url) => URL.revokeObjectURL(url),
}

export const defaultInspectorSettings: InspectorSettings = { device: 'gpu', seed: 0, featureP: 0, compare: false, tokenizer: null }

export function createInspectorStore(client: Pick<EngineClient, 'request'>, urls: BlobUrls = browserUrls, settings = defaultInspectorSettings): StoreApi<InspectorStore> {
  let running: AbortController | null = null

  return createStore<InspectorStore>()((set, get) => ({
    settings,
    status: 'idle',
    exampleId: null,
    result: null,
    audioUrl: null,
    error: null,

    async load(dataset, id, config) {
      running?.abort()
      const controller = new AbortController()
      running = controller
      const { settings } = get()
      // keep the old picture while loading the same example (settings change); blank it for another example
      set((s) => ({ status: 'loading', error: null, ...(s.exampleId !== id ? { exampleId: id } : {}) }))
      try {
        const result = await client.request('inspect-example', {
          dataset, exampleId: id, config, seed: settings.seed, device: settings.device, compare: settings.compare,
          featureSpecAugment: { ...defaultFeatureSpecAugment, p: settings.featureP }, tokenizer: settings.tokenizer?.handle ?? null,
        }, { signal: controller.signal })
        if (running !== controller) return
        const previous = get().audioUrl
        const audioUrl = urls.create(result.playback.wav)
        set({ status: 'ready', result, exampleId: id, audioUrl })
        if (previous) urls.revoke(previous)
      } catch (error) {
        if (running !== controller || (error as Error).name === 'AbortError') return
        set({ status: 'error', error: (error as Error).message })
      } finally {
        if (running === controller) running = null
      }
    },

    updateSettings(patch) {
      set((s) => ({ settings: { ...s.settings, ...patch } }))
    },

    async loadTokenizer(name, bytes) {
      try {
        const loaded = await client.request('tokenizer-load', { name, bytes })
        set((s) => ({ settings: { ...s.settings, tokenizer: { handle: loaded.handle, name: loaded.name, vocabSize: loaded.vocabSize } } }))
      } catch (error) {
        set({ error: `Could not load the SentencePiece model ${name}: ${(error as Error).message}` })
      }
    },

    clear() {
      running?.abort()
      running = null
      const url = get().audioUrl
      if (url) urls.revoke(url)
      set({ status: 'idle', result: null, exampleId: null, audioUrl: null, error: null })
    },
  }))
}
