import { describe, expect, test } from 'vitest'
import { configFromSearch, configSpec, createConfigStore, initialConfigState, withConfigParams } from './config-store.ts'

describe('config store', () => {
  test('the spec carries the preset, recipe, form fields, then split, seed, rank, world size and betas', () => {
    const store = createConfigStore()
    store.getState().update({ seed: 7, rank: 1, worldSize: 2, betaCorpus: 0.3 })
    store.getState().setField('max_audio_len', 320000)
    expect(configSpec(store.getState())).toEqual({
      preset: 'ctc-finetune', recipe: null,
      overrides: { max_audio_len: 320000, split: 'train', seed: 7, rank: 1, world_size: 2, beta_corpus: 0.3 },
    })
    store.getState().setField('max_audio_len', undefined)
    expect(configSpec(store.getState()).overrides).not.toHaveProperty('max_audio_len')
    store.getState().reset()
    expect(configSpec(store.getState()).overrides).toEqual({ split: 'train' })
  })

  test('URL round trip: defaults stay out of the URL, other parameters are kept, bad numbers ignored', () => {
    const state = { ...initialConfigState, preset: null, split: 'dev', seed: 3, worldSize: 4, betaLanguage: 0.7, maxBatches: 5 }
    const href = withConfigParams('http://h/?view=batches', state)
    const url = new URL(href)
    expect(url.searchParams.get('view')).toBe('batches')
    expect(url.searchParams.get('preset')).toBe('none')
    const back = configFromSearch(url.search)
    expect(back).toMatchObject({ preset: null, split: 'dev', seed: 3, worldSize: 4, betaLanguage: 0.7, maxBatches: 5, rank: null, betaCorpus: null })
    expect(new URL(withConfigParams('http://h/?seed=1', initialConfigState)).search).toBe('')
    expect(configFromSearch('?seed=abc&rank=')).toMatchObject({ seed: null, rank: null, preset: 'ctc-finetune' })
  })
})
