import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { getPreset, presetNames } from '../../src/engine/pipeline/config/presets.ts'
import { loadRecipe } from '../../src/engine/pipeline/config/recipe.ts'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/config/${name}`, import.meta.url), 'utf8')
const kinds = (findings: { kind: string }[]) => findings.map((f) => f.kind).sort()

describe('loadRecipe', () => {
  it('maps a training recipe', () => {
    const r = loadRecipe(fixture('train-recipe.yaml'), { name: 'train-recipe.yaml' })
    const c = r.config
    expect(r.format).toBe('recipe')
    expect(c.split).toBe('train_mls')
    expect(r.validSplits).toEqual(['dev', 'test_fleurs'])
    expect(c.dataset_summary_path).toBe('/data/speech/language_distribution_0.tsv')
    expect(r.summaryPathFrom).toBe('train-recipe.yaml:dataset.mixture_parquet_storage_config.dataset_summary_path')
    expect([c.beta_corpus, c.beta_language, c.fragment_streaming.seed, c.fragment_loading.cache]).toEqual([0.3, 0.7, 11, false])
    expect(c.fragment_streaming.partition_filters).toEqual(['pc.field("language") != "deu_Latn"', '[("corpus", "in", ["mls", "fleurs"])]'])
    expect([c.min_audio_len, c.max_audio_len, c.max_num_elements, c.example_shuffle_window, c.normalize_audio]).toEqual([16000, 480000, 2560000, 5000, true])
    expect(c.seed).toBe(7) // common.seed overwrites asr_task_config.seed
    expect(c.dtype).toBe('float32')
    expect(c.num_accumulate).toBe(2)
    expect(kinds(r.findings)).toEqual(['config-key-ignored', 'task-seed-overwritten', 'unknown-config-key', 'unknown-config-key'])
    expect(r.findings.map((f) => f.message).join('\n')).toMatch(/dataset.asr_task_config.typo_field/)
    expect(r.findings.map((f) => f.message).join('\n')).toMatch(/fragment_loading.mystery_option/)
    expect(r.findings.every((f) => f.path === '')).toBe(true)
  })

  it('uses the recipe defaults (bf16, 4 batches, seed 2) where the recipe is silent', () => {
    const r = loadRecipe('dataset:\n  storage_mode: MIXTURE_PARQUET\n  asr_task_config:\n    seed: 5\ntrainer: {}\n')
    expect([r.config.dtype, r.config.num_accumulate, r.config.seed]).toEqual(['bfloat16', 4, 2])
    expect(kinds(r.findings)).toEqual(['task-seed-overwritten'])
    expect(r.summaryPathFrom).toBe(null)
  })

  it('reads an eval config as evaluation of valid_split', () => {
    const r = loadRecipe(fixture('eval-recipe.yaml'), { name: 'eval.yaml' })
    expect([r.config.split, r.config.sync_mode, r.config.num_accumulate, r.config.max_audio_len]).toEqual(['test', 'UNTIL_LAST', 1, 320000])
    expect(kinds(r.findings)).toEqual(['eval-recipe'])
  })

  it('reports bad values and a non-parquet storage mode as findings, not crashes', () => {
    const r = loadRecipe('dataset:\n  asr_task_config:\n    max_audio_len: lots\n')
    expect(kinds(r.findings)).toEqual(['config-value-invalid', 'storage-mode-not-parquet'])
    expect(r.findings.find((f) => f.kind === 'config-value-invalid')!.message).toMatch(/max_audio_len = "lots" .*expected integer/)
    expect(r.config.max_audio_len).toBe(800_000)
  })

  it('accepts flat JSON and YAML objects of config keys', () => {
    const r = loadRecipe('{"max_audio_len": 1000, "fragment_streaming": {"seed": 9}, "cache": false, "bogus": 1}', { name: 'flat.json' })
    expect(r.format).toBe('flat')
    expect([r.config.max_audio_len, r.config.fragment_streaming.seed, r.config.fragment_loading.cache]).toEqual([1000, 9, false])
    expect(kinds(r.findings)).toEqual(['unknown-config-key'])
    const y = loadRecipe('dataset_summary_path: /x.tsv\nfragment_streaming.seed: 4\n', { name: 'flat.yaml' })
    expect([y.config.dataset_summary_path, y.config.fragment_streaming.seed, y.summaryPathFrom]).toEqual(['/x.tsv', 4, 'flat.yaml:dataset_summary_path'])
  })

  it('throws on text that is not a mapping', () => {
    expect(() => loadRecipe('- a\n- b\n')).toThrow(/must hold a mapping/)
    expect(() => loadRecipe('{', { name: 'x.json' })).toThrow(/x.json is not valid JSON/)
  })
})

describe('presets (docs/reference-pipeline.md §18)', () => {
  it('has the shipped configurations', () => {
    expect(presetNames).toEqual(expect.arrayContaining(['ctc-finetune', 'llm-finetune', 'dataloader-example', 'asr-task-defaults',
      'ctc-from-encoder', 'llm-from-encoder', 'ctc-finetune-recommendation', 'fleurs-mls-mini']))
  })

  it.each([
    ['ctc-finetune', 32_000, 960_000, 960_000, 1, 4],
    ['ctc-from-encoder', 32_000, 960_000, 960_000, 1, 4],
    ['llm-from-encoder', 32_000, 960_000, 960_000, 1, 4],
    ['llm-finetune', 32_000, 320_000, 320_000, 1, 4],
    ['ctc-finetune-recommendation', 1, 960_000, 7_680_000, 0, 1],
    ['fleurs-mls-mini', 32_000, 320_000, 320_000, 1, 1],
    ['dataloader-example', 8_000, 800_000, 1_600_000, 1000, 1],
    ['asr-task-defaults', 1, 800_000, 3_200_000, 0, 1],
  ])('%s: min %d max %d M %d window %d accumulate %d', (name, min, max, m, window, accumulate) => {
    const c = getPreset(name).config
    expect([c.min_audio_len, c.max_audio_len, c.max_num_elements, c.example_shuffle_window, c.num_accumulate]).toEqual([min, max, m, window, accumulate])
  })

  it('carries the recipe-wide and script-specific values', () => {
    const ctc = getPreset('ctc-finetune').config
    expect([ctc.beta_corpus, ctc.beta_language, ctc.normalize_audio, ctc.batch_shuffle_window, ctc.dtype, ctc.use_fbank, ctc.spec_aug_p]).toEqual([0.5, 0.5, true, 1, 'bfloat16', false, null])
    const ev = getPreset('fleurs-mls-mini').config
    expect([ev.split, ev.sync_mode, ev.fragment_streaming.partition_filters, ev.fragment_loading.num_parallel_fragments, ev.fragment_loading.nb_prefetch])
      .toEqual(['test', 'UNTIL_LAST', 'pc.is_in(pc.field("corpus"), pa.array(["mls"]))', 2, 2])
    const dl = getPreset('dataloader-example').config
    expect([dl.fragment_streaming.seed, dl.batch_shuffle_window, dl.seed, dl.max_num_batches, dl.num_prefetch, dl.dtype, dl.fragment_loading.drop_null])
      .toEqual([42, 20, 202510, 10, 2, 'float32', true])
    expect(getPreset('ctc-finetune').config).not.toBe(getPreset('ctc-finetune').config)
    expect(() => getPreset('nope')).toThrow(/unknown preset "nope"; known presets: asr-task-defaults, ctc-finetune/)
  })
})
