import { describe, expect, test } from 'vitest'
import type { RequestOptions } from '../../engine/worker/client.ts'
import type { Requests } from '../../engine/worker/protocol.ts'
import type { BatchSummary } from '../../engine/batches/batch-summary.ts'
import type { ConfigSpec } from '../../engine/pipeline/config/resolve.ts'
import type { PlanStartResult } from '../../engine/worker/protocol/plan.ts'
import { chunkSize, createBatchesStore } from './batches-store.ts'
import { configSpec, initialConfigState } from './config-store.ts'
import { examplesTable, tableToTransfer } from '../../engine/index.ts'

const spec: ConfigSpec = { preset: 'ctc-finetune', recipe: null, overrides: { split: 'train' } }
const summary = (index: number): BatchSummary => ({ index, step: index, indexInStep: 0, size: 1, longest: 1, padded: 1, samples: 1, waste: 0, partitions: [] })

/** A worker client with `total` batches per session; `hold` keeps plan-next pending until released. */
function fakeClient(total: number, weighted = false) {
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
      return { session, config: {}, findings: [], trainStreaming: true, limit: total, buckets: null, mixture: null, unweighted: [], diagnostics: [], summaryPath: null, weighted, warmUpStreams: null } as unknown as PlanStartResult as Requests[K]['result']
    }
    if (kind === 'plan-next') {
      if (hold) await new Promise<void>((resolve, reject) => { release = resolve; options.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))) })
      const session = p.session as number
      const from = streamed.get(session)!
      const to = Math.min(total, from + (p.count as number))
      streamed.set(session, to)
      return { batches: Array.from({ length: to - from }, (_, i) => summary(from + i)), done: to === total, total: to, mixture: null, drops: [], io: { fragments: 0, rows: 0 }, warmUp: null } as Requests[K]['result']
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
  test('betas alone: an unweighted plan is kept; a weighted one re-plans once after the steps, when shown; max_audio_len re-plans at once', async () => {
    const config = { ...initialConfigState, betaCorpus: 0.5, betaLanguage: 0.5 }
    const steps = (store: ReturnType<typeof createBatchesStore>) => Promise.all([0.51, 0.52, 0.53].map((b) => store.getState().run(1, configSpec({ ...config, betaCorpus: b }), null)))
    // no weights (an eval split, or no stats TSV): the betas change nothing in the plan
    const plain = fakeClient(5, false)
    const kept = createBatchesStore(plain, undefined, { betaDelayMs: 5 })
    await kept.getState().run(1, configSpec(config), null)
    await steps(kept)
    expect(plain.calls.filter((c) => c === 'plan-start')).toHaveLength(1)
    expect(kept.getState()).toMatchObject({ plans: 1, status: 'done' })
    // weights: three quick steps are one new plan, with the last betas
    const weighted = fakeClient(5, true)
    const store = createBatchesStore(weighted, undefined, { betaDelayMs: 5 })
    await store.getState().run(1, configSpec(config), null)
    const starts: unknown[] = []
    const request = weighted.request
    const client = { request: <K extends keyof Requests>(kind: K, params: Requests[K]['params'], options?: RequestOptions) => { if (kind === 'plan-start') starts.push((params as Requests['plan-start']['params']).spec.overrides); return request(kind, params, options) } }
    const spied = createBatchesStore(client, undefined, { betaDelayMs: 5 })
    await spied.getState().run(1, configSpec(config), null)
    await steps(spied)
    expect(starts).toHaveLength(2)
    expect(starts[1]).toMatchObject({ beta_corpus: 0.53 })
    expect(spied.getState().plans).toBe(2)
    // hidden, the new plan waits for the view
    spied.getState().setVisible(false)
    const pending = spied.getState().run(1, configSpec({ ...config, betaCorpus: 0.6 }), null)
    await new Promise((r) => setTimeout(r, 30))
    expect(starts).toHaveLength(2)
    spied.getState().setVisible(true)
    await pending
    expect(starts).toHaveLength(3)
    // a key the plan reads: at once, without waiting
    const before = starts.length
    await spied.getState().run(1, configSpec({ ...config, betaCorpus: 0.6, fields: { max_audio_len: 100_000 } }), null)
    expect(starts).toHaveLength(before + 1)
    // and on the unweighted store too
    await kept.getState().run(1, configSpec({ ...config, betaCorpus: 0.53, fields: { max_audio_len: 100_000 } }), null)
    expect(kept.getState().plans).toBe(2)
    expect(store.getState().plans).toBe(1)
  })

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

describe('batches store: the sampler\'s warm-up behind the first batch', () => {
  /** A client whose plan has a mixture of 40 streams; `warmUp` answers `plan-warm-up`. */
  function mixtureClient(warmUp: (options: RequestOptions) => Promise<Requests['plan-warm-up']['result']>) {
    const base = fakeClient(3, true)
    return {
      request: async <K extends keyof Requests>(kind: K, params: Requests[K]['params'], options: RequestOptions = {}): Promise<Requests[K]['result']> => {
        if (kind === 'plan-start') return { ...(await base.request(kind, params, options) as PlanStartResult), warmUpStreams: 40 } as Requests[K]['result']
        if (kind === 'plan-warm-up') return await warmUp(options) as Requests[K]['result']
        return base.request(kind, params, options)
      },
    }
  }

  test('reports the fill as it goes and once checked', async () => {
    let finish!: () => void
    const store = createBatchesStore(mixtureClient(async (options) => {
      options.onProgress?.({ phase: 'warm-up', done: 12, total: 40, requests: 0, bytes: 0 })
      await new Promise<void>((resolve) => { finish = resolve })
      return { filled: 40, total: 40, settled: true }
    }))
    await store.getState().run(1, spec, 3)
    expect(store.getState().batches).toHaveLength(3)
    expect(store.getState().warmUp).toEqual({ filled: 12, total: 40, status: 'running' })
    finish()
    await new Promise((r) => setTimeout(r, 0))
    expect(store.getState().warmUp).toEqual({ filled: 40, total: 40, status: 'done' })
    expect(store.getState().status).toBe('done')
  })

  test('a failed fill replaces the batches with the reference\'s error', async () => {
    let fail!: (error: Error) => void
    const store = createBatchesStore(mixtureClient(() => new Promise((_, reject) => { fail = reject })))
    await store.getState().run(1, spec, 3)
    expect(store.getState().batches).toHaveLength(3)
    fail(new Error('parquet: cannot read row group 0 of corpus=c/split=train/language=x/part-0.parquet'))
    await new Promise((r) => setTimeout(r, 0))
    expect(store.getState()).toMatchObject({ status: 'error', batches: [], warmUp: { status: 'failed', total: 40 } })
    expect(store.getState().error).toBe('Training stops before its first batch: parquet: cannot read row group 0 of corpus=c/split=train/language=x/part-0.parquet')
  })
})
