import { describe, expect, test } from 'vitest'
import type { InspectConfig, InspectParams } from '../../../engine/worker/protocol/inspect.ts'
import { createInspectorStore } from './inspector-store.ts'

const config: InspectConfig = { use_fbank: false, normalize_audio: true, spec_aug_p: null, spec_aug_freq_mask_param: 80, dtype: 'float32', split: 'train', min_samples_per_char: 160, min_audio_len: 1, max_audio_len: 1e6 }

function fake() {
  const calls: InspectParams[] = []
  const created: string[] = []
  const revoked: string[] = []
  let gate: (() => void) | null = null
  const client = {
    request: (async (kind: string, params: InspectParams, options?: { signal?: AbortSignal }) => {
      if (kind === 'tokenizer-load') return { handle: 9, name: 'x.model', vocabSize: 40, unkId: 0 }
      calls.push(params)
      if (params.exampleId === 'slow') await new Promise<void>((resolve) => { gate = resolve })
      if (options?.signal?.aborted) throw new DOMException('aborted', 'AbortError')
      return { playback: { wav: new ArrayBuffer(44), sampleRate: 16000, channels: 1 }, meta: { id: params.exampleId } }
    }) as never,
  }
  let n = 0
  const urls = { create: () => { const u = `blob:${++n}`; created.push(u); return u }, revoke: (u: string) => { revoked.push(u) } }
  return { client, urls, calls, created, revoked, release: () => gate?.() }
}

describe('inspector store', () => {
  test('load sends the settings and makes a Blob URL; the next example revokes the old one', async () => {
    const f = fake()
    const store = createInspectorStore(f.client, f.urls)
    store.getState().updateSettings({ seed: 42, device: 'cpu', featureP: 0.5, compare: true })
    await store.getState().load(1, 'a:0', config)
    expect(f.calls[0]).toMatchObject({ dataset: 1, exampleId: 'a:0', seed: 42, device: 'cpu', compare: true, featureSpecAugment: { p: 0.5 }, tokenizer: null, config })
    expect(store.getState()).toMatchObject({ status: 'ready', exampleId: 'a:0', audioUrl: 'blob:1' })
    await store.getState().load(1, 'a:1', config)
    expect(store.getState().audioUrl).toBe('blob:2')
    expect(f.revoked).toEqual(['blob:1'])
    store.getState().clear()
    expect(f.revoked).toEqual(['blob:1', 'blob:2'])
    expect(store.getState().result).toBeNull()
  })

  test('a superseded load is dropped and never creates a URL', async () => {
    const f = fake()
    const store = createInspectorStore(f.client, f.urls)
    const slow = store.getState().load(1, 'slow', config)
    await store.getState().load(1, 'fast:0', config)
    f.release()
    await slow
    expect(store.getState().exampleId).toBe('fast:0')
    expect(f.created).toEqual(['blob:1'])
  })

  test('a loaded SentencePiece model is used for the next load', async () => {
    const f = fake()
    const store = createInspectorStore(f.client, f.urls)
    await store.getState().loadTokenizer('x.model', new Uint8Array([1]))
    await store.getState().load(1, 'a:0', config)
    expect(f.calls[0].tokenizer).toBe(9)
  })
})
