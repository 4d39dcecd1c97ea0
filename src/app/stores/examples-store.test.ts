import { describe, expect, test } from 'vitest'
import type { ExamplesSearchParams } from '../../engine/worker/protocol/examples.ts'
import type { ExampleSummary } from '../../engine/examples/search.ts'
import { createExamplesStore, pageSize } from './examples-store.ts'

/** A fake worker client holding `count` examples of two languages; records every search. */
function fakeClient(count: number) {
  const calls: ExamplesSearchParams[] = []
  const rows: ExampleSummary[] = Array.from({ length: count }, (_, i) => ({
    id: `f.parquet:${i}`, path: 'f.parquet', row: i, rowGroup: 0, corpus: 'c', language: i % 2 ? 'eng_Latn' : 'swh_Latn', split: 'train',
    audioSize: 16000 + i, text: `text ${i}`, findings: 0, severity: null,
  }))
  const client = {
    request: (async (_kind: 'examples-search', params: ExamplesSearchParams, options?: { signal?: AbortSignal }) => {
      calls.push(params)
      await Promise.resolve()
      if (options?.signal?.aborted) throw new DOMException('aborted', 'AbortError')
      const matched = rows.filter((r) => !params.filter.languages?.length || params.filter.languages.includes(r.language))
      return { total: matched.length, offset: params.offset, rows: matched.slice(params.offset, params.offset + params.limit),
        facets: { languages: ['eng_Latn', 'swh_Latn'], corpora: ['c'], splits: ['train'] }, indexed: { rows: count, rowGroups: 1 } }
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
})
