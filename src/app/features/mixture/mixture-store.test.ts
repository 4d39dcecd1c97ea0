import { describe, expect, test } from 'vitest'
import type { RequestOptions } from '../../../engine/worker/client.ts'
import type { Requests } from '../../../engine/worker/protocol.ts'
import type { ConfigSpec } from '../../../engine/pipeline/config/resolve.ts'
import type { MixtureReport } from '../../../engine/mixture/mixture.ts'
import type { MixtureWeights } from '../../../engine/mixture/mixture-weights.ts'
import { createMixtureStore, mixtureKey } from './mixture-store.ts'

const spec = (overrides: Record<string, unknown>): ConfigSpec => ({ preset: 'ctc-finetune', recipe: null, overrides: { split: 'train', ...overrides } })

/** A report of two rows whose weight and draws both say which beta_language asked for it. */
function report(beta: number, tag: string): MixtureReport {
  const row = (language: string) => ({ corpus: 'c', language, hours: 1, corpus_weight: 1, language_weight: beta, weight: beta, in_split: true, sampling_probability: beta,
    natural_share: 0.5, mean_seconds: 1, sampled: beta * 100, expected: beta * 100, audio_share: 0.5, hours_per_steps: 1, expected_epochs: 1, p_not_drawn: 0 })
  return { config: { beta_corpus: 0.5, beta_language: beta, tag }, rows: [row('a'), row('b')] } as unknown as MixtureReport
}

/** Every request answers after `ms`; each call is logged as kind@beta_language, and aborts as `abort kind@beta`. */
function fakeClient(ms = 5) {
  const log: string[] = []
  const request = <K extends keyof Requests>(kind: K, params: Requests[K]['params'], options: RequestOptions = {}): Promise<Requests[K]['result']> => {
    const overrides = (params as { spec: ConfigSpec }).spec.overrides as Record<string, number>
    const beta = overrides.beta_language ?? 0.5
    const name = `${kind}@${beta}`
    log.push(name)
    return new Promise((resolve, reject) => {
      let done = false
      const timer = setTimeout(() => {
        done = true
        if (kind === 'mixture') resolve(report(beta, 'full') as Requests[K]['result'])
        else resolve({ beta_corpus: 0.5, beta_language: beta, rows: 2, corpus_weight: [1, 1], language_weight: [beta, beta], weight: [beta, beta], sampling_probability: [beta, beta], audio_share: [0.5, 0.5] } satisfies MixtureWeights as Requests[K]['result'])
      }, ms)
      options.signal?.addEventListener('abort', () => { if (done) return; clearTimeout(timer); log.push(`abort ${name}`); reject(new DOMException('aborted', 'AbortError')) })
    })
  }
  return { log, request: request as never }
}

describe('mixture store', () => {
  test('the first load asks for the full report; a beta step patches the weights first, then the full report replaces them', async () => {
    const client = fakeClient()
    const store = createMixtureStore(client, { detailsDelayMs: 300 })
    await store.getState().load(1, spec({}))
    expect(client.log).toEqual(['mixture@0.5'])
    expect(store.getState().report?.rows[0].weight).toBe(0.5)
    const done = store.getState().load(1, spec({ beta_language: 0.6 }))
    await expect.poll(() => store.getState().stale, { interval: 5 }).toBe('details')
    const patched = store.getState().report!
    expect(patched.rows.map((r) => r.weight)).toEqual([0.6, 0.6])
    expect(patched.rows.map((r) => r.sampling_probability)).toEqual([0.6, 0.6])
    expect(patched.config.beta_language).toBe(0.6)
    expect(patched.rows[0].sampled).toBe(50) // the draws are still the old betas' until the full report
    expect(store.getState().status).toBe('loading')
    await done
    expect(client.log).toEqual(['mixture@0.5', 'mixture-weights@0.6', 'mixture@0.6'])
    expect(store.getState()).toMatchObject({ status: 'ready', stale: null })
    expect(store.getState().report?.rows[0].sampled).toBe(60)
  })

  test('steps in a row: each cheap update lands, only the last value’s full report is asked for', async () => {
    const client = fakeClient()
    const store = createMixtureStore(client, { detailsDelayMs: 300 })
    await store.getState().load(1, spec({}))
    const loads: Promise<void>[] = []
    for (const beta of [0.51, 0.52, 0.53]) {
      loads.push(store.getState().load(1, spec({ beta_language: beta })))
      await expect.poll(() => store.getState().report?.rows[0].weight, { interval: 5 }).toBe(beta)
    }
    await Promise.all(loads)
    expect(client.log.filter((l) => l.startsWith('mixture@'))).toEqual(['mixture@0.5', 'mixture@0.53'])
    expect(store.getState().report?.rows[0].sampled).toBe(53)
  })

  test('a change other than the betas asks for the full report at once; an aborted one never lands', async () => {
    const client = fakeClient(20)
    const store = createMixtureStore(client, { detailsDelayMs: 10 })
    await store.getState().load(1, spec({}))
    const first = store.getState().load(1, spec({ split: 'dev', beta_language: 0.7 }))
    const second = store.getState().load(1, spec({ split: 'dev', beta_language: 0.8 }))
    await Promise.all([first, second])
    expect(client.log).toEqual(['mixture@0.5', 'mixture@0.7', 'abort mixture@0.7', 'mixture@0.8'])
    expect(store.getState().report?.rows[0].weight).toBe(0.8)
  })

  test('the key leaves out the betas only', () => {
    expect(mixtureKey(1, spec({ beta_corpus: 0.1 }), 10, 10)).toBe(mixtureKey(1, spec({ beta_corpus: 0.9, beta_language: 0.2 }), 10, 10))
    expect(mixtureKey(1, { preset: null, recipe: null, overrides: [['dataset.mixture_parquet_storage_config.beta_corpus', 0.1]] }, 10, 10))
      .toBe(mixtureKey(1, { preset: null, recipe: null, overrides: [] }, 10, 10))
    expect(mixtureKey(1, spec({ seed: 1 }), 10, 10)).not.toBe(mixtureKey(1, spec({ seed: 2 }), 10, 10))
    expect(mixtureKey(1, spec({}), 10, 10)).not.toBe(mixtureKey(2, spec({}), 10, 10))
    expect(mixtureKey(1, spec({}), 10, 10)).not.toBe(mixtureKey(1, spec({}), 11, 10))
  })
})
