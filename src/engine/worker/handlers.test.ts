import { describe, expect, test } from 'vitest'
import type { Progress } from '../dataset/dataset.ts'
import { createMemorySource } from '../source/memory-source.ts'
import type { DatasetSource } from '../source/source.ts'
import { createRequestHandler } from './handlers.ts'
import type { RequestMessage } from './protocol.ts'
import type { OpenResult } from './protocol/dataset.ts'

const utf8 = new TextEncoder()
const files = {
  // not parquet at all: discovery keeps going and reports it
  'corpus=a/split=train/language=x_Latn/part-0.parquet': utf8.encode('definitely not parquet'),
  'corpus=a/split=train/language=x_Latn/notes.txt': utf8.encode('stray'),
  '_SUCCESS': new Uint8Array(0),
}
const openMessage = (id: number): RequestMessage<'open'> => ({ kind: 'open', id, source: { type: 'url', url: 'memory:/' } })

describe('worker request handler', () => {
  test('open runs discovery, stats and validation on the source the description names, and keeps the dataset', async () => {
    const sources: DatasetSource[] = []
    let clock = 0
    const handle = createRequestHandler({
      makeSource: () => { const s = createMemorySource(files, { rootName: 'version=0' }); sources.push(s); return s },
      now: () => (clock += 5),
    })
    const progress: Progress[] = []
    const result = await handle(openMessage(1), { onProgress: (p) => progress.push(p) }) as OpenResult
    expect(result.dataset).toBe(1)
    expect(result.sourceKind).toBe('memory')
    expect(result.files).toEqual({ parquet: 1, readable: 0, ignored: 1, stray: 1, bytes: files['corpus=a/split=train/language=x_Latn/part-0.parquet'].length })
    expect(result.rangeIgnored).toBeNull()
    expect(result.counters).toEqual(sources[0].counters)
    expect(result.counters.requests).toBeGreaterThan(0)
    expect(result.elapsedMs).toBe(5)
    const kinds = new Set([...result.stats.findings, ...result.validation.findings].map((f) => `${f.severity} ${f.path}`))
    expect(kinds).toContain('error corpus=a/split=train/language=x_Latn/part-0.parquet')
    expect(kinds).toContain('error corpus=a/split=train/language=x_Latn/notes.txt')
    expect(progress.map((p) => p.phase)).toContain('listing')
    expect(progress.map((p) => p.phase)).toContain('footers')
    // handles count up; close forgets them
    expect((await handle(openMessage(2), {}) as OpenResult).dataset).toBe(2)
    await expect(handle({ kind: 'close', id: 3, dataset: 1 }, {})).resolves.toBeNull()
  })

  test('an aborted open rejects with the abort and keeps no dataset', async () => {
    const handle = createRequestHandler({ makeSource: () => createMemorySource(files) })
    await expect(handle(openMessage(1), { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
    expect((await handle(openMessage(2), {}) as OpenResult).dataset).toBe(1)
  })
})
