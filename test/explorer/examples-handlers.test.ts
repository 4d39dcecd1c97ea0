/**
 * `examples-search` / `examples-neighbour` on the committed demo dataset (public/demo/version=0) through the fs source:
 * filters against the stats the open computed, the text search against the rows read back one by one, the seeded
 * per-language sample, paging and neighbours.
 */
import { describe, expect, test } from 'vitest'
import { readFileSync } from 'node:fs'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { readExample } from '../../src/engine/dataset/read-example.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { OpenResult } from '../../src/engine/worker/protocol/dataset.ts'
import type { RequestKind, Requests } from '../../src/engine/worker/protocol.ts'
import type { OpenDataset } from '../../src/engine/dataset/open.ts'

const source = await createFsSource('public/demo/version=0')
const handle = createRequestHandler({ makeSource: () => source })
let nextId = 1
function request<K extends RequestKind>(kind: K, params: Requests[K]['params'], signal?: AbortSignal): Promise<Requests[K]['result']> {
  return handle({ kind, id: nextId++, ...params } as never, { signal }) as Promise<Requests[K]['result']>
}
// no onPartial: no `validating` partial, so the result carries its stats (OpenResultMessage)
const opened = await request('open', { source: { type: 'url', url: 'unused' } }) as OpenResult
const dataset = opened.dataset
const defects = JSON.parse(readFileSync('public/demo/defects.json', 'utf8')) as { id: string; kind: string }[]

/** Σ rows of the stats partitions matching `keep`. */
function statsRows(keep: (p: { language: string | null; corpus: string | null; split: string | null }) => boolean): number {
  return opened.stats.partitions.filter(keep).reduce((n, p) => n + p.rows, 0)
}

describe('examples-search', () => {
  test('no filter lists every row once, in dataset order, with facets', async () => {
    const all = await request('examples-search', { dataset, filter: {}, offset: 0, limit: 1000 })
    expect(all.total).toBe(statsRows(() => true))
    expect(all.rows.length).toBe(all.total)
    expect(new Set(all.rows.map((r) => r.id)).size).toBe(all.total)
    expect(all.facets.languages).toContain('swh_Latn')
    expect(all.facets.corpora).toEqual(['commonvoice', 'fleurs', 'mls'])
    expect(all.indexed.rows).toBe(all.total)
  })

  test('language, corpus and split filters match the stats', async () => {
    const eng = await request('examples-search', { dataset, filter: { languages: ['eng_Latn'] }, offset: 0, limit: 1000 })
    expect(eng.total).toBe(statsRows((p) => p.language === 'eng_Latn'))
    expect(eng.rows.every((r) => r.language === 'eng_Latn')).toBe(true)
    const some = await request('examples-search', { dataset, filter: { languages: ['eng_Latn', 'rus_Cyrl'], corpora: ['commonvoice'], splits: ['train'] }, offset: 0, limit: 1000 })
    expect(some.total).toBe(statsRows((p) => ['eng_Latn', 'rus_Cyrl'].includes(p.language ?? '') && p.corpus === 'commonvoice' && p.split === 'train'))
    expect(some.total).toBeGreaterThan(0)
  })

  test('length range is inclusive on audio_size', async () => {
    const all = await request('examples-search', { dataset, filter: {}, offset: 0, limit: 1000 })
    const sizes = all.rows.map((r) => r.audioSize).filter((s): s is number => s !== null).sort((a, b) => a - b)
    const mid = sizes[Math.floor(sizes.length / 2)]
    const upper = await request('examples-search', { dataset, filter: { minSamples: mid }, offset: 0, limit: 1000 })
    expect(upper.total).toBe(sizes.filter((s) => s >= mid).length)
    const lower = await request('examples-search', { dataset, filter: { maxSamples: mid }, offset: 0, limit: 1000 })
    expect(lower.total).toBe(sizes.filter((s) => s <= mid).length)
  })

  test('text search is a case-insensitive substring, checked against the rows read back', async () => {
    const all = await request('examples-search', { dataset, filter: {}, offset: 0, limit: 1000 })
    const sample = all.rows.find((r) => r.text && r.text.length > 12)!
    const needle = sample.text!.slice(3, 9).toUpperCase()
    const found = await request('examples-search', { dataset, filter: { text: needle }, offset: 0, limit: 1000 })
    expect(found.rows.map((r) => r.id)).toContain(sample.id)
    const ds = (await import('../../src/engine/dataset/open.ts')).openDataset
    const direct: OpenDataset = await ds(source)
    let expected = 0
    for (const r of all.rows) {
      const row = await readExample(direct, r.path, r.row, { columns: ['text'] })
      if (row.text !== null && row.text.normalize('NFKC').toLowerCase().includes(needle.normalize('NFKC').toLowerCase())) expected++
    }
    expect(found.total).toBe(expected)
  })

  test('paging returns consecutive slices', async () => {
    const all = await request('examples-search', { dataset, filter: {}, offset: 0, limit: 1000 })
    const page = await request('examples-search', { dataset, filter: {}, offset: 5, limit: 7 })
    expect(page.rows.map((r) => r.id)).toEqual(all.rows.slice(5, 12).map((r) => r.id))
    expect(page.total).toBe(all.total)
  })

  test('random N per language: at most N of each language, seeded, in dataset order', async () => {
    const a = await request('examples-search', { dataset, filter: {}, offset: 0, limit: 1000, sample: { perLanguage: 2, seed: 7 } })
    const b = await request('examples-search', { dataset, filter: {}, offset: 0, limit: 1000, sample: { perLanguage: 2, seed: 7 } })
    const c = await request('examples-search', { dataset, filter: {}, offset: 0, limit: 1000, sample: { perLanguage: 2, seed: 8 } })
    expect(a.rows.map((r) => r.id)).toEqual(b.rows.map((r) => r.id))
    expect(a.rows.map((r) => r.id)).not.toEqual(c.rows.map((r) => r.id))
    const perLanguage = new Map<string, number>()
    for (const r of a.rows) perLanguage.set(r.language, (perLanguage.get(r.language) ?? 0) + 1)
    expect([...perLanguage.keys()].sort()).toEqual(a.facets.languages)
    for (const n of perLanguage.values()) expect(n).toBe(2)
    const all = await request('examples-search', { dataset, filter: {}, offset: 0, limit: 1000 })
    const order = all.rows.map((r) => r.id)
    const positions = a.rows.map((r) => order.indexOf(r.id))
    expect(positions).toEqual([...positions].sort((x, y) => x - y))
  })

  test('neighbours step through the filtered list and stop at the ends', async () => {
    const filter = { languages: ['swh_Latn'] }
    const list = await request('examples-search', { dataset, filter, offset: 0, limit: 1000 })
    const next = await request('examples-neighbour', { dataset, filter, exampleId: list.rows[0].id, step: 1 })
    expect(next).toEqual({ id: list.rows[1].id, index: 1, total: list.total })
    const before = await request('examples-neighbour', { dataset, filter, exampleId: list.rows[0].id, step: -1 })
    expect(before.id).toBeNull()
  })

  test('an aborted search rejects and a later one still works', async () => {
    await expect(request('examples-search', { dataset: 99, filter: {}, offset: 0, limit: 1 })).rejects.toThrow(/no open dataset/)
    const fresh = await request('open', { source: { type: 'url', url: 'unused' } })
    await expect(request('examples-search', { dataset: fresh.dataset, filter: {}, offset: 0, limit: 1 }, AbortSignal.abort())).rejects.toThrow()
    const after = await request('examples-search', { dataset: fresh.dataset, filter: {}, offset: 0, limit: 1 })
    expect(after.total).toBeGreaterThan(0)
  })
})

describe('examples-search after the audit\'s cheap audio check', () => {
  test('"only flagged" and the row flags gain the audio check\'s rows once it has finished, not before', async () => {
    const own = createRequestHandler({ makeSource: () => source })
    let id = 1
    const call = <K extends RequestKind>(kind: K, params: Requests[K]['params']) => own({ kind, id: id++, ...params } as never, {}) as Promise<Requests[K]['result']>
    const { dataset: ds } = await call('open', { source: { type: 'url', url: 'unused' } })
    const undecodable = defects.find((d) => d.kind === 'undecodable-audio')!.id
    const before = await call('examples-search', { dataset: ds, filter: { flaggedOnly: true }, offset: 0, limit: 1000 })
    expect(before.audioChecked).toBe(false)
    expect(before.rows.map((r) => r.id)).not.toContain(undecodable)
    // the reference: the rows of the findings the audit reports with its audio check and not without it
    const spec = { preset: 'ctc-finetune', recipe: null, overrides: { split: 'train' } }
    const metadata = await call('audit', { dataset: ds, spec, deep: false, state: null })
    const audited = await call('audit', { dataset: ds, spec, deep: false, state: null, quick: true })
    const key = (f: { kind: string; path: string; row: number | null }) => `${f.kind} ${f.path}:${f.row}`
    const withoutAudio = new Set(metadata.report.findings.map(key))
    const audioRows = new Set(audited.report.findings.filter((f) => f.row !== null && !withoutAudio.has(key(f))).map((f) => `${f.path}:${f.row}`))
    expect(audioRows.has(undecodable)).toBe(true)
    const after = await call('examples-search', { dataset: ds, filter: { flaggedOnly: true }, offset: 0, limit: 1000 })
    expect(after.audioChecked).toBe(true)
    expect(new Set(after.rows.map((r) => r.id))).toEqual(new Set([...before.rows.map((r) => r.id), ...audioRows]))
    expect(after.total).toBe(after.rows.length)
    const row = after.rows.find((r) => r.id === undecodable)!
    expect(row.kinds).toContain('undecodable-audio')
    expect(row.severity).toBe('error')
    // the findings sort puts the rows with the most findings first, counting the audio check's
    const sorted = await call('examples-search', { dataset: ds, filter: { flaggedOnly: true }, offset: 0, limit: 1000, sort: { key: 'findings', descending: true } })
    expect(sorted.rows.map((r) => r.findings)).toEqual([...sorted.rows.map((r) => r.findings)].sort((a, b) => b - a))
  })
})
