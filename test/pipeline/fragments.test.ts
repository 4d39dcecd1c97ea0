import { describe, expect, it } from 'vitest'
import rng from '../fixtures/rng/rng.json' with { type: 'json' }
import { evalFragmentOrder, partitionStreamSeed, rankFragments, shardStream, singleStreamSeed, trainFragmentOrder, type FragmentRef } from '../../src/engine/pipeline/fragments.ts'

const take = <T>(it: Iterable<T>, n: number): T[] => {
  const out: T[] = []
  if (n <= 0) return out
  for (const x of it) { out.push(x); if (out.length >= n) break }
  return out
}

describe('trainFragmentOrder', () => {
  it('concatenates consecutive numpy permutations from one RandomState(seed)', () => {
    for (const c of rng.numpy_permutation.filter((p) => p.n > 0)) {
      expect(take(trainFragmentOrder(c.n, c.seed), c.n * c.permutations.length)).toEqual(c.permutations.flat())
    }
  })

  it('replays the 100-epoch sequence identically after it ends', () => {
    const n = 7
    const seq = take(trainFragmentOrder(n, 43), 100 * n * 2 + 5)
    expect(seq.slice(100 * n, 200 * n)).toEqual(seq.slice(0, 100 * n))
    expect(seq.slice(200 * n)).toEqual(seq.slice(0, 5))
    // and the 101st epoch is not the 101st permutation of the RNG (which differs from the first)
    expect(seq.slice(100 * n, 101 * n)).toEqual(rng.numpy_permutation.find((p) => p.seed === 43)!.permutations[0])
  })

  it('yields nothing for an empty list', () => {
    expect([...trainFragmentOrder(0, 1)]).toEqual([])
  })
})

describe('shardStream', () => {
  it('gives rank r the items with index ≡ r (mod W), partial last group included', () => {
    expect([...shardStream(evalFragmentOrder(10), 1, 3)]).toEqual([1, 4, 7])
    expect([...shardStream(evalFragmentOrder(10), 0, 3)]).toEqual([0, 3, 6, 9])
    expect([...shardStream(evalFragmentOrder(10), 0, 1)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('keeps counting across the replay boundary of the infinite train stream', () => {
    const n = 3
    const W = 7 // 100·3 = 300 is not a multiple of 7
    const global = take(trainFragmentOrder(n, 4), 2000)
    for (let r = 0; r < W; r++) {
      const mine = take(shardStream(trainFragmentOrder(n, 4), r, W), 250)
      mine.forEach((x, j) => expect(x).toBe(global[j * W + r]))
    }
  })

  it('rejects a rank outside [0, world_size)', () => {
    expect(() => [...shardStream([1], 2, 2)]).toThrow(/rank must be in \[0, world_size\), got rank 2 with world_size 2/)
  })
})

describe('rankFragments', () => {
  const frags: FragmentRef[] = Array.from({ length: 11 }, (_, i) => ({ path: `f${i >> 2}.parquet`, rowGroup: i % 4, rows: 3, firstRow: (i % 4) * 3 }))

  it('eval: every row group exactly once across ranks, in order per rank', () => {
    const W = 4
    const seen = Array.from({ length: W }, (_, r) => [...rankFragments(frags, false, 0, r, W)])
    expect(seen.flat().length).toBe(frags.length)
    expect(new Set(seen.flat())).toEqual(new Set(frags))
    expect(seen[1]).toEqual([frags[1], frags[5], frags[9]])
  })

  it('train: maps the permutation onto the list; all ranks share the global order', () => {
    const perm = take(trainFragmentOrder(frags.length, 9), 22)
    expect(take(rankFragments(frags, true, 9, 0, 2), 11)).toEqual(perm.filter((_, i) => i % 2 === 0).map((i) => frags[i]))
  })

  it('seeds follow docs/conventions.md: seed + world_size + i, single stream seed + world_size', () => {
    expect(partitionStreamSeed(2, 8, 1)).toBe(11)
    expect(partitionStreamSeed(42, 1, 3)).toBe(46)
    expect(singleStreamSeed(2, 8)).toBe(10)
  })
})
