/**
 * The app's Inspector store instance and the training config it inspects with: the config store's spec resolved by
 * the worker (`config-resolve`), reduced to the fields the model input depends on.
 */
import { useEffect, useState } from 'react'
import { useStore } from 'zustand'
import type { InspectConfig } from '../../../engine/worker/protocol/inspect.ts'
import { engineClient } from '../../engine-client.ts'
import { configSpec, configStore } from '../../stores/config-store.ts'
import { createInspectorStore, defaultInspectorSettings, type InspectorStore } from './inspector-store.ts'

/** `?sa_seed=` keeps the SpecAugment seed in the link. */
function initialSeed(): number {
  if (typeof window === 'undefined') return 0
  const value = Number(new URLSearchParams(window.location.search).get('sa_seed'))
  return Number.isSafeInteger(value) ? value : 0
}

/** `?device=cpu` starts the model input on the CPU. */
function initialDevice(): 'gpu' | 'cpu' {
  return typeof window !== 'undefined' && new URLSearchParams(window.location.search).get('device') === 'cpu' ? 'cpu' : 'gpu'
}

export const inspectorStore = createInspectorStore(engineClient, undefined, { ...defaultInspectorSettings, seed: initialSeed(), device: initialDevice() })

if (typeof window !== 'undefined') {
  inspectorStore.subscribe((state, previous) => {
    if (state.settings.seed === previous.settings.seed && state.settings.device === previous.settings.device) return
    const url = new URL(window.location.href)
    if (state.settings.seed === 0) url.searchParams.delete('sa_seed')
    else url.searchParams.set('sa_seed', String(state.settings.seed))
    if (state.settings.device === 'gpu') url.searchParams.delete('device')
    else url.searchParams.set('device', 'cpu')
    window.history.replaceState(window.history.state, '', url.href)
  })
}

export function useInspectorStore<T>(selector: (state: InspectorStore) => T): T {
  return useStore(inspectorStore, selector)
}

/** The resolved config's model-input fields, or the resolution error. */
export function useInspectConfig(): { config: InspectConfig | null; error: string | null } {
  const [state, setState] = useState<{ config: InspectConfig | null; error: string | null }>({ config: null, error: null })
  useEffect(() => {
    let current = 0
    const resolve = () => {
      const ticket = ++current
      engineClient.request('config-resolve', { spec: configSpec(configStore.getState()) }).then((resolved) => {
        if (ticket !== current) return
        const c = resolved.config
        setState({
          config: {
            use_fbank: c.use_fbank, normalize_audio: c.normalize_audio, spec_aug_p: c.spec_aug_p, spec_aug_freq_mask_param: c.spec_aug_freq_mask_param,
            dtype: c.dtype, min_audio_len: c.min_audio_len, max_audio_len: c.max_audio_len, split: c.split, min_samples_per_char: c.min_samples_per_char,
          },
          error: null,
        })
      }, (error: Error) => { if (ticket === current) setState({ config: null, error: error.message }) })
    }
    resolve()
    const stop = configStore.subscribe(resolve)
    return () => { current = -1; stop() }
  }, [])
  return state
}
