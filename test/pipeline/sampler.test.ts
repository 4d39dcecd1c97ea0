import { describe, expect, it } from 'vitest'
import rng from '../fixtures/rng/rng.json' with { type: 'json' }
import { pickPartition, weightedSample } from '../../src/engine/pipeline/sampler.ts'
import { samplingDistribution } from '../../src/engine/pipeline/weights.ts'
import { collect } from '../../src/engine/pipeline/iterables.ts'

async function* counter(tag: string, limit = Infinity) {
  for (let i = 0; i < limit; i++) yield `${tag}${i}`
}

describe('pickPartition', () => {
  it('returns the smallest index with cumsum ≥ u, else the last', () => {
    const c = [0.25, 0.5, 0.5, 0.999]
    expect(pickPartition(c, 0)).toBe(0)
    expect(pickPartition(c, 0.25)).toBe(0)
    expect(pickPartition(c, 0.2500001)).toBe(1)
    expect(pickPartition(c, 0.5)).toBe(1)
    expect(pickPartition(c, 0.9995)).toBe(3)
    expect(pickPartition([0.3], 0.9)).toBe(0)
  })
})

describe('weightedSample', () => {
  it('draws partitions with torch.rand(seed 261) against the float32 cumsums', async () => {
    const dist = samplingDistribution([0.534772, 0.395684, 0.03168, 0.037865])
    const draws: number[] = []
    const out = await collect(weightedSample([counter('a'), counter('b'), counter('c'), counter('d')], dist.cumsums,
      { seed: 261, onDraw: (i) => draws.push(i) }), 600)
    const ks = rng.torch_uniform24.find((c) => c.seed === 261)!.k
    const expected = ks.slice(0, 600).map((k) => {
      const u = k / 2 ** 24
      const i = dist.cumsums.findIndex((c) => c >= u)
      return i === -1 ? dist.cumsums.length - 1 : i
    })
    expect(draws).toEqual(expected)
    // each partition's items come out in its own order
    const perTag = new Map<string, number>()
    for (const item of out) {
      const tag = item[0]
      const n = perTag.get(tag) ?? 0
      expect(item).toBe(`${tag}${n}`)
      perTag.set(tag, n + 1)
    }
  })

  it('pulls one item from every partition on the first call', async () => {
    const pulled: string[] = []
    async function* spy(tag: string) { for (let i = 0; ; i++) { pulled.push(`${tag}${i}`); yield `${tag}${i}` } }
    const it = weightedSample([spy('a'), spy('b'), spy('c')], [0.2, 0.6, 1], { seed: 1 })
    await it.next()
    // one per partition, then one refill of the drawn one
    expect(pulled.length).toBe(4)
    expect(pulled.slice(0, 3)).toEqual(['a0', 'b0', 'c0'])
  })

  it('an empty partition is the reference error', async () => {
    await expect(collect(weightedSample([counter('a'), counter('b', 0)], [0.5, 1], { seed: 1 }), 5))
      .rejects.toThrow('The data pipeline at index 1 is empty and cannot be sampled.')
  })

  it('with reopen, restarts ended partitions and stops once all have ended once', async () => {
    const out = await collect(weightedSample([counter('a', 2), counter('b', 3)], [0.5, 1], {
      seed: 7, reopen: (i) => counter(i === 0 ? 'a' : 'b', i === 0 ? 2 : 3),
    }), 1000)
    expect(out.length).toBeGreaterThan(2)
    expect(out.length).toBeLessThan(1000)
  })
})
