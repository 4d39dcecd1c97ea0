/**
 * `specKeyWithoutBetas` / `specBetasKey` (src/engine/pipeline/config/spec-key.ts): two specs share the first exactly
 * when they differ at most in their beta overrides, under any spelling `resolveConfig` accepts (an object or a list of
 * overrides); checked against what `resolveConfig` makes of them.
 */
import { describe, expect, test } from 'vitest'
import { resolveConfig, type ConfigSpec } from '../../src/engine/pipeline/config/resolve.ts'
import { isMixtureOnlyKey, specBetasKey, specKeyWithoutBetas } from '../../src/engine/pipeline/config/spec-key.ts'

const base: ConfigSpec = { preset: 'ctc-finetune', recipe: null, overrides: { split: 'train', seed: 3, beta_corpus: 0.5 } }

describe('spec keys', () => {
  test('a beta (also under a section name) is mixture-only; nothing else is', () => {
    expect(['beta_corpus', 'beta_language', 'mixture.beta_language'].every(isMixtureOnlyKey)).toBe(true)
    expect(['seed', 'max_audio_len', 'sampling_seed', 'beta', 'x.beta_corpus_2'].some(isMixtureOnlyKey)).toBe(false)
  })

  test('betas changed: same key without betas, another betas key; the resolved configs differ in the betas alone', () => {
    const moved: ConfigSpec = { ...base, overrides: [['split', 'train'], ['seed', 3], ['beta_corpus', 0.7], ['beta_language', 0.2]] }
    expect(specKeyWithoutBetas(moved)).toBe(specKeyWithoutBetas(base))
    expect(specBetasKey(moved)).not.toBe(specBetasKey(base))
    const a = resolveConfig(base).config
    const b = resolveConfig(moved).config
    expect({ ...b, beta_corpus: a.beta_corpus, beta_language: a.beta_language }).toEqual(a)
    expect([b.beta_corpus, b.beta_language]).toEqual([0.7, 0.2])
  })

  test('any other change changes the key without betas', () => {
    for (const other of [
      { ...base, preset: null },
      { ...base, recipe: { name: 'r.yaml', text: 'common:\n  seed: 5\n' } },
      { ...base, overrides: { ...base.overrides as object, max_audio_len: 100_000 } },
      { ...base, overrides: { ...base.overrides as object, seed: 4 } },
    ]) expect(specKeyWithoutBetas(other), JSON.stringify(other)).not.toBe(specKeyWithoutBetas(base))
  })
})
