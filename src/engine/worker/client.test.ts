import { describe, expect, test } from 'vitest'
import type { Progress } from '../dataset.ts'
import { createEngineClient, WorkerRequestError, type WorkerLike } from './client.ts'
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
