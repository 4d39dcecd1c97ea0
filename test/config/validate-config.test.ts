import { describe, expect, it } from 'vitest'
import { getPreset } from '../../src/engine/pipeline/config/presets.ts'
import { setConfigValue } from '../../src/engine/pipeline/config/set.ts'
import type { PipelineConfig } from '../../src/engine/pipeline/config/types.ts'
import type { ConfigCheckContext, ConfigPartitionInfo } from '../../src/engine/pipeline/config/check-context.ts'
import { checkConfig } from '../../src/engine/pipeline/config/validate-config.ts'

const part = (corpus: string, split: string, language: string): ConfigPartitionInfo => ({ corpus, split, language, keys: { corpus, split, language } })
const partitions = [
  part('fleurs', 'dev', 'eng_Latn'), part('fleurs', 'train', 'eng_Latn'), part('fleurs', 'train', 'fra_Latn'),
  part('mls', 'dev', 'deu_Latn'), part('mls', 'train', 'deu_Latn'), part('mls', 'train', 'fra_Latn'),
]
const summaryRows = [
  { corpus: 'mls', language: 'deu_Latn', hours: 1966.5 }, { corpus: 'mls', language: 'fra_Latn', hours: 1076.6 },
  { corpus: 'fleurs', language: 'eng_Latn', hours: 7 }, { corpus: 'fleurs', language: 'fra_Latn', hours: 10 },
]
const context: ConfigCheckContext = { partitions, summaryRows, versions: [] }
const base = getPreset('ctc-finetune').config
const withSets = (c: PipelineConfig, sets: Record<string, unknown>) => Object.entries(sets).reduce((acc, [k, v]) => setConfigValue(acc, k, v), c)
const check = (sets: Record<string, unknown>, ctx: Partial<ConfigCheckContext> = {}) => checkConfig(withSets(base, sets), { ...context, ...ctx })
const kindsOf = (findings: { kind: string; severity: string }[], severity: string) => findings.filter((f) => f.severity === severity).map((f) => f.kind).sort()

describe('checkConfig', () => {
  it('ctc-finetune on a healthy dataset: no errors, the expected quirks', () => {
    const findings = check({})
    expect(kindsOf(findings, 'error')).toEqual([])
    expect(kindsOf(findings, 'warning')).toEqual(['fragment-epoch-replay', 'warmup-row-dropped'])
    expect(findings.find((f) => f.kind === 'warmup-row-dropped')!.message).toMatch(/each of the 4 partition streams .*\(reference §5, §19.3\)/)
    expect(findings.every((f) => f.path === '' && f.row === null)).toBe(true)
  })

  it('flags the settings that crash the reference', () => {
    const e = (sets: Record<string, unknown>, ctx: Partial<ConfigCheckContext> = {}) => kindsOf(check(sets, ctx), 'error')
    expect(e({ example_shuffle_window: 0 })).toEqual(['example-shuffle-window-zero'])
    expect(check({ example_shuffle_window: 0 }).find((f) => f.kind === 'example-shuffle-window-zero')!.message)
      .toContain('AssertionError("Shuffling the entire dataset can result in OOM, set `example_shuffle_window` > 0 to shuffle inside a window.")')
    expect(e({ batch_shuffle_window: 0 })).toEqual(['batch-shuffle-window-invalid'])
    expect(e({ remove_unknown: true })).toEqual(['remove-unknown-crash'])
    expect(e({ unified_audio_feature_keys: false })).toEqual(['unified-audio-feature-keys-false'])
    expect(e({ batching_strategy: 'STATIC', batch_size: 0 })).toEqual(['static-batch-size-invalid'])
    expect(e({ batching_strategy: 'STATIC', no_padding: true })).toEqual(['no-padding-static'])
    expect(e({ max_num_elements: 100_000 })).toEqual(['bucket-sizes-invalid']) // max_audio_len > M after rounding to 0
    expect(e({ min_audio_len: 0 })).toEqual(['bucket-sizes-invalid'])
    expect(e({ min_audio_len: 970_000 })).toEqual(['bucket-sizes-invalid'])
    expect(e({ num_seqs_multiple_of: 0 })).toEqual(['bucket-sizes-invalid'])
    expect(e({ max_bucket_size: 0 })).toEqual(['bucket-sizes-invalid'])
    expect(check({ max_bucket_size: 0 }).find((f) => f.kind === 'bucket-sizes-invalid')!.message).toContain('`bucket_sizes` must contain at least one element.')
    expect(e({ spec_aug_p: 0.5, spec_aug_freq_mask_param: 19 })).toEqual(['spec-aug-freq-mask-param-invalid'])
    expect(e({ spec_aug_p: 0.5, spec_aug_freq_mask_param: 201 })).toEqual(['spec-aug-freq-mask-param-invalid'])
    expect(e({ spec_aug_p: 0.5, spec_aug_freq_mask_param: 200 })).toEqual([])
    expect(e({ rank: 2, world_size: 2 })).toEqual(['rank-out-of-range'])
  })

  it('flags split, filter and mixture failures against the dataset', () => {
    const e = (sets: Record<string, unknown>, ctx: Partial<ConfigCheckContext> = {}) => kindsOf(check(sets, ctx), 'error')
    expect(e({ split: 'train_librispeech' })).toEqual(['no-parquet-files-for-split'])
    expect(check({ split: 'train_' }).find((f) => f.kind === 'no-parquet-files-for-split')!.message)
      .toContain('AssertionError("No parquet files found for the current split train_.")')
    expect(e({ beta_corpus: null })).toEqual(['mixture-betas-missing'])
    expect(e({}, { summaryRows: [...summaryRows.slice(1), { corpus: 'mls', language: 'deu_Latn', hours: 0 }] })).toEqual(['mixture-weight-invalid'])
    expect(e({}, { summaryRows: [{ corpus: 'x', language: 'y', hours: 1 }] })).toEqual(['mixture-nothing-matches'])
    expect(e({ partition_filters: 'pc.field("corpus") === "mls"' })).toEqual(['partition-filter-invalid'])
    expect(e({ partition_filters: '[("speaker", "=", "a")]' })).toEqual(['partition-filter-unknown-key'])
    expect(e({ partition_filters: '[("corpus", "=", "nope")]' })).toEqual(['no-parquet-files-for-split'])
  })

  it('zero-hour rows are fine with beta 0 and for partitions outside the split', () => {
    const zero = [...summaryRows, { corpus: 'other', language: 'x', hours: 0 }]
    expect(kindsOf(check({}, { summaryRows: zero }), 'error')).toEqual([])
    const zeroMls = [summaryRows[0], { corpus: 'mls', language: 'fra_Latn', hours: 0 }, ...summaryRows.slice(2)]
    expect(kindsOf(check({ beta_language: 0 }, { summaryRows: zeroMls }), 'error')).toEqual([])
    expect(kindsOf(check({}, { summaryRows: zeroMls }), 'error')).toEqual(['mixture-weight-invalid'])
  })

  it('reports the silent quirks', () => {
    const w = (sets: Record<string, unknown>, ctx: Partial<ConfigCheckContext> = {}) => kindsOf(check(sets, ctx), 'warning')
    expect(w({}, { summaryRows: summaryRows.slice(0, 3) })).toContain('partitions-missing-from-tsv')
    expect(w({}, { partitions: [...partitions, part('mls', 'dev_clean', 'deu_Latn')] })).toContain('split-name-unreachable')
    expect(w({ split: 'dev_trainset' }, {})).toContain('train-substring-test')
    expect(w({ split: 'dev', sync_mode: 'UNTIL_LAST', partition_filters: '[("corpus", "=", "mls")]' })).toEqual(['partition-filters-filter-eval'])
    expect(w({ world_size: 4, rank: 3 })).toContain('same-sampling-seed-all-ranks')
    expect(w({}, { versions: ['0', '1'] })).toContain('several-versions-merged')
    expect(w({ max_num_elements: 1_000_000 })).toContain('max-num-elements-rounded')
    expect(w({ spec_aug_p: 0.3 })).toEqual(expect.arrayContaining(['spec-aug-freq-mask-is-time-mask', 'spec-aug-time-mask-param-ignored', 'spec-aug-truncates-waveform', 'spec-aug-unseeded']))
    expect(w({ use_fbank: true })).toEqual(expect.arrayContaining(['fbank-sample-rate-lock', 'fbank-channel-0-only', 'normalize-audio-ignored-with-fbank']))
    expect(w({ use_fbank: true, spec_aug_p: 0.3 })).toContain('spec-aug-ignored-with-fbank')
    expect(w({ 'fragment_streaming.nb_epochs': 3 })).toContain('fragment-streaming-overridden')
    expect(w({ no_padding: true })).toContain('no-padding-ignored')
    expect(w({}, { summaryRows: [...summaryRows, summaryRows[0]] })).toContain('tsv-duplicate-rows')
  })

  it('one selected partition or no TSV: no mixture, no warm-up finding', () => {
    expect(kindsOf(check({ split: 'train_mls', partition_filters: '[("language", "=", "deu_Latn")]' }), 'warning')).not.toContain('warmup-row-dropped')
    expect(kindsOf(check({ split: 'train_mls' }, { summaryRows: summaryRows.slice(0, 1) }), 'warning')).toContain('warmup-row-dropped')
    expect(kindsOf(check({}, { summaryRows: null }), 'warning')).toEqual(['fragment-epoch-replay'])
    expect(kindsOf(check({ split: 'dev', sync_mode: 'UNTIL_LAST' }), 'warning')).toEqual([])
  })

  it('the recommendation presets fail like the real recipes', () => {
    const findings = checkConfig(getPreset('ctc-finetune-recommendation').config, context)
    expect(kindsOf(findings, 'error')).toEqual(['example-shuffle-window-zero'])
    expect(kindsOf(checkConfig(getPreset('fleurs-mls-mini').config, { ...context, partitions: [...partitions, part('mls', 'test', 'deu_Latn')] }), 'error')).toEqual([])
  })
})
