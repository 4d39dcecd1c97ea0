/**
 * MT19937, the 32-bit Mersenne Twister (Matsumoto & Nishimura 1998), seeded with the standard `init_genrand`.
 * Both RNGs of the reference use it: numpy's legacy `RandomState(seed)` (integer seeds go through `init_genrand`)
 * and PyTorch's CPU generator (`at::mt19937`, `init_with_uint32`). docs/reference-pipeline.md §16.
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
