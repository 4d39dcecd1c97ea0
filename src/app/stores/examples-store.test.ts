import { describe, expect, test, vi } from 'vitest'
import type { ExamplesSearchParams } from '../../engine/worker/protocol/examples.ts'
import type { ExampleSummary } from '../../engine/examples/search.ts'
import { createExamplesStore, pageSize, scanPollMs } from './examples-store.ts'

/** A fake worker client holding `count` examples of two languages; records every search. */
function fakeClient(count: number) {
  const calls: ExamplesSearchParams[] = []
  const rows: ExampleSummary[] = Array.from({ length: count }, (_, i) => ({
    id: `f.parquet:${i}`, path: 'f.parquet', row: i, rowGroup: 0, corpus: 'c', language: i % 2 ? 'eng_Latn' : 'swh_Latn', split: 'train',
    audioSize: 16000 + i, text: `text ${i}`, findings: 0, severity: null, kinds: [],
  }))
  const client = {
    request: (async (_kind: 'examples-search', params: ExamplesSearchParams, options?: { signal?: AbortSignal }) => {
      calls.push(params)
      await Promise.resolve()
      if (options?.signal?.aborted) throw new DOMException('aborted', 'AbortError')
      const matched = rows.filter((r) => !params.filter.languages?.length || params.filter.languages.includes(r.language))
      return { total: matched.length, offset: params.offset, rows: matched.slice(params.offset, params.offset + params.limit),
        facets: { languages: ['eng_Latn', 'swh_Latn'], corpora: ['c'], splits: ['train'] }, indexed: { rows: count, rowGroups: 1 }, audioChecked: calls.length > 1 }
    }) as never,
  }
  return { client, calls }
}

describe('examples store', () => {
  test('load fetches the first page with the total and facets', async () => {
    const { client, calls } = fakeClient(250)
    const store = createExamplesStore(client)
    await store.getState().load(3)
    expect(store.getState()).toMatchObject({ status: 'ready', total: 250, dataset: 3 })
    expect(calls).toEqual([{ dataset: 3, filter: {}, sample: null, sort: null, offset: 0, limit: pageSize }])
    expect(store.getState().rowAt(99)?.id).toBe('f.parquet:99')
    expect(store.getState().rowAt(100)).toBeUndefined()
  })

  test('ensureRange fetches only missing pages, within the total', async () => {
    const { client, calls } = fakeClient(250)
    const store = createExamplesStore(client)
    await store.getState().load(1)
    await store.getState().ensureRange(90, 400)
    expect(calls.map((c) => c.offset)).toEqual([0, 100, 200])
    expect(store.getState().rowAt(249)?.id).toBe('f.parquet:249')
    await store.getState().ensureRange(0, 250)
    expect(calls).toHaveLength(3)
  })

  test('a filter change drops the pages and refetches; a new dataset resets', async () => {
    const { client, calls } = fakeClient(250)
    const store = createExamplesStore(client)
    await store.getState().load(1)
    await store.getState().setFilter({ languages: ['eng_Latn'] })
    expect(store.getState().total).toBe(125)
    expect(calls.at(-1)).toMatchObject({ filter: { languages: ['eng_Latn'] }, offset: 0 })
    expect(store.getState().rowAt(0)?.language).toBe('eng_Latn')
    await store.getState().setSample({ perLanguage: 2, seed: 4 })
    expect(calls.at(-1)).toMatchObject({ sample: { perLanguage: 2, seed: 4 }, filter: { languages: ['eng_Latn'] } })
    await store.getState().load(2)
    expect(calls.at(-1)).toMatchObject({ dataset: 2, offset: 0 })
  })

  test('an answer for an old filter is dropped', async () => {
    const { client } = fakeClient(250)
    const store = createExamplesStore(client)
    const first = store.getState().load(1)
    const second = store.getState().setFilter({ languages: ['swh_Latn'] })
    await Promise.all([first, second])
    expect(store.getState().total).toBe(125)
    expect(store.getState().rowAt(0)?.language).toBe('swh_Latn')
  })

  test('refresh asks again with the same filter and keeps the total until the answer lands', async () => {
    const { client, calls } = fakeClient(250)
    const store = createExamplesStore(client)
    await store.getState().load(1)
    await store.getState().setFilter({ languages: ['eng_Latn'] })
    expect(store.getState().audioChecked).toBe(true)
    const generation = store.getState().generation
    const pending = store.getState().refresh()
    // the list keeps its length (and scroll place) while the pages are asked for again
    expect(store.getState().total).toBe(125)
    expect(store.getState().rowAt(0)).toBeUndefined()
    await pending
    expect(store.getState().generation).toBe(generation + 1)
    expect(calls.at(-1)).toMatchObject({ dataset: 1, filter: { languages: ['eng_Latn'] }, offset: 0 })
    expect(store.getState().rowAt(0)?.language).toBe('eng_Latn')
  })

  test('a streamed search: the last page is asked for again while the scan runs, earlier pages stay, Stop ends the polling', async () => {
    vi.useFakeTimers()
    try {
      // a scan that finds 60 more matches each time it is asked, up to 250
      let found = 0
      const calls: { kind: string; params: Record<string, unknown> }[] = []
      const row = (i: number): ExampleSummary => ({ id: `f.parquet:${i}`, path: 'f.parquet', row: i, rowGroup: 0, corpus: 'c', language: 'eng_Latn', split: 'train',
        audioSize: 1, text: 't', findings: 0, severity: null, kinds: [] })
      const client = {
        request: (async (kind: string, params: Record<string, unknown>) => {
          calls.push({ kind, params })
          if (kind === 'examples-scan') return { state: 'stopped', rowsRead: 10, rowsTotal: 100, matches: found, unreadableRowGroups: 0 }
          found = Math.min(250, found + 60)
          const offset = params.offset as number
          const state = found === 250 ? 'done' : 'running'
          return { total: found, offset, rows: Array.from({ length: Math.max(0, Math.min(found, offset + 100) - offset) }, (_, k) => row(offset + k)),
            facets: { languages: [], corpora: [], splits: [] }, indexed: { rows: 100, rowGroups: 1 }, audioChecked: false, rowFindings: false,
            scan: { state, rowsRead: found, rowsTotal: 250, matches: found, unreadableRowGroups: 0 } }
        }) as never,
      }
      const store = createExamplesStore(client, { indexRowLimit: 0 })
      await store.getState().load(1)
      await store.getState().setFilter({ text: 'x' })
      expect(calls.at(-1)?.params).toMatchObject({ indexRowLimit: 0, offset: 0, filter: { text: 'x' } })
      expect(store.getState().scan?.state).toBe('running')
      expect(store.getState().total).toBe(120)
      // the poll asks for page 1 (the last, growing one), page 0 stays
      await vi.advanceTimersByTimeAsync(scanPollMs)
      expect(calls.at(-1)?.params).toMatchObject({ offset: 100 })
      expect(store.getState().total).toBe(180)
      expect(store.getState().rowAt(0)?.id).toBe('f.parquet:0')
      await vi.advanceTimersByTimeAsync(scanPollMs)
      await vi.advanceTimersByTimeAsync(scanPollMs)
      expect(store.getState().scan?.state).toBe('done')
      const asked = calls.length
      await vi.advanceTimersByTimeAsync(scanPollMs * 3)
      expect(calls.length).toBe(asked)
      // Stop asks the worker and takes its answer
      await store.getState().stopScan()
      expect(calls.at(-1)).toMatchObject({ kind: 'examples-scan', params: { dataset: 1, action: 'stop' } })
      expect(store.getState().scan?.state).toBe('stopped')
    } finally {
      vi.useRealTimers()
    }
  })

  test('a streamed sort: while it runs every page shown is asked again (its first rows change), then polling ends', async () => {
    vi.useFakeTimers()
    try {
      // a sort whose order changes each time it is asked: row ids carry the round
      let round = 0
      const calls: Record<string, unknown>[] = []
      const client = {
        request: (async (_kind: string, params: Record<string, unknown>) => {
          calls.push(params)
          const offset = params.offset as number
          if (offset === 0) round++
          const state = round >= 3 ? 'done' : 'running'
          return { total: 250, offset, rows: Array.from({ length: Math.min(100, 250 - offset) }, (_, k) => ({ id: `r${round}:${offset + k}`, path: 'f.parquet', row: offset + k, rowGroup: 0,
            corpus: 'c', language: 'eng_Latn', split: 'train', audioSize: 1, text: 't', findings: 0, severity: null, kinds: [] })),
            facets: { languages: [], corpora: [], splits: [] }, indexed: { rows: 250, rowGroups: 1 }, audioChecked: false, rowFindings: false,
            scan: { state, rowsRead: round * 80, rowsTotal: 250, matches: 250, unreadableRowGroups: 0, order: 'sort' } }
        }) as never,
      }
      const store = createExamplesStore(client, { indexRowLimit: 0 })
      await store.getState().load(1)
      await store.getState().setSort({ key: 'length', descending: true })
      await store.getState().ensureRange(0, 150)
      expect(store.getState().rowAt(0)?.id).toBe('r2:0')
      const before = calls.length
      await vi.advanceTimersByTimeAsync(scanPollMs)
      // pages 0 and 1 both asked again, in the new order
      expect(calls.slice(before).map((c) => c.offset)).toEqual([0, 100])
      expect(store.getState().rowAt(0)?.id).toBe('r3:0')
      expect(store.getState().rowAt(120)?.id).toBe('r3:120')
      expect(store.getState().scan?.state).toBe('done')
      const asked = calls.length
      await vi.advanceTimersByTimeAsync(scanPollMs * 3)
      expect(calls.length).toBe(asked)
    } finally {
      vi.useRealTimers()
    }
  })
})
