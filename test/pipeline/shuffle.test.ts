import { describe, expect, it } from 'vitest'
import fixture from '../fixtures/rng/shuffle.json' with { type: 'json' }
import { shuffleWindow } from '../../src/engine/pipeline/shuffle.ts'
import { collect } from '../../src/engine/pipeline/iterables.ts'

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

describe('shuffleWindow against the Python re-implementation (torch ' + fixture.torch + ' generator)', () => {
  for (const c of fixture.cases) {
    it(`n ${c.n}, window ${c.window}, seed ${c.seed}`, async () => {
      expect(await collect(shuffleWindow(range(c.n), c.window, c.seed))).toEqual(c.output)
    })
  }
})

describe('shuffleWindow properties', () => {
  it('window 1 passes items through unchanged', async () => {
    expect(await collect(shuffleWindow(range(20), 1, 2))).toEqual(range(20))
  })

  it('is a permutation of the input at every window, and deterministic per seed', async () => {
    for (const window of [0, 2, 5, 19, 20, 21, 100]) {
      const a = await collect(shuffleWindow(range(20), window, 11))
      const b = await collect(shuffleWindow(range(20), window, 11))
      expect(a).toEqual(b)
      expect([...a].sort((x, y) => x - y)).toEqual(range(20))
    }
  })

  it('a different seed gives a different order', async () => {
    const a = await collect(shuffleWindow(range(50), 0, 2))
    const b = await collect(shuffleWindow(range(50), 0, 3))
    expect(a).not.toEqual(b)
  })

  it('never emits an item before it could have entered the window', async () => {
    const window = 4
    const out = await collect(shuffleWindow(range(40), window, 5))
    // the k-th output (0-based) was read among the first window + k inputs
    out.forEach((item, k) => expect(item).toBeLessThan(window + k))
  })

  it('accepts async sources and empty input', async () => {
    async function* gen() { for (const i of range(5)) yield i }
    expect((await collect(shuffleWindow(gen(), 3, 2))).sort()).toEqual(range(5))
    expect(await collect(shuffleWindow([], 3, 2))).toEqual([])
  })

  it('rejects a negative window', async () => {
    await expect(collect(shuffleWindow([1], -1, 2))).rejects.toThrow(/window must be a non-negative integer, got -1/)
  })
})
