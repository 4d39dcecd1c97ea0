import { describe, expect, it } from 'vitest'
import { inThreadBatchDecoder, splitByBytes, type BatchDecoder } from '../../src/engine/audio/batch-decoder.ts'
import type { DecodeItem, DecodeResult } from '../../src/engine/audio/decode.ts'
import { featurizeBatches } from '../../src/engine/features/featurize-batches.ts'
import { fixtureBytes } from '../audio/fixtures.ts'

const item = (id: string, n: number): DecodeItem => ({ id, bytes: new Uint8Array(n) })

describe('splitByBytes', () => {
  it('covers every item once, in order, in at most `parts` non-empty runs of about equal bytes', () => {
    let seed = 3
    for (let trial = 0; trial < 200; trial++) {
      const n = trial % 23
      const items = Array.from({ length: n }, (_, i) => item(`${i}`, 1 + ((seed = (seed * 48271) % 2147483647) % 5000)))
      const parts = 1 + (trial % 7)
      const runs = splitByBytes(items, parts)
      expect(runs.length).toBeLessThanOrEqual(Math.max(1, Math.min(parts, n)))
      if (n > 0) expect(runs.length).toBe(Math.min(parts, n))
      let at = 0
      for (const [a, b] of runs) {
        expect(a).toBe(at)
        expect(b).toBeGreaterThan(a)
        at = b
      }
      expect(at).toBe(n)
    }
    // equal sizes split evenly
    expect(splitByBytes(Array.from({ length: 8 }, (_, i) => item(`${i}`, 100)), 4)).toEqual([[0, 2], [2, 4], [4, 6], [6, 8]])
  })
})

/**
 * Virtual time for the stages' clocks: `sleep` resolves when time reaches its deadline, `advance` is a stage computing
 * (time moves, nothing else runs). Whenever every stage waits (nothing else to run: a macrotask turn comes), the
 * sleepers already due wake, else time jumps to the next deadline: a decode "thread" finishing while the features ran.
 */
function virtualClock() {
  let time = 0
  let running = true
  const sleepers: { at: number; wake: () => void }[] = []
  const pump = () => {
    if (!running) return
    if (sleepers.length > 0) {
      sleepers.sort((a, b) => a.at - b.at)
      if (sleepers[0].at > time) time = sleepers[0].at
      while (sleepers.length > 0 && sleepers[0].at <= time) sleepers.shift()!.wake()
    }
    setImmediate(pump)
  }
  setImmediate(pump)
  return {
    now: () => time,
    sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ at: time + ms, wake })),
    advance: (ms: number) => { time += ms },
    stop: () => { running = false },
  }
}

type Sleep = (ms: number) => Promise<void>
const realSleep: Sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** A decoder whose batches finish `delayMs` after they start (each on its own), recording how many were ever started. */
function fakeDecoder(delayMs: number, sleep: Sleep = realSleep): BatchDecoder & { started: number } {
  const d = {
    lanes: 1,
    started: 0,
    async decode(items: DecodeItem[]): Promise<DecodeResult[]> {
      d.started++
      await sleep(delayMs)
      return items.map((i) => (i.id.startsWith('bad') ? { id: i.id, ok: false as const, error: `audio: ${i.id} (unknown): garbage` }
        : { id: i.id, ok: true as const, audio: { sampleRate: 16000, channels: [new Float32Array(i.bytes.length)], frames: i.bytes.length, decoder: 'fake', container: 'wav' as const, codec: null, warnings: [],
          trainable: !i.id.startsWith('cut'), untrainable: i.id.startsWith('cut') ? 'decodes 3 of 10 declared samples' : null } }))
    },
    close() {},
  }
  return d
}

describe('featurizeBatches', () => {
  it('yields batches in order, features aligned with items, null where an item failed', async () => {
    const batches = [[item('a', 10), item('bad-1', 3), item('b', 20)], [item('c', 5)], [item('bad-2', 1)]]
    const out = []
    for await (const b of featurizeBatches(batches, fakeDecoder(1), (audio) => audio.map((a) => a.frames * 2))) out.push(b)
    expect(out.map((b) => b.index)).toEqual([0, 1, 2])
    expect(out.map((b) => b.features)).toEqual([[20, null, 40], [10], [null]])
    expect(out[0].decoded[1]).toMatchObject({ ok: false, error: 'audio: bad-1 (unknown): garbage' })
  })

  it('a row training cannot read (it decodes, but libsndfile would fail) gets no features, as training never featurizes it', async () => {
    const out = []
    for await (const b of featurizeBatches([[item('a', 10), item('cut-1', 3)]], fakeDecoder(1), (audio) => audio.map((a) => a.frames))) out.push(b)
    expect(out[0].features).toEqual([10, null])
  })

  it('decodes at most `prefetch` batches ahead of the one being featurized (bounded memory)', async () => {
    for (const prefetch of [1, 2, 3]) {
      const decoder = fakeDecoder(0)
      const batches = Array.from({ length: 10 }, (_, i) => [item(`x${i}`, 4)])
      let featurized = 0
      for await (const b of featurizeBatches(batches, decoder, (audio) => audio.map(() => 0), { prefetch })) {
        // while batch k is handed out, batches k+1 … k+prefetch may have started, no more
        expect(decoder.started - 1 - b.index).toBeLessThanOrEqual(prefetch)
        featurized++
      }
      expect(featurized).toBe(10)
      expect(decoder.started).toBe(10)
    }
  })

  it('overlaps decode with features: a feature stage slower than decoding never waits after the first batch', async () => {
    const clock = virtualClock()
    try {
      // decode 10 ms per batch, features 30 ms: only the first batch waits (for its own decode)
      const waits: number[] = [], featureMs: number[] = []
      const slowFeatures = (audio: unknown[]) => { clock.advance(30); return audio.map(() => 1) }
      for await (const b of featurizeBatches(Array.from({ length: 5 }, (_, i) => [item(`y${i}`, 4)]), fakeDecoder(10, clock.sleep), slowFeatures, { now: clock.now })) {
        waits.push(b.waitMs); featureMs.push(b.featureMs)
      }
      expect(waits).toEqual([10, 0, 0, 0, 0])
      expect(featureMs).toEqual([30, 30, 30, 30, 30])
      // decode 40 ms per batch, features instant, one batch ahead: every other batch waits a whole decode
      // (the one awaited and the one ahead are in flight together)
      const slowWaits: number[] = []
      for await (const b of featurizeBatches(Array.from({ length: 5 }, (_, i) => [item(`z${i}`, 4)]), fakeDecoder(40, clock.sleep), (a) => a.map(() => 1), { prefetch: 1, now: clock.now })) slowWaits.push(b.waitMs)
      expect(slowWaits).toEqual([40, 0, 40, 0, 40])
    } finally {
      clock.stop()
    }
  })

  it('stops with the abort reason when aborted', async () => {
    const controller = new AbortController()
    const seen: number[] = []
    await expect((async () => {
      for await (const b of featurizeBatches([[item('a', 1)], [item('b', 1)], [item('c', 1)]], fakeDecoder(1), (a) => a.map(() => 0), { signal: controller.signal })) {
        seen.push(b.index)
        controller.abort(new Error('stop here'))
      }
    })()).rejects.toThrow('stop here')
    expect(seen).toEqual([0])
  })

  it('with the in-thread decoder on real files (WASM in Node): decodes each batch and keeps a bad file to itself', async () => {
    const flac = fixtureBytes('speech-16k-mono-s16.flac')
    const ogg = fixtureBytes('speech-16k-mono.ogg')
    const batches = [[{ id: 'f:0', bytes: flac }, { id: 'f:1', bytes: new Uint8Array([1, 2, 3]) }], [{ id: 'f:2', bytes: ogg }, { id: 'f:3', bytes: flac }]]
    const frames: (number | null)[][] = []
    for await (const b of featurizeBatches(batches, inThreadBatchDecoder(), (audio) => audio.map((a) => a.frames))) frames.push(b.features)
    expect(frames).toEqual([[29873, null], [29873, 29873]])
  })
})
