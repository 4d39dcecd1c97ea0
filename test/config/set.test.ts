import { describe, expect, it } from 'vitest'
import { defaultPipelineConfig } from '../../src/engine/pipeline/config/defaults.ts'
import { configFields } from '../../src/engine/pipeline/config/schema.ts'
import { applySetArguments, getConfigValue, parseSetValue, resolveConfigKey, setConfigValue } from '../../src/engine/pipeline/config/set.ts'

describe('config schema and defaults', () => {
  it('lists every leaf of the defaults exactly once', () => {
    const leaves: string[] = []
    const walk = (node: Record<string, unknown>, prefix: string) => {
      for (const [k, v] of Object.entries(node)) {
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>, `${prefix}${k}.`)
        else leaves.push(`${prefix}${k}`)
      }
    }
    walk(defaultPipelineConfig() as unknown as Record<string, unknown>, '')
    expect([...leaves].sort()).toEqual(configFields.map((f) => f.path).sort())
  })

  it('has the reference defaults (docs/reference-pipeline.md §5-§8)', () => {
    const c = defaultPipelineConfig()
    expect([c.min_audio_len, c.max_audio_len, c.max_num_elements, c.num_seqs_multiple_of]).toEqual([1, 800_000, 3_200_000, 8])
    expect([c.example_shuffle_window, c.batch_shuffle_window, c.seed, c.sampling_seed]).toEqual([0, 1000, 2, 261])
    expect([c.fragment_streaming.seed, c.sync_mode, c.spec_aug_freq_mask_param, c.num_prefetch]).toEqual([2, 'UNTIL_FIRST', 80, 4])
    expect(c.features_spec_aug.enabled).toBe(false)
  })
})

describe('--set', () => {
  it('resolves exact paths first, then unique suffixes', () => {
    expect(resolveConfigKey('seed').path).toBe('seed')
    expect(resolveConfigKey('fragment_streaming.seed').path).toBe('fragment_streaming.seed')
    expect(resolveConfigKey('cache').path).toBe('fragment_loading.cache')
    expect(resolveConfigKey('nb_rows').path).toBe('fragment_streaming.limit.nb_rows')
    expect(resolveConfigKey('limit.nb_rows').path).toBe('fragment_streaming.limit.nb_rows')
  })

  it('rejects unknown keys with candidates and ambiguous keys with the matches', () => {
    expect(() => resolveConfigKey('max_audio_length')).toThrow(/unknown key "max_audio_length"; did you mean .*max_audio_len/)
    expect(() => resolveConfigKey('nope_nope')).toThrow(/unknown key "nope_nope"/)
    const fields = [...configFields, { path: 'other.seed', type: { kind: 'int' as const }, nullable: false }]
    expect(() => resolveConfigKey('fragment_streaming.seed', fields)).not.toThrow()
    expect(() => resolveConfigKey('x.seed', fields)).toThrow(/unknown key "x.seed"/)
    const twoGroups = fields.filter((f) => f.path !== 'seed')
    expect(() => resolveConfigKey('seed', twoGroups)).toThrow('config: key "seed" is ambiguous; it matches fragment_streaming.seed, features_spec_aug.seed, other.seed')
  })

  it('parses JSON values, else strings', () => {
    expect(parseSetValue('3')).toBe(3)
    expect(parseSetValue('null')).toBe(null)
    expect(parseSetValue('["a","b"]')).toEqual(['a', 'b'])
    expect(parseSetValue('train_mls')).toBe('train_mls')
    expect(parseSetValue('true')).toBe(true)
  })

  it('applies and type-checks values', () => {
    const c = applySetArguments(defaultPipelineConfig(), [
      'max_audio_len=960000', 'split=dev_clean', 'batching_strategy=static', 'dtype=torch.bfloat16',
      'fragment_streaming.seed=42', 'min_audio_len=32_000', 'partition_filters=pc.field("corpus") == "mls"', 'beta_corpus=0.5',
    ])
    expect(c.max_audio_len).toBe(960000)
    expect(c.split).toBe('dev_clean')
    expect(c.batching_strategy).toBe('STATIC')
    expect(c.dtype).toBe('bfloat16')
    expect(c.fragment_streaming.seed).toBe(42)
    expect(c.min_audio_len).toBe(32000)
    expect(c.fragment_streaming.partition_filters).toBe('pc.field("corpus") == "mls"')
    expect(getConfigValue(c, 'beta_corpus')).toBe(0.5)
    expect(defaultPipelineConfig().max_audio_len).toBe(800_000)
  })

  it('names key, value and expected type on bad values', () => {
    const c = defaultPipelineConfig()
    expect(() => setConfigValue(c, 'max_audio_len', 1.5)).toThrow('config: max_audio_len = 1.5 is not a valid value; expected integer')
    expect(() => setConfigValue(c, 'normalize_audio', 'yes')).toThrow(/normalize_audio = "yes" .* expected boolean/)
    expect(() => setConfigValue(c, 'max_audio_len', null)).toThrow(/expected integer$/)
    expect(() => setConfigValue(c, 'sync_mode', 'SOMETIMES')).toThrow(/expected one of "UNTIL_FIRST", "UNTIL_LAST"/)
    expect(() => applySetArguments(c, ['novalue'])).toThrow(/expects key=value/)
    expect(setConfigValue(c, 'max_bucket_size', null).max_bucket_size).toBe(null)
  })

  it('sets a group from an object', () => {
    const c = setConfigValue(defaultPipelineConfig(), 'fragment_loading', { cache: false, nb_prefetch: 2 })
    expect([c.fragment_loading.cache, c.fragment_loading.nb_prefetch]).toEqual([false, 2])
    expect(() => setConfigValue(defaultPipelineConfig(), 'fragment_loading', 3)).toThrow(/group of fields/)
  })
})
