/** The one config resolver: preset → recipe → overrides, every problem a finding, never a throw on user input. */
import { describe, expect, it } from 'vitest'
import { defaultPipelineConfig } from '../../src/engine/pipeline/config/defaults.ts'
import { getPreset } from '../../src/engine/pipeline/config/presets.ts'
import { loadRecipe } from '../../src/engine/pipeline/config/recipe.ts'
import { resolutionErrors, resolveConfig } from '../../src/engine/pipeline/config/resolve.ts'

const kinds = (findings: { kind: string; severity: string }[]) => findings.map((f) => `${f.severity}:${f.kind}`).sort()
const flatRecipe = { name: 'r.json', text: JSON.stringify({ max_audio_len: 320_000, example_shuffle_window: 7 }) }

describe('resolveConfig', () => {
  it('no preset, no recipe, no overrides: the reference defaults', () => {
    const r = resolveConfig({ preset: null, recipe: null, overrides: {} })
    expect(r.config).toEqual(defaultPipelineConfig())
    expect(r.findings).toEqual([])
    expect(r.summaryPathFrom).toBeNull()
    expect(r.presets.map((p) => p.name)).toContain('dataloader-example')
  })

  it('layers preset, then recipe, then overrides, each changing only the keys it names', () => {
    const preset = getPreset('dataloader-example').config
    const r = resolveConfig({ preset: 'dataloader-example', recipe: flatRecipe, overrides: [['max_audio_len', 480_000], ['seed', 9]] })
    expect(r.findings).toEqual([])
    // the recipe's keys over the preset's
    expect(r.config.example_shuffle_window).toBe(7)
    // the override over the recipe's
    expect(r.config.max_audio_len).toBe(480_000)
    expect(r.config.seed).toBe(9)
    // keys nobody named keep the preset's values
    expect(r.config.min_audio_len).toBe(preset.min_audio_len)
    expect(r.config.max_num_elements).toBe(preset.max_num_elements)
    expect(r.config.fragment_streaming.seed).toBe(preset.fragment_streaming.seed)
  })

  it('a recipe alone is exactly loadRecipe on the reference defaults', () => {
    const text = 'dataset:\n  mixture_parquet_storage_config:\n    beta_corpus: 0.3\n  asr_task_config:\n    max_audio_len: 320_000\ncommon:\n  seed: 5\n'
    const r = resolveConfig({ preset: null, recipe: { name: 'r.yaml', text }, overrides: {} })
    const loaded = loadRecipe(text, { name: 'r.yaml' })
    expect(r.config).toEqual(loaded.config)
    expect(r.findings).toEqual(loaded.findings)
  })

  it('overrides apply in order: a repeated key ends at its last value, a bad one is an error finding and skipped', () => {
    const r = resolveConfig({ preset: 'ctc-finetune', recipe: null, overrides: [['seed', 1], ['seed', 'x'], ['max_audio_len', 100_000], ['nope_key', 3]] })
    expect(r.config.seed).toBe(1)
    expect(r.config.max_audio_len).toBe(100_000)
    expect(kinds(r.findings)).toEqual(['error:config-key-unknown', 'error:config-value-invalid'])
    expect(resolutionErrors(r)).toMatch(/^the config has 2 error\(s\):\n {2}config-key-unknown: .*nope_key/)
  })

  it('an unknown preset and an unparsable recipe are error findings; the other layers still apply', () => {
    const r = resolveConfig({ preset: 'no-such-preset', recipe: { name: 'bad.yaml', text: 'a: [1,' }, overrides: { max_audio_len: 320_000 } })
    expect(kinds(r.findings)).toEqual(['error:config-preset-unknown', 'error:recipe-unparsable'])
    expect(r.findings[0].message + r.findings[1].message).toMatch(/no-such-preset/)
    expect(r.config).toEqual({ ...defaultPipelineConfig(), max_audio_len: 320_000 })
  })

  it('recipe findings come through unchanged, and dataset_summary_path says which layer set it', () => {
    const recipe = { name: 'r.yaml', text: 'dataset:\n  mixture_parquet_storage_config:\n    dataset_summary_path: /x.tsv\n    typo: 1\n' }
    const fromRecipe = resolveConfig({ preset: null, recipe, overrides: {} })
    expect(fromRecipe.summaryPathFrom).toBe('r.yaml:dataset.mixture_parquet_storage_config.dataset_summary_path')
    expect(kinds(fromRecipe.findings)).toEqual(kinds(loadRecipe(recipe.text, { name: 'r.yaml' }).findings))
    const fromOverride = resolveConfig({ preset: null, recipe, overrides: { dataset_summary_path: '/y.tsv' } })
    expect(fromOverride.config.dataset_summary_path).toBe('/y.tsv')
    expect(fromOverride.summaryPathFrom).toBe('override')
  })
})
