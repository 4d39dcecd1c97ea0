import { describe, expect, it } from 'vitest'
import fixture from '../fixtures/rng/shuffle.json' with { type: 'json' }
import { asrTaskBatches, taskExamples, type TaskConfig } from '../../src/engine/pipeline/task.ts'
import { DropCounter } from '../../src/engine/pipeline/drops.ts'
import { codePointLength, type PlannedExample } from '../../src/engine/pipeline/example.ts'
import { collect } from '../../src/engine/pipeline/iterables.ts'

const base: TaskConfig = {
  min_audio_len: 100, max_audio_len: 1000, example_shuffle_window: 1, batch_shuffle_window: 1, seed: 2,
  min_samples_per_char: 10, filter_long_text_threshold: null, remove_unknown: false, batching_strategy: 'STATIC',
  batch_size: 1, num_seqs_multiple_of: 1, max_num_elements: 2000, max_bucket_size: null, drop_remainder: false, no_padding: false,
}

const ex = (row: number, length: number, text = 'ab', corpus = 'c', language = 'l'): PlannedExample =>
  ({ file: 'f.parquet', row, row_group: 0, corpus, language, split: 'train', length, text })

describe('codePointLength', () => {
  it('counts code points like Python len()', () => {
    expect(codePointLength('')).toBe(0)
    expect(codePointLength('héllo wörld')).toBe(11)
    expect(codePointLength('😀a')).toBe(2)
    expect('😀a'.length).toBe(3)
  })
})

describe('taskExamples filters', () => {
  it('length filter is inclusive on both ends and counts drops with hours', async () => {
    const drops = new DropCounter()
    const out = await collect(taskExamples([ex(0, 99), ex(1, 100), ex(2, 1000), ex(3, 1001, 'ab', 'd', 'm')], base, { drops }))
    expect(out.map((e) => e.row)).toEqual([1, 2])
    expect(drops.list()).toEqual([
      { reason: 'length-below-min', corpus: 'c', language: 'l', count: 1, hours: 99 / 16000 / 3600 },
      { reason: 'length-above-max', corpus: 'd', language: 'm', count: 1, hours: 1001 / 16000 / 3600 },
    ])
  })

  it('drops empty text, then too-fast speech measured in code points (inclusive)', async () => {
    const drops = new DropCounter()
    // 20 samples per char needed at min 10 → length 200 with 20 chars is exactly 10 → kept
    const items = [ex(0, 500, ''), ex(1, 200, 'x'.repeat(20)), ex(2, 200, 'x'.repeat(21)), ex(3, 200, '😀'.repeat(20))]
    const out = await collect(taskExamples(items, base, { drops }))
    expect(out.map((e) => e.row)).toEqual([1, 3])
    expect(drops.total('empty-text')).toBe(1)
    expect(drops.total('fast-speech')).toBe(1)
  })

  it('with a tokenizer: drops all-unknown (and empty) encodings, then texts above the long-text threshold', async () => {
    const drops = new DropCounter()
    const tokenizer = { unkIdx: 3, encode: (t: string) => [...t].map((ch) => (ch === '?' ? 3 : ch.charCodeAt(0))) }
    const items = [ex(0, 900, '??'), ex(1, 900, 'a?'), ex(2, 900, 'abcd'), ex(3, 900, 'abc')]
    const out = await collect(taskExamples(items, { ...base, filter_long_text_threshold: 3 }, { drops, tokenizer }))
    expect(out.map((e) => e.row)).toEqual([1, 3])
    expect(drops.total('all-unknown')).toBe(1)
    expect(drops.total('long-text')).toBe(1)
  })

  it('example shuffle uses `seed` (Python fixture n 25, window 8, seed 3)', async () => {
    const c = fixture.cases.find((k) => k.n === 25 && k.window === 8 && k.seed === 3)!
    const items = Array.from({ length: 25 }, (_, i) => ex(i, 500))
    const out = await collect(taskExamples(items, { ...base, example_shuffle_window: 8, seed: 3 }, { drops: new DropCounter() }))
    expect(out.map((e) => e.row)).toEqual(c.output)
  })
})

describe('asrTaskBatches', () => {
  it('batch shuffle uses seed + 1 (Python fixture n 10, window 3, seed 2 with task seed 1)', async () => {
    const c = fixture.cases.find((k) => k.n === 10 && k.window === 3 && k.seed === 2)!
    const items = Array.from({ length: 10 }, (_, i) => ex(i, 500))
    const out = await collect(asrTaskBatches(items, { ...base, seed: 1, batch_shuffle_window: 3 }, { drops: new DropCounter() }))
    expect(out.map((b) => b[0].row)).toEqual(c.output)
  })

  it('LENGTH batching buckets by stored length and counts drop_remainder', async () => {
    const drops = new DropCounter()
    // M 2000, max 1000, min 100, k 1 → buckets (20,100) (19,105) … (3,666) (2,1000)
    const cfg: TaskConfig = { ...base, batching_strategy: 'LENGTH', drop_remainder: true }
    const items = [ex(0, 1000), ex(1, 900), ex(2, 1000), ex(3, 700)]
    const out = await collect(asrTaskBatches(items, cfg, { drops }))
    // every length here is above 666, so all go to bucket (2, 1000): full after rows 0,1 and after rows 2,3
    expect(out.map((b) => b.map((e) => e.row))).toEqual([[0, 1], [2, 3]])
    expect(drops.total('drop-remainder')).toBe(0)
    const out2 = await collect(asrTaskBatches(items.slice(0, 3), cfg, { drops }))
    expect(out2.map((b) => b.map((e) => e.row))).toEqual([[0, 1]])
    expect(drops.total('drop-remainder')).toBe(1)
  })

  it('raises the reference build-time errors in the reference order', () => {
    const drops = new DropCounter()
    expect(() => asrTaskBatches([], { ...base, example_shuffle_window: 0, batch_shuffle_window: 0 }, { drops }))
      .toThrow('AssertionError: Shuffling the entire dataset can result in OOM, set `example_shuffle_window` > 0 to shuffle inside a window.')
    expect(() => asrTaskBatches([], { ...base, remove_unknown: true }, { drops })).toThrow(/TypeError/)
    expect(() => asrTaskBatches([], { ...base, no_padding: true }, { drops })).toThrow('no_padding is not supported for static batching')
    expect(() => asrTaskBatches([], { ...base, batching_strategy: 'LENGTH', max_num_elements: 1500, batch_shuffle_window: 0 }, { drops }))
      .toThrow(/`batch_shuffle_window` > 0/)
    expect(() => asrTaskBatches([], { ...base, batching_strategy: 'LENGTH', min_audio_len: 0 }, { drops }))
      .toThrow('`min_seq_len` must be greater than zero, but is 0 instead.')
  })
})
