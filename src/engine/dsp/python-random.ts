/**
 * Python's `random` module: MT19937 seeded like `random.seed(int)` (init_by_array over the 32-bit words of |seed|),
 * `random()` (53-bit float from two outputs), `getrandbits(k)`, and `randint(a, b)` by rejection sampling with
 * `getrandbits(bit_length(n))`. With the same integer seed it reproduces CPython 3's draws exactly, so a user can
 * replay what `random.seed(s)` would have given the reference SpecAugment (which itself never seeds: docs/reference-pipeline.md §12, §16).
 * See CPython Modules/_randommodule.c and Lib/random.py.
 */

const N = 624
const M = 397

/** CPython-compatible Mersenne Twister with the `random.Random` methods the reference uses. */
export class PythonRandom {
  private readonly mt = new Uint32Array(N)
  private index = N + 1

  /** @param seed a non-negative or negative integer (|seed| is used, as CPython does); bigint for seeds ≥ 2^53 */
  constructor(seed: number | bigint) {
    this.seed(seed)
  }

  /** `random.seed(seed)` for an integer seed. */
  seed(seed: number | bigint): void {
    if (typeof seed === 'number' && !Number.isSafeInteger(seed)) throw new Error(`random: seed must be a safe integer, got ${seed}`)
    let n = BigInt(seed)
    if (n < 0n) n = -n
    const key: number[] = []
    do { key.push(Number(n & 0xffffffffn)); n >>= 32n } while (n > 0n)
    this.initByArray(key)
  }

  private initGenrand(s: number): void {
    const mt = this.mt
    mt[0] = s >>> 0
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30)
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0
    }
    this.index = N
  }

  private initByArray(key: number[]): void {
    const mt = this.mt
    this.initGenrand(19650218)
    let i = 1, j = 0
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30)
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0
      i++; j++
      if (i >= N) { mt[0] = mt[N - 1]; i = 1 }
      if (j >= key.length) j = 0
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30)
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0
      i++
      if (i >= N) { mt[0] = mt[N - 1]; i = 1 }
    }
    mt[0] = 0x80000000
  }

  /** Next raw 32-bit output (genrand_uint32). */
  nextUint32(): number {
    const mt = this.mt
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff)
        mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)
      }
      this.index = 0
    }
    let y = mt[this.index++]
    y ^= y >>> 11
    y ^= (y << 7) & 0x9d2c5680
    y ^= (y << 15) & 0xefc60000
    y ^= y >>> 18
    return y >>> 0
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
