/**
 * Python's `random` module: MT19937 seeded like `random.seed(int)` (init_by_array over the 32-bit words of |seed|),
 * `random()` (53-bit float from two outputs), `getrandbits(k)`, and `randint(a, b)` by rejection sampling with
 * `getrandbits(bit_length(n))`, on the pipeline's MT19937 (pipeline/rng/mt19937.ts). With the same integer seed it reproduces CPython 3's draws exactly, so a user can
 * replay what `random.seed(s)` would have given the reference SpecAugment (which itself never seeds: docs/reference-pipeline.md §12, §16).
 * See CPython Modules/_randommodule.c and Lib/random.py.
 */

import { Mt19937 } from './mt19937.ts'

/** CPython-compatible Mersenne Twister with the `random.Random` methods the reference uses. */
export class PythonRandom {
  private mt: Mt19937

  /** @param seed a non-negative or negative integer (|seed| is used, as CPython does); bigint for seeds ≥ 2^53 */
  constructor(seed: number | bigint) {
    this.mt = PythonRandom.seeded(seed)
  }

  /** `random.seed(seed)` for an integer seed. */
  seed(seed: number | bigint): void {
    this.mt = PythonRandom.seeded(seed)
  }

  /** `init_by_array` over the 32-bit words of |seed|, least significant first (CPython's random_seed). */
  private static seeded(seed: number | bigint): Mt19937 {
    if (typeof seed === 'number' && !Number.isSafeInteger(seed)) throw new Error(`random: seed must be a safe integer, got ${seed}`)
    let n = BigInt(seed)
    if (n < 0n) n = -n
    const key: number[] = []
    do { key.push(Number(n & 0xffffffffn)); n >>= 32n } while (n > 0n)
    return Mt19937.fromKey(key)
  }

  /** Next raw 32-bit output (genrand_uint32). */
  nextUint32(): number {
    return this.mt.nextUint32()
  }

  /** `random.random()`: a float in [0, 1) with 53 random bits. */
  random(): number {
    const a = this.nextUint32() >>> 5, b = this.nextUint32() >>> 6
    return (a * 67108864 + b) / 9007199254740992
  }

  /** `random.getrandbits(k)` for 0 ≤ k ≤ 53 (32-bit words, least significant first, as CPython). */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0 || k > 53) throw new Error(`random: getrandbits supports 0..53 bits here, got ${k}`)
    if (k === 0) return 0
    if (k <= 32) return this.nextUint32() >>> (32 - k)
    const low = this.nextUint32()
    const high = this.nextUint32() >>> (64 - k)
    return high * 4294967296 + low
  }

  /** `random.randint(a, b)`: uniform integer in [a, b], both inclusive. */
  randint(a: number, b: number): number {
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || b < a) {
      throw new Error(`random: empty range for randint(${a}, ${b})`)
    }
    const n = b - a + 1
    const k = n.toString(2).length
    let r = this.getrandbits(k)
    while (r >= n) r = this.getrandbits(k)
    return a + r
  }
}
