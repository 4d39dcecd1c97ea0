import { describe, expect, test } from 'vitest'
import type { RequestOptions } from '../../engine/worker/client.ts'
import type { Requests } from '../../engine/worker/protocol.ts'
import type { BatchSummary } from '../../engine/batches/batch-summary.ts'
import type { ConfigSpec } from '../../engine/pipeline/config/resolve.ts'
import type { PlanStartResult } from '../../engine/worker/protocol/plan.ts'
import { chunkSize, createBatchesStore } from './batches-store.ts'
import { examplesTable, tableToTransfer } from '../../engine/index.ts'

const spec: ConfigSpec = { preset: 'ctc-finetune', recipe: null, overrides: { split: 'train' } }
const summary = (index: number): BatchSummary => ({ index, step: index, indexInStep: 0, size: 1, longest: 1, padded: 1, samples: 1, waste: 0, partitions: [] })

/** A worker client with `total` batches per session; `hold` keeps plan-next pending until released. */
function fakeClient(total: number) {
  const calls: string[] = []
  const closed: number[] = []
  let sessions = 0
  const streamed = new Map<number, number>()
  let release: (() => void) | null = null
  let hold = false
  const request = async <K extends keyof Requests>(kind: K, params: Requests[K]['params'], options: RequestOptions = {}): Promise<Requests[K]['result']> => {
    calls.push(kind)
    const p = params as Record<string, unknown>
    if (kind === 'plan-start') {
      const session = ++sessions
      streamed.set(session, 0)
      return { session, config: {}, findings: [], trainStreaming: true, limit: total, buckets: null, mixture: null, unweighted: [], diagnostics: [], summaryPath: null } as unknown as PlanStartResult as Requests[K]['result']
    }
    if (kind === 'plan-next') {
      if (hold) await new Promise<void>((resolve, reject) => { release = resolve; options.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))) })
      const session = p.session as number
      const from = streamed.get(session)!
      const to = Math.min(total, from + (p.count as number))
      streamed.set(session, to)
      return { batches: Array.from({ length: to - from }, (_, i) => summary(from + i)), done: to === total, total: to, mixture: null, drops: [], io: { fragments: 0, rows: 0 } } as Requests[K]['result']
    }
    if (kind === 'plan-close') { closed.push(p.session as number); return null as Requests[K]['result'] }
    if (kind === 'plan-batch') return { index: p.index, step: 0, indexInStep: 0, examples: tableToTransfer(examplesTable([{ index: p.index as number, step: 0, indexInStep: 0, examples: [] }], { text: true })) } as unknown as Requests[K]['result']
    if (kind === 'plan-export') return new Uint8Array([1, 2, 3]) as Requests[K]['result']
    if (kind === 'plan-featurize') {
      if (p.index === 99) throw new Error('plan: batch 99 has not been streamed yet (5 so far)')
      return { device: 'cpu', adapter: null, fallbackReason: 'no WebGPU here', decodeWorkers: 0, bottleneck: 'features', batches: [{ index: p.index, examples: 2, failed: [], decoders: ['wasm:flac'], shape: [2, 100], audioSeconds: 1, decodeMs: 1, featureMs: 2, waitMs: 0 }] } as unknown as Requests[K]['result']
    }
    throw new Error(`unexpected ${kind}`)
  }
  return { calls, closed, request, setHold: (h: boolean) => { hold = h }, release: () => release?.() }
}

describe('batches store', () => {
  test('streams every chunk until done, then opens and exports', async () => {
    const client = fakeClient(chunkSize * 2 + 5)
    let t = 0
    const store = createBatchesStore(client, () => (t += 100))
    await store.getState().run(1, spec, null)
    const s = store.getState()
    expect(s.status).toBe('done')
    expect(s.batches.map((b) => b.index)).toEqual(Array.from({ length: chunkSize * 2 + 5 }, (_, i) => i))
    expect(client.calls.filter((c) => c === 'plan-next')).toHaveLength(3)
    expect(s.rate).toBeGreaterThan(0)
    await store.getState().select(3)
    expect(store.getState().selectedBatch?.index).toBe(3)
    expect([...await store.getState().exportPlan('jsonl')]).toEqual([1, 2, 3])
  })

  test('decode & featurize: result for the asked batches, errors shown, reset when another batch opens', async () => {
    const client = fakeClient(5)
    const store = createBatchesStore(client)
    await store.getState().run(1, spec, null)
    await store.getState().select(2)
    const running = store.getState().featurizeBatches(2, 3, 'gpu')
    expect(store.getState().featurize.status).toBe('running')
    await running
    const f = store.getState().featurize
    expect([f.status, f.from, f.count, f.result?.batches[0].index, f.result?.batches[0].shape]).toEqual(['done', 2, 3, 2, [2, 100]])
    await store.getState().featurizeBatches(99, 1, 'cpu')
    expect(store.getState().featurize).toMatchObject({ status: 'error', error: 'plan: batch 99 has not been streamed yet (5 so far)' })
    await store.getState().select(3)
    expect(store.getState().featurize.status).toBe('idle')
  })

  test('a new run cancels the stream and closes the old session; stop/resume continue the same session', async () => {
    const client = fakeClient(chunkSize * 3)
    const store = createBatchesStore(client)
    client.setHold(true)
    const first = store.getState().run(1, spec, null)
    await new Promise((r) => setTimeout(r, 0))
    expect(store.getState().status).toBe('streaming')
    client.setHold(false)
    const second = store.getState().run(1, { ...spec, overrides: { split: 'train', seed: 3 } }, 10)
    await Promise.all([first, second])
    expect(client.closed).toContain(1)
    expect(store.getState().status).toBe('done')
    expect(store.getState().batches).toHaveLength(chunkSize * 3)

    client.setHold(true)
    const third = store.getState().run(1, spec, null)
    await new Promise((r) => setTimeout(r, 0))
    store.getState().stop()
    client.release()
    await third
    expect(store.getState().status).toBe('stopped')
    expect(store.getState().batches).toHaveLength(chunkSize)
    client.setHold(false)
    await store.getState().resume()
    expect(store.getState().status).toBe('done')
    expect(store.getState().batches.map((b) => b.index)).toEqual(Array.from({ length: chunkSize * 3 }, (_, i) => i))
  })
  test('hidden, the stream asks for no further chunk; shown again, it carries on to the end', async () => {
    const client = fakeClient(chunkSize * 3)
    const store = createBatchesStore(client, () => 0)
    store.getState().setVisible(false)
    const running = store.getState().run(1, spec, null)
    await new Promise((r) => setTimeout(r, 20))
    expect(client.calls.filter((c) => c === 'plan-next')).toHaveLength(0)
    expect(store.getState().status).toBe('streaming')
    store.getState().setVisible(true)
    await running
    expect(store.getState().status).toBe('done')
    expect(store.getState().batches).toHaveLength(chunkSize * 3)
    expect(client.calls.filter((c) => c === 'plan-next')).toHaveLength(3)
  })
})
