/**
 * numpy's legacy `RandomState(seed)`, only what the reference uses: `permutation(n)`.
 * Verified against numpy (test/fixtures/rng/make_rng_fixtures.py). docs/reference-pipeline.md §6 step 2.
 */
import { Mt19937 } from './mt19937.ts'

/** numpy legacy `RandomState` with an integer seed (MT19937 `init_genrand`). */
export class NumpyRandomState {
  private readonly mt: Mt19937

  /** @param seed integer in `[0, 2^32)`, as numpy requires for legacy seeding. */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`rng: numpy RandomState seed must be an integer in [0, 2**32), got ${seed}`)
    }
    this.mt = new Mt19937(seed)
  }

  /**
   * numpy `random_interval(max)`: a uniform integer in `[0, max]` by masked rejection.
   * Uses one 32-bit output per try (numpy does the same while `max <= 0xffffffff`, the only case here).
   */
  randomInterval(max: number): number {
    if (max === 0) return 0
    if (max > 0xffffffff) throw new RangeError(`rng: random_interval max above 2**32-1 is not supported, got ${max}`)
    let mask = max
    mask |= mask >>> 1
    mask |= mask >>> 2
    mask |= mask >>> 4
    mask |= mask >>> 8
    mask |= mask >>> 16
    mask >>>= 0
    for (;;) {
      const value = (this.mt.nextUint32() & mask) >>> 0
      if (value <= max) return value
    }
  }

  /**
   * `RandomState.permutation(n)`: Fisher-Yates from the end, `j = random_interval(i)` for `i = n-1 .. 1`.
   * The same order applies to `permutation(list)` of n objects (item k of the result = `list[result[k]]`).
   * @returns indices `[n]`, a permutation of `0..n-1`.
   */
  permutation(n: number): Uint32Array {
    const out = new Uint32Array(n)
    for (let i = 0; i < n; i++) out[i] = i
    for (let i = n - 1; i >= 1; i--) {
      const j = this.randomInterval(i)
      const t = out[i]
      out[i] = out[j]
      out[j] = t
    }
    return out
  }
}
