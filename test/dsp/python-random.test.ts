import { describe, expect, it } from 'vitest'
import { PythonRandom } from '../../src/engine/random/python-random.ts'
import { Mt19937 } from '../../src/engine/random/mt19937.ts'

// mt19937ar.out, the output file published with Matsumoto & Nishimura's mt19937ar.c: init_by_array({0x123, 0x234,
// 0x345, 0x456}), then genrand_int32() 1000 times; its first ten and last five values
const first = [1067595299, 955945823, 477289528, 4107218783, 4228976476, 3344332714, 3355579695, 227628506, 810200273, 2591290167]
const last = [2643151863, 3896204135, 2416995901, 1397735321, 3460025646]
const key = [0x123, 0x234, 0x345, 0x456]

describe('MT19937 init_by_array (one generator for numpy, torch and Python random)', () => {
  it('Mt19937.fromKey reproduces mt19937ar.out', () => {
    const mt = Mt19937.fromKey(key)
    const out = Array.from({ length: 1000 }, () => mt.nextUint32())
    expect(out.slice(0, 10)).toEqual(first)
    expect(out.slice(995)).toEqual(last)
  })

  it('PythonRandom(n) is init_by_array over the 32-bit words of n, least significant first (random.seed)', () => {
    const n = (0x456n << 96n) | (0x345n << 64n) | (0x234n << 32n) | 0x123n
    const r = new PythonRandom(n)
    expect(Array.from({ length: 10 }, () => r.getrandbits(32))).toEqual(first)
    r.seed(-n) // |seed|, as CPython
    expect(r.nextUint32()).toBe(first[0])
  })

  it('refuses an empty or out-of-range key', () => {
    expect(() => Mt19937.fromKey([])).toThrow(/one or more 32-bit words/)
    expect(() => Mt19937.fromKey([2 ** 32])).toThrow(/4294967296/)
  })
})
