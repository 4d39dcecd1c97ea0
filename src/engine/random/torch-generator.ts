/**
 * PyTorch's CPU generator (`at::CPUGeneratorImpl`) as fairseq2's native data sources use it:
 * MT19937 seeded with `manual_seed(seed)`; `random()` = one output; `random64()` = two outputs, the first
 * one being the high 32 bits; `uniform_real<float>(random(), 0, 1)` = `(x & 0xFFFFFF) * 2^-24`.
 * docs/reference-pipeline.md §5 and §16; verified against torch (test/fixtures/rng/make_rng_fixtures.py).
 */
import { Mt19937 } from './mt19937.ts'

const TWO_POW_32 = 0x100000000
const TWO_POW_M24 = 2 ** -24
/** Largest modulus for which `(hi % s) * 2^32 + lo` stays below 2^53 (exact in a double). */
const FAST_MOD_LIMIT = 2 ** 21

/** A torch CPU generator after `manual_seed(seed)`. */
export class TorchGenerator {
  private readonly mt: Mt19937

  /** @param seed seed as given to `manual_seed`; only its low 32 bits matter (torch keeps `seed & 0xffffffff`). */
  constructor(seed: number) {
    this.mt = new Mt19937(seed % TWO_POW_32)
  }

  /** `random()`: one 32-bit output, in `[0, 2^32)`. */
  random(): number {
    return this.mt.nextUint32()
  }

  /** `random64()` as a BigInt in `[0, 2^64)`: high 32 bits first, then low. */
  random64(): bigint {
    const hi = this.mt.nextUint32()
    const lo = this.mt.nextUint32()
    return (BigInt(hi) << 32n) | BigInt(lo)
  }

  /**
   * `random64() % s`, exact for any `s` in `[1, 2^53)`: used by fairseq2's `shuffle` (`idx = r % s`).
   * Consumes two outputs, like `random64()`.
   */
  random64Mod(s: number): number {
    if (!Number.isSafeInteger(s) || s < 1) throw new RangeError(`rng: modulus must be a positive safe integer, got ${s}`)
    const hi = this.mt.nextUint32()
    const lo = this.mt.nextUint32()
    if (s <= FAST_MOD_LIMIT) return ((hi % s) * TWO_POW_32 + lo) % s
    return Number(((BigInt(hi) << 32n) | BigInt(lo)) % BigInt(s))
  }

  /**
   * `uniform_real<float>(random(), 0, 1)`: `(random() & 0xFFFFFF) * 2^-24`, a float32 in `[0, 1)`
   * (exact as a double too). One output per draw; what fairseq2's `sample` uses to pick a partition.
   */
  uniformFloat(): number {
    return (this.mt.nextUint32() & 0xffffff) * TWO_POW_M24
  }
}
