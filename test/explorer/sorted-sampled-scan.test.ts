/**
 * Sorts and samples above the example index's row limit (src/engine/examples/text-scan.ts with ordered-rows.ts): on
 * the demo each sort and each sample lists what the example index lists (search.ts `searchExamples`), with and
 * without a text or length condition; on a DuckDB-written dataset a sort is DuckDB's `ORDER BY` (nulls last, ties in
 * file and row order) and a bounded top-K of it keeps exactly DuckDB's first rows; through the worker with the limit
 * at 0 a sort and a sample stream, and answer as the index does once it is built.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDataset, type OpenDataset } from '../../src/engine/dataset/open.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { exampleIndex } from '../../src/engine/examples/example-index.ts'
import { neighbourExample, searchExamples, type ExampleFilter, type ExampleSample, type ExampleSort } from '../../src/engine/examples/search.ts'
import { streamsRows, TextScan, type ScanOrder } from '../../src/engine/examples/text-scan.ts'
import { sampleRanks, TopK } from '../../src/engine/examples/ordered-rows.ts'
import { PythonRandom } from '../../src/engine/random/python-random.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { OpenResult } from '../../src/engine/worker/protocol/dataset.ts'
import type { RequestKind, Requests } from '../../src/engine/worker/protocol.ts'
import { query, writeParquet } from '../helpers/duckdb.ts'

async function finished(dataset: OpenDataset, filter: ExampleFilter, order: ScanOrder, maxHeld?: number, maxSorted?: number): Promise<TextScan> {
  const scan = new TextScan(dataset, filter, null, order, { maxHeld, maxSorted })
  scan.start()
  await scan.waitFor(Infinity, 60_000)
  expect(scan.status().state).toBe('done')
  return scan
}

/** Every listed id, through pages of 37. */
async function idsOf(scan: TextScan): Promise<string[]> {
  const ids: string[] = []
  for (let offset = 0; ; offset += 37) {
    const page = await scan.page(offset, 37)
    ids.push(...page.rows.map((r) => r.id))
    if (page.rows.length < 37) break
  }
  return ids
}

describe('streamed sorts and samples on the demo', () => {
  const open = async () => openDataset(await createFsSource('public/demo/version=0'), { facts: true })
  const filters: ExampleFilter[] = [{}, { text: 'the' }, { minSamples: 40_000, maxSamples: 120_000 }, { languages: ['eng_Latn', 'hin_Deva'] }]

  test('each sort lists the example index\'s order, with its neighbours', async () => {
    const dataset = await open()
    const index = await exampleIndex(dataset)
    const sorts: ExampleSort[] = [
      { key: 'length', descending: false }, { key: 'length', descending: true }, { key: 'text', descending: false },
      { key: 'text', descending: true }, { key: 'language', descending: true }, { key: 'corpus', descending: false }, { key: 'split', descending: true },
    ]
    for (const filter of filters) {
      for (const sort of sorts) {
        const want = searchExamples(index, filter, null, 0, 1000, sort)
        expect(want.total).toBeLessThan(1000)
        const scan = await finished(dataset, filter, { sort })
        const what = JSON.stringify([filter, sort])
        expect(await idsOf(scan), what).toEqual(want.rows.map((r) => r.id))
        expect(scan.status(), what).toMatchObject({ order: 'sort', matches: want.total })
        expect(scan.status().capped).toBeUndefined()
        const page = await scan.page(0, 1000)
        expect(page.rows.map(({ audioSize, text }) => ({ audioSize, text }))).toEqual(want.rows.map(({ audioSize, text }) => ({ audioSize, text })))
        for (const at of want.total > 2 ? [0, Math.floor(want.total / 2), want.total - 1] : []) {
          const id = want.rows[at].id
          for (const step of [1, -1]) expect(scan.neighbour(id, step), what).toEqual(neighbourExample(index, filter, null, id, step, sort))
        }
      }
    }
  })

  test('each sample draws the example index\'s picks: from the footers alone for partition filters, from the matches otherwise (their positions, or past the positions kept, their counts and a second pass)', async () => {
    const dataset = await open()
    const index = await exampleIndex(dataset)
    const samples: ExampleSample[] = [{ perLanguage: 3, seed: 0 }, { perLanguage: 7, seed: 42 }, { perLanguage: 100_000, seed: 1 }]
    for (const filter of filters) {
      for (const sample of samples) {
        for (const sort of [null, { key: 'length', descending: true }, { key: 'text', descending: false }] as (ExampleSort | null)[]) {
          const want = searchExamples(index, filter, sample, 0, 1000, sort)
          const reads = dataset.source.counters.requests
          const scan = await finished(dataset, filter, { sample, sort })
          const what = JSON.stringify([filter, sample, sort])
          // a partition-only sample in dataset order reads no row (the footers hold the counts)
          if (!filter.text && filter.minSamples === undefined && !sort) expect(dataset.source.counters.requests, what).toBe(reads)
          expect(await idsOf(scan), what).toEqual(want.rows.map((r) => r.id))
          expect(scan.status().order).toBe('sample')
          for (const at of want.total > 2 ? [0, want.total - 1] : []) {
            const id = want.rows[at].id
            for (const step of [1, -1]) expect(scan.neighbour(id, step), what).toEqual(neighbourExample(index, filter, sample, id, step, sort))
          }
          // with 3 positions kept, a conditioned sample is drawn from the counts per language and a second pass
          if (filter.text || filter.minSamples !== undefined) {
            const few = await finished(dataset, filter, { sample, sort }, 3)
            expect(few.status().matches, what).toBeGreaterThan(3)
            expect(await idsOf(few), what).toEqual(want.rows.map((r) => r.id))
            expect(few.status().capped).toBeUndefined()
          }
        }
      }
    }
  })

  test('sampleRanks draws the picks a whole-list partial Fisher–Yates draws', () => {
    const counts = new Map([['b', 50], ['a', 7], ['c', 0], ['d', 1]])
    const sample = { perLanguage: 5, seed: 9 }
    // the reference: whole lists, Python's shuffle steps, languages in code order
    const rng = new PythonRandom(9)
    const want = new Map<string, number[]>()
    for (const language of ['a', 'b', 'd']) {
      const list = Array.from({ length: counts.get(language)! }, (_, i) => i)
      const n = Math.min(5, list.length)
      for (let k = 0; k < n; k++) {
        const j = rng.randint(k, list.length - 1)
        ;[list[k], list[j]] = [list[j], list[k]]
      }
      want.set(language, list.slice(0, n))
    }
    expect(sampleRanks(counts, sample)).toEqual(want)
  })

  test('which requests stream', () => {
    expect(streamsRows({}, { perLanguage: 1, seed: 0 }, null, 11, 10)).toBe(true)
    expect(streamsRows({}, null, { key: 'length', descending: false }, 11, 10)).toBe(true)
    expect(streamsRows({ text: 'x' }, null, { key: 'text', descending: true }, 11, 10)).toBe(true)
    expect(streamsRows({}, null, { key: 'findings', descending: true }, 11, 10)).toBe(false)
    expect(streamsRows({}, { perLanguage: 1, seed: 0 }, null, 10, 10)).toBe(false)
  })
})

describe('streamed sort against DuckDB', () => {
  let root = ''
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mixscope-sorted-scan-'))
    for (const [language, seed] of [['aaa_Latn', 1], ['bbb_Latn', 2], ['ccc_Latn', 3]] as const) {
      await writeParquet(join(root, `version=0/corpus=c/split=train/language=${language}/part-0.parquet`), `
        SELECT
          CASE WHEN i % 17 = 0 THEN NULL ELSE 'row ' || ((i * ${seed} * 31) % 997) END AS text,
          CASE WHEN i % 23 = 0 THEN NULL ELSE 16000 + ((i * ${seed} * 7919) % 1600) END::BIGINT AS audio_size,
          '\\x00'::BLOB AS audio_bytes
        FROM range(${5000 + seed * 100}) t(i)`, 'ROW_GROUP_SIZE 2048')
    }
  })
  afterAll(async () => { await rm(root, { recursive: true, force: true }) })

  const idOf = (r: Record<string, unknown>) => `${String(r.filename).slice(root.length + '/version=0/'.length)}:${r.file_row_number}`

  for (const [name, filter, where, sort, orderBy] of [
    ['length, ascending', {}, 'true', { key: 'length', descending: false }, 'audio_size ASC NULLS LAST'],
    ['length, descending, with a language and a text', { text: 'ROW 1', languages: ['bbb_Latn', 'ccc_Latn'] },
      `lower(text) LIKE '%row 1%' AND (filename LIKE '%language=bbb_Latn%' OR filename LIKE '%language=ccc_Latn%')`, { key: 'length', descending: true }, 'audio_size DESC NULLS LAST'],
    ['text, descending, with a length range', { minSamples: 16_500 }, 'audio_size >= 16500', { key: 'text', descending: true }, 'text DESC NULLS LAST'],
  ] as [string, ExampleFilter, string, ExampleSort, string][]) {
    test(`${name}: DuckDB's ORDER BY, ties in file and row order`, async () => {
      const dataset = await openDataset(await createFsSource(join(root, 'version=0')))
      const scan = await finished(dataset, filter, { sort })
      const want = await query(`SELECT filename, file_row_number FROM read_parquet('${root}/**/*.parquet', filename = true, file_row_number = true)
        WHERE ${where} ORDER BY ${orderBy}, filename, file_row_number`)
      expect(want.length).toBeGreaterThan(1000)
      const ids = await idsOf(scan)
      expect(ids).toEqual(want.map(idOf))
      expect(scan.status()).toMatchObject({ matches: want.length, rowsRead: scan.status().rowsTotal, order: 'sort' })
      expect(scan.status().capped).toBeUndefined()
      // a sort capped at 500 rows lists DuckDB's first 500 and says it is capped
      const capped = await finished(dataset, filter, { sort }, undefined, 500)
      expect(await idsOf(capped)).toEqual(want.slice(0, 500).map(idOf))
      expect(capped.status()).toMatchObject({ matches: want.length, capped: true })
    })
  }

  test('a top-K smaller than the matches keeps DuckDB\'s first K rows, nulls last', async () => {
    const rows = await query(`SELECT filename, file_row_number, audio_size FROM read_parquet('${root}/**/*.parquet', filename = true, file_row_number = true)
      ORDER BY filename, file_row_number`)
    const files = [...new Set(rows.map((r) => String(r.filename)))]
    for (const [descending, capacity] of [[false, 50], [true, 333], [false, 15_000]] as const) {
      const top = new TopK({ key: 'length', descending }, capacity)
      for (const r of rows) top.add(files.indexOf(String(r.filename)), Number(r.file_row_number), r.audio_size === null ? null : Number(r.audio_size))
      const kept = top.ordered()
      const want = await query(`SELECT filename, file_row_number FROM read_parquet('${root}/**/*.parquet', filename = true, file_row_number = true)
        ORDER BY audio_size ${descending ? 'DESC' : 'ASC'} NULLS LAST, filename, file_row_number LIMIT ${capacity}`)
      expect(Array.from(kept.files, (f, k) => `${files[f]}:${kept.rows[k]}`)).toEqual(want.map((r) => `${r.filename}:${r.file_row_number}`))
    }
  })
})

describe('through the worker above the row limit', () => {
  test('a sort and a sample stream with progress, and list what the example index lists once it is built', async () => {
    const source = await createFsSource('public/demo/version=0')
    const handle = createRequestHandler({ makeSource: () => source })
    let id = 1
    const request = <K extends RequestKind>(kind: K, params: Requests[K]['params']) =>
      handle({ kind, id: id++, ...params } as never, {}) as Promise<Requests[K]['result']>
    const dataset = (await request('open', { source: { type: 'url', url: 'unused' } }) as OpenResult).dataset
    const asks: { filter: ExampleFilter; sort?: ExampleSort; sample?: ExampleSample }[] = [
      { filter: {}, sort: { key: 'length', descending: true } },
      { filter: { text: 'e' }, sort: { key: 'text', descending: false } },
      { filter: {}, sample: { perLanguage: 4, seed: 3 } },
      { filter: { minSamples: 30_000 }, sample: { perLanguage: 2, seed: 5 }, sort: { key: 'length', descending: false } },
    ]
    const streamed = []
    for (const ask of asks) {
      const params = { dataset, filter: ask.filter, sort: ask.sort ?? null, sample: ask.sample ?? null, offset: 0, limit: 1000, indexRowLimit: 0 }
      let page = await request('examples-search', params)
      expect(page.scan?.order).toBe(ask.sample ? 'sample' : 'sort')
      while (page.scan!.state === 'running') page = await request('examples-search', params)
      expect(page.scan!.state).toBe('done')
      expect(page.scan!.rowsRead).toBe(page.scan!.rowsTotal)
      expect(page.rows.length).toBeGreaterThan(3)
      const next = await request('examples-neighbour', { dataset, filter: ask.filter, sort: ask.sort ?? null, sample: ask.sample ?? null, exampleId: page.rows[0].id, step: 1, indexRowLimit: 0 })
      expect(next).toEqual({ id: page.rows[1].id, index: 1, total: page.total })
      streamed.push(page)
    }
    for (const [k, ask] of asks.entries()) {
      const indexed = await request('examples-search', { dataset, filter: ask.filter, sort: ask.sort ?? null, sample: ask.sample ?? null, offset: 0, limit: 1000 })
      expect(indexed.scan).toBeUndefined()
      expect(streamed[k].rows.map((r) => r.id), JSON.stringify(ask)).toEqual(indexed.rows.map((r) => r.id))
      expect(streamed[k].total).toBe(indexed.total)
    }
  })
})
