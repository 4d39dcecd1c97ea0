import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { getPreset } from '../../src/engine/pipeline/config/presets.ts'
import { applySetArguments } from '../../src/engine/pipeline/config/set.ts'
import type { PipelineConfig } from '../../src/engine/pipeline/config/types.ts'
import { openDataset, type OpenDataset } from '../../src/engine/dataset/open.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createCountingSource, type CountingSource } from '../../src/engine/source/counting-source.ts'
import { MixscopeError } from '../../src/engine/core/findings.ts'
import { batchJsonLine } from '../../src/engine/batches/jsonl.ts'
import { planDataset, PlanRefusedError } from '../../src/engine/batches/plan-dataset.ts'
import { splitFooters } from '../../src/engine/pipeline/config/select.ts'
import { collect } from '../../src/engine/pipeline/iterables.ts'
import { duck, query, writeParquet } from '../helpers/duckdb.ts'
import { writeParquet as writeExactParquet } from '../../scripts/demo-parquet.ts'

const demoRoot = resolve(import.meta.dirname, '../../public/demo/version=0')
const openDemo = async () => openDataset(await createFsSource(demoRoot))
const ctc = (...sets: string[]): PipelineConfig => applySetArguments(getPreset('ctc-finetune').config, sets)

/** Demo rows of `split` that pass the ctc-finetune filters (length in [32000, 960000], text, ≥ 160 samples per char), from DuckDB. */
async function expectedRows(split: string, extra = ''): Promise<string[]> {
  const rows = await query(`SELECT filename, file_row_number AS row FROM read_parquet('${demoRoot}/**/*.parquet', hive_partitioning = true, filename = true, file_row_number = true)
    WHERE split = '${split}' AND audio_size BETWEEN 32000 AND 960000 AND length(text) > 0 AND audio_size / length(text) >= 160 ${extra}`)
  return rows.map((r) => `${relative(demoRoot, r.filename as string)}:${r.row}`).sort()
}

async function allExamples(config: PipelineConfig, split: string, worldSize: number) {
  const dataset = await openDemo()
  const ids: string[] = []
  const drops: Record<string, number> = {}
  let read = 0
  for (let rank = 0; rank < worldSize; rank++) {
    const plan = planDataset(dataset, config, { split, rank, worldSize })
    for (const b of await collect(plan.batches)) for (const e of b.examples) ids.push(`${e.file}:${e.row}`)
    for (const d of plan.drops.list()) drops[`${d.reason} ${d.corpus}/${d.language}`] = (drops[`${d.reason} ${d.corpus}/${d.language}`] ?? 0) + d.count
    read += plan.io.rows
  }
  return { ids: ids.sort(), drops, read }
}

describe('planDataset on the demo: eval epochs', () => {
  for (const worldSize of [1, 2, 3, 5]) {
    it(`every dev row that passes the filters appears exactly once over ${worldSize} rank(s)`, async () => {
      const { ids, drops, read } = await allExamples(ctc(), 'dev', worldSize)
      expect(ids).toEqual(await expectedRows('dev'))
      expect(new Set(ids).size).toBe(ids.length)
      const dropped = Object.values(drops).reduce((a, b) => a + b, 0)
      expect(ids.length + dropped).toBe(read)
      expect(read).toBe(33)
    })
  }

  it('counts drops per reason and partition (the planted empty text, short audio)', async () => {
    const { drops } = await allExamples(ctc(), 'dev', 1)
    expect(drops['empty-text commonvoice/eng_Latn']).toBe(1)
    const short = await query(`SELECT corpus, language, count(*) AS n FROM read_parquet('${demoRoot}/**/*.parquet', hive_partitioning = true)
      WHERE split = 'dev' AND audio_size < 32000 GROUP BY ALL`)
    expect(short.length).toBeGreaterThan(0)
    for (const s of short) expect(drops[`length-below-min ${s.corpus}/${s.language}`]).toBe(s.n)
  })

  it('applies partition_filters to eval too (the streamer quirk)', async () => {
    const config = ctc('fragment_streaming.partition_filters=[("corpus", "in", ["mls"])]')
    const { ids } = await allExamples(config, 'dev', 2)
    expect(ids).toEqual(await expectedRows('dev', "AND corpus = 'mls'"))
    expect(ids.every((id) => id.startsWith('corpus=mls/'))).toBe(true)
  })

  it('counts the planted fast-speech row of mls train (read once with UNTIL_LAST)', async () => {
    const plan = planDataset(await openDemo(), ctc('min_audio_len=1', 'sync_mode="UNTIL_LAST"'), { split: 'train_mls' })
    await collect(plan.batches)
    const fast = await query(`SELECT language, count(*) AS n FROM read_parquet('${demoRoot}/corpus=mls/split=train/**/*.parquet', hive_partitioning = true)
      WHERE length(text) > 0 AND audio_size / length(text) < 160 GROUP BY ALL`)
    expect(fast).toEqual([{ language: 'eng_Latn', n: 1 }])
    expect(plan.drops.list().filter((d) => d.reason === 'fast-speech').map((d) => [d.corpus, d.language, d.count])).toEqual([['mls', 'eng_Latn', 1]])
  })
})

describe('planDataset: determinism and I/O', () => {
  it('gives the same JSONL, byte for byte, on two runs (train mixture and eval)', async () => {
    for (const split of ['train', 'dev']) {
      const run = async () => (await collect(planDataset(await openDemo(), ctc('example_shuffle_window=7', 'batch_shuffle_window=3'), { split, rank: 1, worldSize: 2 }).batches, 30)).map(batchJsonLine).join('')
      const a = await run()
      expect(a.length).toBeGreaterThan(100)
      expect(await run()).toBe(a)
    }
  })

  it('uses the TSV mixture for train: one stream per weighted partition, warm-up rows dropped', async () => {
    const plan = planDataset(await openDemo(), ctc(), { split: 'train' })
    await collect(plan.batches, 5)
    expect(plan.mixture?.length).toBe(17)
    expect(plan.drops.total('warm-up')).toBe(17)
    expect(plan.summaryPath).toBe('../language_distribution_0.tsv')
  })

  it('reads only the audio_size and text column chunks, never audio_bytes', async () => {
    const source = createCountingSource(await createFsSource(demoRoot))
    const dataset = await openDataset(source)
    source.reset()
    const plan = planDataset(dataset, ctc(), { split: 'dev' })
    await collect(plan.batches)
    expect(source.reads.length).toBeGreaterThan(0)
    let checkedChunks = 0
    for (const f of dataset.files.filter((f) => f.keys.split === 'dev')) {
      const footer = dataset.parquet.footer(f.path)
      for (const group of footer.row_groups) {
        const chunk = group.columns.find((c) => c.meta_data?.path_in_schema[0] === 'audio_bytes')!.meta_data!
        const start = Number(chunk.dictionary_page_offset ?? chunk.data_page_offset)
        const end = start + Number(chunk.total_compressed_size)
        for (const r of source.readsOf(f.path)) expect(r.end <= start || r.start >= end, `${f.path} read ${r.start}-${r.end} overlaps audio_bytes ${start}-${end}`).toBe(true)
        checkedChunks++
      }
      expect(source.readsOf(f.path).length).toBeGreaterThan(0)
    }
    expect(checkedChunks).toBeGreaterThan(10)
  })
})

describe('planDataset: --max-batches reads what its batches need', () => {
  let root: string
  beforeAll(async () => {
    // 2 train partitions and 1 dev partition, each one file of 20 row groups of 10 rows, lengths 2.5-12.5 s
    root = await mkdtemp(join(tmpdir(), 'mixscope-plan-reads-'))
    const rows = Array.from({ length: 200 }, (_, i) => i)
    for (const [split, language] of [['train', 'aaa_Latn'], ['train', 'bbb_Latn'], ['dev', 'aaa_Latn']]) {
      await writeExactParquet(await duck(), join(root, `corpus=c/split=${split}/language=${language}/part-0.parquet`), [
        { name: 'text', type: 'VARCHAR', values: rows.map((i) => `utterance ${i} of ${language}`) },
        { name: 'audio_bytes', type: 'TINYINT[]', values: rows.map(() => new Uint8Array([1])) },
        { name: 'audio_size', type: 'BIGINT', values: rows.map((i) => 40_000 + ((i * 7919) % 160_000)) },
      ], { rowGroupSize: 10 })
    }
    await writeFile(join(root, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\nc\taaa_Latn\t3\nc\tbbb_Latn\t1\n')
  })
  afterAll(async () => { await rm(root, { recursive: true, force: true }) })

  /** The (file, row group) pairs whose `text` chunk a read touched. */
  const rowGroupsRead = (dataset: OpenDataset, source: CountingSource) => {
    const touched = new Set<string>()
    for (const f of dataset.files) {
      dataset.parquet.footer(f.path).row_groups.forEach((group, g) => {
        const chunk = group.columns.find((c) => c.meta_data?.path_in_schema[0] === 'text')!.meta_data!
        const start = Number(chunk.dictionary_page_offset ?? chunk.data_page_offset)
        const end = start + Number(chunk.total_compressed_size)
        if (source.readsOf(f.path).some((r) => r.start < end && r.end > start)) touched.add(`${f.path}#${g}`)
      })
    }
    return touched
  }

  for (const [split, maxBatches, prefetch] of [['train', 1, 0], ['train', 3, 0], ['train', 3, 1], ['dev', 1, 0], ['dev', 1, 1]] as const) {
    it(`${split}, ${maxBatches} batch(es), read-ahead ${prefetch}: only the row groups whose rows the streams handed out`, async () => {
      const source = createCountingSource(await createFsSource(root))
      const dataset = await openDataset(source)
      source.reset()
      const plan = planDataset(dataset, ctc(`max_num_batches=${maxBatches}`, 'max_audio_len=320000', 'max_num_elements=960000'), { split, prefetchFragments: prefetch })
      const batches = await collect(plan.batches)
      expect(batches.length).toBe(maxBatches)
      const touched = rowGroupsRead(dataset, source)
      // without read-ahead exactly the row groups the streams reached; with it, at most `prefetch` more per stream
      const streams = plan.mixture?.length ?? 1
      expect(touched.size).toBeGreaterThanOrEqual(plan.io.fragments)
      expect(touched.size).toBeLessThanOrEqual(plan.io.fragments + prefetch * streams)
      // rows handed out: the batches' rows, the drops (warm-up, filters) and what waits in buckets and the sampler
      const handed = new Set(batches.flatMap((b) => b.examples.map((e) => `${e.file}#${e.row_group}`)))
      for (const rg of handed) expect(touched).toContain(rg)
      expect(touched.size).toBeLessThan(split === 'train' ? 40 : 20)
    })
  }
})

describe('planDataset on a dataset opened with the footers of one split only', () => {
  for (const split of ['train', 'dev', 'train_mls']) {
    it(`${split}: the other splits' footers are not read, and the batches are the same bytes`, async () => {
      const config = ctc('max_num_batches=8', 'example_shuffle_window=5')
      const whole = (await collect(planDataset(await openDemo(), config, { split }).batches)).map(batchJsonLine).join('')
      const source = createCountingSource(await createFsSource(demoRoot))
      const dataset = await openDataset(source, { footersOf: splitFooters(split) })
      const [want, corpus] = split.split('_')
      for (const f of dataset.files) {
        const ours = f.keys.split === want && (corpus === undefined || f.keys.corpus === corpus)
        expect(source.readsOf(f.path).length > 0, f.path).toBe(ours)
        expect(f.readable).toBe(ours)
      }
      expect((await collect(planDataset(dataset, config, { split }).batches)).map(batchJsonLine).join('')).toBe(whole)
    })
  }
})

describe('planDataset: refusals and bad cells', () => {
  let dir: string
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'mixscope-plan-')) })
  afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

  it('refuses a config the reference cannot start with, listing every error', async () => {
    const defaults = applySetArguments(getPreset('asr-task-defaults').config, ['remove_unknown=true'])
    let error: unknown
    try {
      planDataset(await openDemo(), defaults, { split: 'train' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(PlanRefusedError)
    const kinds = (error as PlanRefusedError).findings.map((f) => f.kind)
    expect(kinds).toContain('example-shuffle-window-zero')
    expect(kinds.length).toBeGreaterThanOrEqual(2)
    expect((error as PlanRefusedError).exitClass).toBe('data')
  })

  it('plans an eval split with a TSV but no betas: the reference computes weights only for train streaming', async () => {
    const config = applySetArguments(getPreset('asr-task-defaults').config, ['example_shuffle_window=1'])
    expect(config.beta_corpus).toBeNull()
    const demo = await openDemo()
    const plan = planDataset(demo, config, { split: 'dev' })
    expect(plan.weights).toBeNull()
    expect((await collect(plan.batches)).length).toBeGreaterThan(0)
    // train streaming asserts the betas (bare assert in the reference)
    expect(() => planDataset(demo, config, { split: 'train' })).toThrow(PlanRefusedError)
  })

  it('names file:row for a null audio_size, and ignores a null text the length filter drops', async () => {
    const root = join(dir, 'nulls')
    const rows = Array.from({ length: 20 }, (_, i) => i)
    await writeExactParquet(await duck(), join(root, 'corpus=c/split=dev/language=eng_Latn/part-0.parquet'), [
      { name: 'text', type: 'VARCHAR', values: rows.map((i) => (i === 1 ? null : `text ${i}`)) },
      { name: 'audio_bytes', type: 'TINYINT[]', values: rows.map(() => new Uint8Array([1])) },
      { name: 'audio_size', type: 'BIGINT', values: rows.map((i) => (i === 13 ? null : i === 1 ? 10 : 40000)) },
    ], { rowGroupSize: 5 })
    const dataset = await openDataset(await createFsSource(root))
    const file = dataset.files[0].path
    const plan = planDataset(dataset, ctc('batching_strategy=STATIC', 'batch_size=2'), { split: 'dev' })
    const seen: string[] = []
    let error: unknown
    try {
      for await (const b of plan.batches) for (const e of b.examples) seen.push(`${e.row}`)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(MixscopeError)
    expect((error as Error).message).toContain(`${file}:13`)
    expect((error as Error).message).toContain('audio_size null')
    expect(seen).toContain('0')
    expect(seen).not.toContain('1')
    expect(plan.drops.list().map((d) => d.reason)).toEqual(['length-below-min'])
  })

  it('refuses a stray non-parquet file under the root (the reference fails on it)', async () => {
    const root = join(dir, 'stray')
    await writeParquet(join(root, 'corpus=c/split=dev/language=x/a.parquet'), `SELECT 'abc' AS text, 40000::BIGINT AS audio_size`)
    await writeFile(join(root, 'notes.txt'), 'hello')
    let error: unknown
    try {
      planDataset(await openDataset(await createFsSource(root)), ctc(), { split: 'dev' })
    } catch (e) {
      error = e
    }
    expect((error as PlanRefusedError).findings.map((f) => f.kind)).toEqual(['stray-file'])
  })
})
