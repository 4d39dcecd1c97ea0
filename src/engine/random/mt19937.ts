/**
 * MT19937, the 32-bit Mersenne Twister (Matsumoto & Nishimura 1998), seeded with the standard `init_genrand` or, by
 * {@link Mt19937.fromKey}, with `init_by_array` (mt19937ar.c). The RNGs of the reference use it: numpy's legacy
 * `RandomState(seed)` (integer seeds go through `init_genrand`), PyTorch's CPU generator (`at::mt19937`,
 * `init_with_uint32`) and Python's `random` (`random.seed(int)` goes through `init_by_array`, dsp/python-random.ts).
 * docs/reference-pipeline.md §16.
 */

const N = 624
const M = 397
const UPPER = 0x80000000
const LOWER = 0x7fffffff
const MATRIX_A = 0x9908b0df

/** A Mersenne Twister state; every output is an unsigned 32-bit integer. */
export class Mt19937 {
  private readonly state = new Uint32Array(N)
  private index = N

  /** @param seed 32-bit seed; larger values are reduced modulo 2^32 (as torch does with `seed & 0xffffffff`). */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new RangeError(`rng: MT19937 seed must be a non-negative safe integer, got ${seed}`)
    }
    const mt = this.state
    mt[0] = seed % 0x100000000
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30)
      mt[i] = Math.imul(1812433253, prev) + i
    }
  }

  /**
   * A generator seeded by `init_by_array(key)` (mt19937ar.c), as CPython's `random.seed(n)` seeds with the 32-bit words
   * of |n|, least significant first.
   * @param key 32-bit words (each in `[0, 2^32)`), at least one
   */
  static fromKey(key: readonly number[]): Mt19937 {
    if (key.length === 0 || key.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffffffff)) {
      throw new RangeError(`rng: MT19937 init_by_array key must be one or more 32-bit words, got [${key.join(', ')}]`)
    }
    const g = new Mt19937(19650218)
    const mt = g.state
    let i = 1, j = 0
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30)
      mt[i] = (mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j
      i++; j++
      if (i >= N) { mt[0] = mt[N - 1]; i = 1 }
      if (j >= key.length) j = 0
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30)
      mt[i] = (mt[i] ^ Math.imul(prev, 1566083941)) - i
      i++
      if (i >= N) { mt[0] = mt[N - 1]; i = 1 }
    }
    mt[0] = UPPER // MSB is 1, assuring a non-zero initial array
    return g
  }

  /** Next output, an integer in `[0, 2^32)`. */
  nextUint32(): number {
    if (this.index >= N) this.twist()
    let y = this.state[this.index++]
    y ^= y >>> 11
    y ^= (y << 7) & 0x9d2c5680
    y ^= (y << 15) & 0xefc60000
    y ^= y >>> 18
    return y >>> 0
  }

  private twist(): void {
    const mt = this.state
    for (let k = 0; k < N; k++) {
      const y = (mt[k] & UPPER) | (mt[(k + 1) % N] & LOWER)
      mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)
    }
    this.index = 0
  }
}
