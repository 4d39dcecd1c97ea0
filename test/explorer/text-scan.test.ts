/**
 * The streamed transcript search (src/engine/examples/text-scan.ts): on a DuckDB-written dataset its matches are
 * DuckDB's `WHERE` over the same files, in dataset order (file, row); on the demo they are the example index's, with
 * the same pages and neighbours; a stopped scan continues to the same result; through the worker a search above the
 * row limit streams until the example index exists.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDataset, type OpenDataset } from '../../src/engine/dataset/open.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { exampleIndex } from '../../src/engine/examples/example-index.ts'
import { neighbourExample, searchExamples, type ExampleFilter } from '../../src/engine/examples/search.ts'
import { streamsRows, TextScan } from '../../src/engine/examples/text-scan.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { OpenResult } from '../../src/engine/worker/protocol/dataset.ts'
import type { RequestKind, Requests } from '../../src/engine/worker/protocol.ts'
import { query, writeParquet } from '../helpers/duckdb.ts'
import type { ConfigSpec } from '../../src/engine/pipeline/config/resolve.ts'

/** Runs a scan to its end and returns every kept match's id, through pages of 37. */
async function scanAll(dataset: OpenDataset, filter: ExampleFilter): Promise<{ ids: string[]; scan: TextScan }> {
  const scan = new TextScan(dataset, filter)
  scan.start()
  await scan.waitFor(Infinity, 60_000)
  expect(scan.status().state).toBe('done')
  const ids: string[] = []
  for (let offset = 0; ; offset += 37) {
    const page = await scan.page(offset, 37)
    ids.push(...page.rows.map((r) => r.id))
    if (page.rows.length < 37) break
  }
  return { ids, scan }
}

describe('streamed transcript search against DuckDB', () => {
  let root = ''
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mixscope-text-scan-'))
    // 3 partitions of 3 row groups (DuckDB's row groups hold at least 2,048 rows); some null transcripts and null lengths
    for (const [language, seed] of [['aaa_Latn', 1], ['bbb_Latn', 2], ['ccc_Latn', 3]] as const) {
      await writeParquet(join(root, `version=0/corpus=c/split=train/language=${language}/part-0.parquet`), `
        SELECT
          CASE WHEN i % 17 = 0 THEN NULL ELSE 'row ' || i || ' ' || (CASE WHEN (i * ${seed}) % 7 = 0 THEN 'Banana split' ELSE 'apple pie' END) END AS text,
          CASE WHEN i % 23 = 0 THEN NULL ELSE 16000 + ((i * ${seed} * 7919) % 160000) END::BIGINT AS audio_size,
          '\\x00'::BLOB AS audio_bytes
        FROM range(${5000 + seed * 100}) t(i)`, 'ROW_GROUP_SIZE 2048')
    }
  })
  afterAll(async () => { await rm(root, { recursive: true, force: true }) })

  const cases: [string, ExampleFilter, string][] = [
    ['a text search', { text: 'BANANA' }, `lower(text) LIKE '%banana%'`],
    ['a length range', { minSamples: 50_000, maxSamples: 90_000 }, 'audio_size BETWEEN 50000 AND 90000'],
    ['text, length and a language', { text: 'pie', minSamples: 100_000, languages: ['bbb_Latn', 'ccc_Latn'] },
      `lower(text) LIKE '%pie%' AND audio_size >= 100000 AND filename LIKE '%language=bbb_Latn%' OR lower(text) LIKE '%pie%' AND audio_size >= 100000 AND filename LIKE '%language=ccc_Latn%'`],
  ]
  for (const [name, filter, where] of cases) {
    test(`${name}: DuckDB's rows, in dataset order`, async () => {
      const dataset = await openDataset(await createFsSource(join(root, 'version=0')))
      expect(dataset.files.map((f) => f.rowGroups.length)).toEqual([3, 3, 3])
      const { ids, scan } = await scanAll(dataset, filter)
      const want = await query(`SELECT filename, file_row_number FROM read_parquet('${root}/**/*.parquet', filename = true, file_row_number = true)
        WHERE ${where} ORDER BY filename, file_row_number`)
      expect(want.length).toBeGreaterThan(5)
      expect(ids).toEqual(want.map((r) => `${String(r.filename).slice(root.length + '/version=0/'.length)}:${r.file_row_number}`))
      expect(scan.status().matches).toBe(want.length)
      // every row of the kept partitions was read once
      const partitionRows = dataset.files.filter((f) => !filter.languages || filter.languages.includes(f.keys.language ?? '')).reduce((n, f) => n + f.rows, 0)
      expect(scan.status().rowsRead).toBe(partitionRows)
      expect(scan.status().rowsTotal).toBe(partitionRows)
      // the page's values are the file's
      const page = await scan.page(0, 5)
      const rows = await query(`SELECT text, audio_size FROM read_parquet('${root}/version=0/${page.rows[0].path}', file_row_number = true) WHERE file_row_number = ${page.rows[0].row}`)
      expect([page.rows[0].text, page.rows[0].audioSize]).toEqual([rows[0].text, rows[0].audio_size])
    })
  }
})

describe('streamed transcript search on the demo', () => {
  const open = async () => openDataset(await createFsSource('public/demo/version=0'), { facts: true })

  test('lists what the example index lists, with the same neighbours', async () => {
    const dataset = await open()
    const index = await exampleIndex(dataset)
    for (const filter of [{ text: 'the' }, { text: ' E', languages: ['eng_Latn', 'deu_Latn'] }, { minSamples: 40_000, maxSamples: 120_000 }, { text: 'zzzz-none' }] as ExampleFilter[]) {
      const want = searchExamples(index, filter, null, 0, 1000)
      const { ids, scan } = await scanAll(dataset, filter)
      expect(ids, JSON.stringify(filter)).toEqual(want.rows.map((r) => r.id))
      const got = await scan.page(0, 1000)
      expect(got.rows.map(({ id, audioSize, text, corpus, language, split, rowGroup }) => ({ id, audioSize, text, corpus, language, split, rowGroup })))
        .toEqual(want.rows.map(({ id, audioSize, text, corpus, language, split, rowGroup }) => ({ id, audioSize, text, corpus, language, split, rowGroup })))
      expect(got.facets).toEqual(want.facets)
      for (const at of want.total > 0 ? [0, Math.floor(want.total / 2), want.total - 1] : []) {
        const id = want.rows[at].id
        for (const step of [1, -1]) expect(scan.neighbour(id, step)).toEqual(neighbourExample(index, filter, null, id, step, null))
      }
    }
  })

  test('a stopped scan keeps its matches and continues to the same result', async () => {
    const dataset = await open()
    const whole = await scanAll(dataset, { text: 'a' })
    const scan = new TextScan(dataset, { text: 'a' })
    scan.start()
    await scan.waitFor(3, 10_000)
    scan.stop()
    expect(scan.status().state).toBe('stopped')
    const partial = scan.status()
    expect(partial.rowsRead).toBeLessThan(partial.rowsTotal)
    scan.start()
    await scan.waitFor(Infinity, 60_000)
    expect(scan.status()).toMatchObject({ state: 'done', rowsRead: partial.rowsTotal, matches: whole.ids.length })
    expect((await scan.page(0, 1000)).rows.map((r) => r.id)).toEqual(whole.ids)
  })

  test('a stop leaves no read-ahead rejection unhandled (the worker would report each as an uncaught error)', async () => {
    // reads that take a while and reject with the abort, as the browser's fetches do
    const fs = await createFsSource('public/demo/version=0')
    const slow = Object.assign(Object.create(fs) as typeof fs, {
      read: async (path: string, start: number, end: number, options?: { signal?: AbortSignal }) => {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 30)
          options?.signal?.addEventListener('abort', () => { clearTimeout(timer); reject(options.signal!.reason) }, { once: true })
        })
        return fs.read(path, start, end, options)
      },
    })
    const dataset = await openDataset(slow, { facts: true })
    const unhandled: unknown[] = []
    const note = (reason: unknown) => { unhandled.push(reason) }
    process.on('unhandledRejection', note)
    try {
      for (let i = 0; i < 5; i++) {
        const scan = new TextScan(dataset, { text: 'a' })
        scan.start()
        await new Promise((resolve) => setTimeout(resolve, 10 * i))
        scan.stop()
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    } finally {
      process.off('unhandledRejection', note)
    }
    expect(unhandled).toEqual([])
  })

  test('which searches stream', () => {
    expect(streamsRows({ text: 'x' }, null, null, 11, 10)).toBe(true)
    expect(streamsRows({ minSamples: 1 }, null, null, 11, 10)).toBe(true)
    expect(streamsRows({ text: 'x' }, null, null, 10, 10)).toBe(false)
    expect(streamsRows({ text: '  ', languages: ['a'] }, null, null, 11, 10)).toBe(false)
    expect(streamsRows({ text: 'x', flaggedOnly: true }, null, null, 11, 10)).toBe(true)
    expect(streamsRows({ flaggedOnly: true }, null, null, 11, 10)).toBe(true)
    expect(streamsRows({ flaggedOnly: true }, null, null, 10, 10)).toBe(false)
    expect(streamsRows({ text: 'x' }, { perLanguage: 1, seed: 0 }, null, 11, 10)).toBe(true)
    expect(streamsRows({ text: 'x' }, null, { key: 'length', descending: false }, 11, 10)).toBe(true)
    expect(streamsRows({ text: 'x' }, null, { key: 'findings', descending: false }, 11, 10)).toBe(false)
  })

  test('through the worker: above the row limit a search streams, pages grow, and the example index, once built, answers instead', async () => {
    const source = await createFsSource('public/demo/version=0')
    const handle = createRequestHandler({ makeSource: () => source })
    let id = 1
    const request = <K extends RequestKind>(kind: K, params: Requests[K]['params']) =>
      handle({ kind, id: id++, ...params } as never, {}) as Promise<Requests[K]['result']>
    const result = await request('open', { source: { type: 'url', url: 'unused' } }) as OpenResult
    const dataset = result.dataset
    let page = await request('examples-search', { dataset, filter: { text: 'e' }, offset: 0, limit: 100, indexRowLimit: 0 })
    expect(page.scan).toBeDefined()
    expect(page.rowFindings).toBe(false)
    while (page.scan!.state === 'running') page = await request('examples-search', { dataset, filter: { text: 'e' }, offset: 0, limit: 100, indexRowLimit: 0 })
    expect(page.scan!.state).toBe('done')
    expect(page.total).toBe(page.scan!.matches)
    expect(page.total).toBeGreaterThan(10)
    const stopped = await request('examples-scan', { dataset, action: 'stop' })
    expect(stopped?.state).toBe('done')
    // the same search under the default limit goes through the example index: the same matches
    const indexed = await request('examples-search', { dataset, filter: { text: 'e' }, offset: 0, limit: 1000 })
    expect(indexed.scan).toBeUndefined()
    const streamed = await request('examples-search', { dataset, filter: { text: 'e' }, offset: 0, limit: 1000, indexRowLimit: 0 })
    // once the index is built it answers (rows with their findings)
    expect(streamed.scan).toBeUndefined()
    expect(streamed.rows.map((r) => r.id)).toEqual(indexed.rows.map((r) => r.id))
    expect(page.total).toBe(indexed.total)
  })

  test('"only flagged" above the row limit lists the rows\' report\'s flagged rows as soon as it lands, before the audio check reads', async () => {
    const source = await createFsSource('public/demo/version=0')
    const handle = createRequestHandler({ makeSource: () => source })
    let id = 1
    const request = <K extends RequestKind>(kind: K, params: Requests[K]['params'], options = {}) =>
      handle({ kind, id: id++, ...params } as never, options) as Promise<Requests[K]['result']>
    const dataset = (await request('open', { source: { type: 'url', url: 'unused' } }) as OpenResult).dataset
    const spec: ConfigSpec = { preset: 'ctc-finetune', recipe: null, overrides: { split: 'train' } }
    const page = () => request('examples-search', { dataset, filter: { flaggedOnly: true }, offset: 0, limit: 1000, indexRowLimit: 0, spec })
    expect((await page()).scan?.state).toBe('needs-audit')
    // asked from the partial's callback: the rows' report is there, the audio check has not started reading
    let atRowsReport: { state: string | undefined; ids: string[]; flagged: Set<string> } | null = null
    let asked: Promise<unknown> | null = null
    const audit = await request('audit', { dataset, spec, deep: false, state: null, quick: true }, {
      onPartial: (partial: { report: { findings: { path: string; row?: number | null }[] } }) => {
        const flagged = new Set(partial.report.findings.filter((f) => f.row !== undefined && f.row !== null).map((f) => `${f.path}:${f.row}`))
        asked = page().then((p) => { atRowsReport = { state: p.scan?.state, ids: p.rows.map((r) => r.id), flagged } })
      },
    })
    await asked
    expect(atRowsReport).not.toBeNull()
    expect(atRowsReport!.state).not.toBe('needs-audit')
    expect(atRowsReport!.flagged.size).toBeGreaterThan(0)
    // what the first answer lists is the rows' report's rows (the scan may not have reached them all yet)
    for (const rowId of atRowsReport!.ids) expect(atRowsReport!.flagged.has(rowId), rowId).toBe(true)
    // once the whole audit is in, its rows are listed (the audio check's among them)
    let done = await page()
    while (done.scan?.state === 'running') done = await page()
    expect(done.total).toBe(audit.report.totals.flagged_rows)
  })

  test('"only flagged" above the row limit: the audit is asked for, then its flagged rows are listed, as the example index lists them', async () => {
    const source = await createFsSource('public/demo/version=0')
    const handle = createRequestHandler({ makeSource: () => source })
    let id = 1
    const request = <K extends RequestKind>(kind: K, params: Requests[K]['params']) =>
      handle({ kind, id: id++, ...params } as never, {}) as Promise<Requests[K]['result']>
    const dataset = (await request('open', { source: { type: 'url', url: 'unused' } }) as OpenResult).dataset
    const spec: ConfigSpec = { preset: 'ctc-finetune', recipe: null, overrides: { split: 'train' } }
    const other: ConfigSpec = { preset: null, recipe: null, overrides: {} }
    const search = async (filter: ExampleFilter, s: ConfigSpec = spec) => {
      let page = await request('examples-search', { dataset, filter, offset: 0, limit: 1000, indexRowLimit: 0, spec: s })
      while (page.scan?.state === 'running') page = await request('examples-search', { dataset, filter, offset: 0, limit: 1000, indexRowLimit: 0, spec: s })
      return page
    }
    const before = await search({ flaggedOnly: true })
    expect(before.scan).toMatchObject({ state: 'needs-audit', matches: 0 })
    expect(before.rows).toEqual([])
    const audit = await request('audit', { dataset, spec, deep: false, state: null, quick: true })
    // under another config the list still asks, and says why
    expect((await search({ flaggedOnly: true }, other)).scan).toMatchObject({ state: 'needs-audit', otherConfig: true })
    const flagged = await search({ flaggedOnly: true })
    expect(flagged.scan?.state).toBe('done')
    const auditRows = new Set(audit.report.findings.filter((f) => f.row !== undefined && f.row !== null).map((f) => `${f.path}:${f.row}`))
    expect(audit.report.findings_omitted).toBe(0)
    expect(flagged.total).toBe(audit.report.totals.flagged_rows)
    expect(new Set(flagged.rows.map((r) => r.id))).toEqual(auditRows)
    // a beta step changes no row check: the same flagged rows
    const betaStep = await search({ flaggedOnly: true }, { ...spec, overrides: { ...spec.overrides, beta_language: 0.3 } })
    expect(betaStep.rows.map((r) => r.id)).toEqual(flagged.rows.map((r) => r.id))
    const withText = await search({ flaggedOnly: true, text: 'the', minSamples: 20_000 })
    expect(withText.scan?.state).toBe('done')
    expect(withText.total).toBeGreaterThan(0)
    expect(withText.total).toBeLessThan(flagged.total)
    // the example index (built by a search under the default limit) lists the same rows, in the same order
    for (const filter of [{ flaggedOnly: true }, { flaggedOnly: true, text: 'the', minSamples: 20_000 }] as ExampleFilter[]) {
      const streamed = filter.text ? withText : flagged
      const indexed = await request('examples-search', { dataset, filter, offset: 0, limit: 1000, spec })
      expect(indexed.scan).toBeUndefined()
      expect(streamed.rows.map((r) => r.id), JSON.stringify(filter)).toEqual(indexed.rows.map((r) => r.id))
    }
  })
})
