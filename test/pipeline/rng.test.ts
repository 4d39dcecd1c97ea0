import { describe, expect, it } from 'vitest'
import rng from '../fixtures/rng/rng.json' with { type: 'json' }
import { Mt19937 } from '../../src/engine/random/mt19937.ts'
import { NumpyRandomState } from '../../src/engine/random/numpy-random-state.ts'
import { TorchGenerator } from '../../src/engine/random/torch-generator.ts'

describe('Mt19937', () => {
  it('matches the published init_genrand(5489) outputs', () => {
    // first outputs of std::mt19937 default-seeded (5489), and its 10000th output (C++ standard, [rand.predef])
    const mt = new Mt19937(5489)
    expect(mt.nextUint32()).toBe(3499211612)
    expect(mt.nextUint32()).toBe(581869302)
    let last = 0
    for (let i = 3; i <= 10000; i++) last = mt.nextUint32()
    expect(last).toBe(4123659995)
  })
})

describe('TorchGenerator (fixtures from torch ' + rng.torch + ')', () => {
  for (const c of rng.torch_random64) {
    it(`random64 stream, seed ${c.seed}`, () => {
      const g = new TorchGenerator(c.seed)
      const got = c.random64_hex.map(() => g.random64().toString(16).padStart(16, '0'))
      expect(got).toEqual(c.random64_hex)
    })
  }

  it('random64Mod equals BigInt random64 % s for small and large s', () => {
    for (const s of [1, 2, 3, 7, 1000, 2 ** 21, 2 ** 21 + 1, 2 ** 32 - 5, 2 ** 32, 2 ** 40 + 3, 2 ** 53 - 1]) {
      const a = new TorchGenerator(261)
      const b = new TorchGenerator(261)
      for (let i = 0; i < 50; i++) expect(a.random64Mod(s)).toBe(Number(b.random64() % BigInt(s)))
    }
  })

  for (const c of rng.torch_uniform24) {
    it(`uniform float (torch.rand) stream, seed ${c.seed}`, () => {
      const g = new TorchGenerator(c.seed)
      const got = c.k.map(() => g.uniformFloat() * 2 ** 24)
      expect(got).toEqual(c.k)
    })
  }
})

describe('NumpyRandomState.permutation (fixtures from numpy ' + rng.numpy + ')', () => {
  for (const c of rng.numpy_permutation) {
    it(`seed ${c.seed}, n ${c.n}, ${c.permutations.length} consecutive permutation(s)`, () => {
      const rs = new NumpyRandomState(c.seed)
      const got = c.permutations.map(() => Array.from(rs.permutation(c.n)))
      expect(got).toEqual(c.permutations)
    })
  }

  it('rejects seeds numpy rejects', () => {
    expect(() => new NumpyRandomState(2 ** 32)).toThrow(/seed must be an integer in \[0, 2\*\*32\), got 4294967296/)
    expect(() => new NumpyRandomState(-1)).toThrow(/got -1/)
  })
})
