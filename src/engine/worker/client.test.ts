import { describe, expect, test } from 'vitest'
import type { Progress } from '../dataset/dataset.ts'
import { createEngineClient, WorkerRequestError, type WorkerLike } from './client.ts'
import { splitLongArrays } from './chunking.ts'
import type { ClientMessage, WorkerMessage } from './protocol.ts'
import type { OpenResult } from './protocol/dataset.ts'

/** A worker stand-in that records what the client posts and lets the test answer. */
function fakeWorker() {
  const posted: ClientMessage[] = []
  let terminated = false
  const worker: WorkerLike = {
    postMessage: (message) => { posted.push(message) },
    onmessage: null,
    onerror: null,
    terminate: () => { terminated = true },
  }
  const reply = (message: WorkerMessage) => worker.onmessage?.({ data: message } as MessageEvent<WorkerMessage>)
  return { worker, posted, reply, isTerminated: () => terminated }
}

const demo = { type: 'url', url: 'http://x/demo/version=0/' } as const
const progress: Progress = { phase: 'footers', done: 2, total: 5, requests: 3, bytes: 1000 }

describe('engine client', () => {
  test('starts the worker lazily, posts a typed open request and resolves with its result', async () => {
    const fake = fakeWorker()
    let started = 0
    const client = createEngineClient(() => { started++; return fake.worker })
    expect(started).toBe(0)
    const seen: Progress[] = []
    const opened = client.openDataset(demo, { onProgress: (p) => seen.push(p) })
    expect(started).toBe(1)
    expect(fake.posted).toEqual([{ kind: 'open', id: 1, source: demo }])
    fake.reply({ kind: 'progress', id: 1, progress })
    const result = { dataset: 7, root: demo.url } as unknown as OpenResult
    fake.reply({ kind: 'result', id: 1, result })
    await expect(opened).resolves.toBe(result)
    expect(seen).toEqual([progress])
  })

  test('started() resolves on the worker\'s `started` message, not before, and again for a worker started after terminate', async () => {
    const fake = fakeWorker()
    const client = createEngineClient(() => fake.worker)
    for (const round of ['first worker', 'after terminate']) {
      let seen = 0
      void client.started().then(() => { seen++ })
      void client.openDataset(demo).catch(() => undefined)
      await Promise.resolve()
      expect(seen, round).toBe(0)
      fake.reply({ kind: 'started', id: 0 })
      await Promise.resolve()
      expect(seen, round).toBe(1)
      client.terminate()
    }
  })

  test('keeps concurrent requests apart by id', async () => {
    const fake = fakeWorker()
    const client = createEngineClient(() => fake.worker)
    const a = client.openDataset(demo)
    const b = client.closeDataset(3)
    expect(fake.posted.map((m) => [m.kind, m.id])).toEqual([['open', 1], ['close', 2]])
    fake.reply({ kind: 'result', id: 2, result: null })
    fake.reply({ kind: 'error', id: 1, error: { message: 'http: 404 for x', kind: 'http-not-found' } })
    await expect(b).resolves.toBeNull()
    const error = await a.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WorkerRequestError)
    expect(error).toMatchObject({ message: 'http: 404 for x', kind: 'http-not-found' })
  })

  test('an abort posts an abort message, rejects with AbortError and drops later replies', async () => {
    const fake = fakeWorker()
    const client = createEngineClient(() => fake.worker)
    const controller = new AbortController()
    const seen: Progress[] = []
    const opened = client.openDataset(demo, { signal: controller.signal, onProgress: (p) => seen.push(p) })
    controller.abort()
    await expect(opened).rejects.toMatchObject({ name: 'AbortError' })
    expect(fake.posted.at(-1)).toEqual({ kind: 'abort', id: 1 })
    fake.reply({ kind: 'progress', id: 1, progress })
    expect(seen).toEqual([])
  })

  test('an already aborted signal rejects without posting', async () => {
    const fake = fakeWorker()
    const client = createEngineClient(() => fake.worker)
    await expect(client.openDataset(demo, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
    expect(fake.posted).toEqual([])
  })

  test('a worker-side abort error becomes an AbortError; terminate rejects what is pending', async () => {
    const fake = fakeWorker()
    const client = createEngineClient(() => fake.worker)
    const a = client.openDataset(demo)
    fake.reply({ kind: 'error', id: 1, error: { message: 'request aborted', kind: 'aborted' } })
    await expect(a).rejects.toMatchObject({ name: 'AbortError' })
    const b = client.openDataset(demo)
    client.terminate()
    await expect(b).rejects.toMatchObject({ kind: 'worker-terminated' })
    expect(fake.isTerminated()).toBe(true)
  })
})

describe('long arrays in slices', () => {
  test('a result posted as chunks then a shell comes back whole, in order, and only to its own request', async () => {
    const fake = fakeWorker()
    const client = createEngineClient(() => fake.worker)
    const partitions = Array.from({ length: 12_345 }, (_, i) => ({ corpus: `c${i % 7}`, rows: i }))
    const findings = Array.from({ length: 5_001 }, (_, i) => ({ message: `f${i}` }))
    const result = { dataset: 1, stats: { partitions, totals: { rows: 1 } }, validation: { findings }, bytes: new Uint8Array(7000) }
    const a = client.openDataset(demo)
    const b = client.openDataset(demo)
    const [ida, idb] = fake.posted.map((m) => m.id)
    const message = { kind: 'result', id: ida, result } as unknown as WorkerMessage
    const { shell, chunks } = splitLongArrays(message, 5_000)
    expect(chunks.map((c) => c.path.join('.'))).toEqual(['result.stats.partitions', 'result.stats.partitions', 'result.stats.partitions', 'result.validation.findings', 'result.validation.findings'])
    expect((shell as unknown as { result: typeof result }).result.stats.partitions).toEqual([])
    expect(result.stats.partitions).toHaveLength(12_345) // the original is not changed
    for (const chunk of chunks) fake.reply({ kind: 'chunk', id: ida, chunk: { path: chunk.path.slice(1), items: chunk.items } })
    fake.reply({ kind: 'result', id: idb, result: { dataset: 2, stats: { partitions: [] } } } as unknown as WorkerMessage)
    fake.reply(shell)
    expect(await a).toEqual(result)
    expect(((await b) as unknown as { stats: { partitions: unknown[] } }).stats.partitions).toEqual([])
  })

  test('a short result is posted as it is', async () => {
    const message = { kind: 'result', id: 1, result: { rows: [1, 2, 3] } }
    const { shell, chunks } = splitLongArrays(message, 5_000)
    expect(chunks).toEqual([])
    expect(shell).toBe(message)
  })
})
