import { describe, expect, test } from 'vitest'
import type { Progress } from '../../engine/dataset/dataset.ts'
import type { RequestOptions } from '../../engine/worker/client.ts'
import type { OpenResult, SourceDescription, SummaryFile } from '../../engine/worker/protocol/dataset.ts'
import { createDatasetStore, rowCheckProgress, shownReport, usableDataset, usableReport } from './dataset-store.ts'
import { provisionalLabel } from '../lib/provisional-label.ts'

interface Call {
  description: SourceDescription
  options: RequestOptions & { summary?: SummaryFile }
  resolve: (result: OpenResult) => void
  reject: (error: unknown) => void
}

/** A client whose opens stay pending until the test settles them; aborts reject like the real client. */
function fakeClient() {
  const calls: Call[] = []
  const closed: number[] = []
  return {
    calls,
    closed,
    openDataset(description: SourceDescription, options: RequestOptions & { summary?: SummaryFile } = {}) {
      return new Promise<OpenResult>((resolve, reject) => {
        calls.push({ description, options, resolve, reject })
        options.signal?.addEventListener('abort', () => reject(new DOMException('open aborted', 'AbortError')))
      })
    },
    async closeDataset(dataset: number) { closed.push(dataset); return null },
  }
}

const report = (dataset: number) => ({ dataset, root: `root-${dataset}` }) as unknown as OpenResult
const demo = { description: { type: 'demo', url: 'http://x/demo/version=0/' }, label: 'Demo dataset' } as const
const other = { description: { type: 'url', url: 'http://x/other/' }, label: 'http://x/other/' } as const
const progress: Progress = { phase: 'footers', done: 1, total: 3, requests: 2, bytes: 300 }

describe('dataset store', () => {
  test('open: idle → loading (with progress) → ready with the report', async () => {
    const client = fakeClient()
    const store = createDatasetStore(client)
    expect(store.getState().status).toBe('idle')
    const opened = store.getState().open(demo)
    expect(store.getState()).toMatchObject({ status: 'loading', request: demo, progress: null })
    const listed: Progress = { phase: 'listing', done: 12, total: 12, requests: 1, bytes: 900 }
    client.calls[0].options.onProgress?.(listed)
    client.calls[0].options.onProgress?.(progress)
    expect(store.getState().progress).toEqual(progress)
    expect(store.getState().phases).toEqual({ listing: listed, footers: progress })
    client.calls[0].resolve(report(1))
    await opened
    expect(store.getState()).toMatchObject({ status: 'ready', progress: null, phases: {}, report: report(1), reportLabel: 'Demo dataset', reportRequest: demo })
  })

  test('cancel: the open is aborted, status cancelled, the previous dataset stays', async () => {
    const client = fakeClient()
    const store = createDatasetStore(client)
    const first = store.getState().open(demo)
    client.calls[0].resolve(report(1))
    await first
    const second = store.getState().open(other)
    store.getState().cancel()
    await second
    expect(client.calls[1].options.signal?.aborted).toBe(true)
    expect(store.getState()).toMatchObject({ status: 'cancelled', report: report(1), reportLabel: 'Demo dataset', progress: null })
  })

  test('a newer open supersedes an older one; late results of the older are ignored', async () => {
    const client = fakeClient()
    const store = createDatasetStore(client)
    const first = store.getState().open(demo)
    const second = store.getState().open(other)
    expect(client.calls[0].options.signal?.aborted).toBe(true)
    client.calls[0].options.onProgress?.(progress)
    expect(store.getState().progress).toBeNull()
    client.calls[1].resolve(report(2))
    await Promise.all([first, second])
    expect(store.getState()).toMatchObject({ status: 'ready', report: report(2), reportLabel: 'http://x/other/' })
  })

  test('errors keep their kind; opening another dataset releases the previous one in the worker', async () => {
    const client = fakeClient()
    const store = createDatasetStore(client)
    const first = store.getState().open(demo)
    client.calls[0].resolve(report(1))
    await first
    const failing = store.getState().open(other)
    client.calls[1].reject(Object.assign(new Error('http: 404 for http://x/other/_manifest.json'), { kind: 'http-not-found' }))
    await failing
    expect(store.getState()).toMatchObject({ status: 'error', error: { kind: 'http-not-found' }, report: report(1) })
    const third = store.getState().open(other)
    client.calls[2].resolve(report(3))
    await third
    expect(client.closed).toEqual([1])
    expect(store.getState().error).toBeNull()
  })

  test('a picked stats TSV is passed to the engine with the request', async () => {
    const client = fakeClient()
    const store = createDatasetStore(client)
    const summary = { path: 'language_distribution_0.tsv', bytes: new TextEncoder().encode('corpus\tlanguage\thours\n') }
    const opened = store.getState().open({ ...other, summary })
    expect(client.calls[0].options.summary).toBe(summary)
    client.calls[0].resolve(report(1))
    await opened
    expect(store.getState().reportRequest?.summary).toBe(summary)
  })

  test('progressive open: provisional results are shown while loading, the final one replaces them', async () => {
    const client = fakeClient()
    const store = createDatasetStore(client)
    const first = store.getState().open(demo)
    client.calls[0].resolve(report(1))
    await first
    const second = store.getState().open(other)
    expect(shownReport(store.getState())).toEqual(report(1)) // nothing provisional yet: the open dataset
    const estimate = { ...report(-1), provisional: { stage: 'estimate', filesDone: 0, filesTotal: 9, fromIndex: 0, basis: 'listing' } } as OpenResult
    client.calls[1].options.onPartial?.(estimate)
    expect(shownReport(store.getState())).toBe(estimate)
    expect(store.getState().report).toEqual(report(1))
    client.calls[1].resolve(report(2))
    await second
    expect(store.getState()).toMatchObject({ status: 'ready', partial: null, report: report(2) })
    expect(shownReport(store.getState())).toEqual(report(2))
    expect(client.closed).toEqual([1])
  })

  test('cancelled while rows are checked: the dataset (its final stats) stays, labelled; before that: cancelled', async () => {
    const client = fakeClient()
    const store = createDatasetStore(client)
    const first = store.getState().open(demo)
    client.calls[0].options.onPartial?.({ ...report(-1), provisional: { stage: 'stats', filesDone: 3, filesTotal: 9, fromIndex: 0, basis: 'files' } } as OpenResult)
    store.getState().cancel()
    await first
    expect(store.getState()).toMatchObject({ status: 'cancelled', partial: null, report: null })
    const second = store.getState().open(other)
    const validating = { ...report(7), provisional: { stage: 'validating', filesDone: 9, filesTotal: 9, fromIndex: 9, basis: 'all-files', remaining: 9 } } as OpenResult
    client.calls[1].options.onPartial?.(validating)
    store.getState().cancel()
    await second
    expect(store.getState()).toMatchObject({ status: 'ready', report: { dataset: 7 }, reportLabel: 'http://x/other/' })
    expect(provisionalLabel(store.getState().report!.provisional!)).toMatch(/^Exact numbers of all 9 files \(9 from the dataset index\); row checks were cancelled/)
  })

  test('usable: the validating result (every file described) while its rows are checked, not an earlier one', async () => {
    const client = fakeClient()
    const store = createDatasetStore(client)
    const opening = store.getState().open(demo)
    client.calls[0].options.onPartial?.({ ...report(-1), provisional: { stage: 'stats', filesDone: 3, filesTotal: 9, fromIndex: 0, basis: 'files' } } as OpenResult)
    expect(usableReport(store.getState())).toBeNull()
    expect(usableDataset(store.getState())).toBeNull()
    const validating = { ...report(7), provisional: { stage: 'validating', filesDone: 9, filesTotal: 9, fromIndex: 9, basis: 'all-files', remaining: 9 } } as OpenResult
    client.calls[0].options.onPartial?.(validating)
    client.calls[0].options.onProgress?.({ phase: 'validate', done: 40, total: 100, requests: 5, bytes: 10 })
    expect(usableReport(store.getState())).toBe(validating)
    expect(usableDataset(store.getState())).toBe(7)
    expect(rowCheckProgress(store.getState())).toMatchObject({ done: 40, total: 100 })
    client.calls[0].resolve(report(7))
    await opening
    expect(usableReport(store.getState())).toEqual(report(7))
    expect(rowCheckProgress(store.getState())).toBeNull()
  })
})
