/**
 * numpy's `np.random.default_rng(seed)` (numpy 1.24): a `SeedSequence` hashing the seed into four 64-bit words,
 * `PCG64` (128-bit LCG, XSL-RR output) seeded from them, and the two draws the reference dataprep's shuffle uses:
 * `Generator.integers(0, n)` (Lemire's bounded method on 32-bit draws) and the interval draw of
 * `Generator.shuffle` (masked rejection). Sources: numpy `random/bit_generator.pyx` (SeedSequence),
 * `random/src/pcg64/pcg64.h`, `random/src/distributions/distributions.c` (`random_interval`,
 * `buffered_bounded_lemire_uint32`). Tested against Debian's numpy.
 */

const MASK32 = 0xffffffff
const MASK64 = (1n << 64n) - 1n
const MASK128 = (1n << 128n) - 1n
const PCG_MULTIPLIER = 0x2360ed051fc65da44385df649fccf645n

/** 32-bit multiply modulo 2^32. */
const mul32 = (a: number, b: number) => Math.imul(a, b) >>> 0

/** `SeedSequence(seed).generate_state(words, uint32)` for one non-negative integer seed below 2^32. */
export function seedSequenceState(seed: number, words: number): Uint32Array {
  if (!Number.isInteger(seed) || seed < 0 || seed > MASK32) throw new Error(`numpy: seed must be an integer in [0, 2^32), got ${seed}`)
  const poolSize = 4
  const pool = new Uint32Array(poolSize)
  let hashConst = 0x43b0d7e5
  const hashmix = (value: number) => {
    value = (value ^ hashConst) >>> 0
    hashConst = mul32(hashConst, 0x931e8875)
    value = mul32(value, hashConst)
    return (value ^ (value >>> 16)) >>> 0
  }
  const mix = (x: number, y: number) => {
    const r = (mul32(0xca01f9dd, x) - mul32(0x4973f715, y)) >>> 0
    return (r ^ (r >>> 16)) >>> 0
  }
  const entropy = [seed]
  for (let i = 0; i < poolSize; i++) pool[i] = hashmix(i < entropy.length ? entropy[i] : 0)
  for (let src = 0; src < poolSize; src++) {
    for (let dst = 0; dst < poolSize; dst++) if (src !== dst) pool[dst] = mix(pool[dst], hashmix(pool[src]))
  }
  const out = new Uint32Array(words)
  let constB = 0x8b51f9dd
  for (let i = 0; i < words; i++) {
    let v = (pool[i % poolSize] ^ constB) >>> 0
    constB = mul32(constB, 0x58f38ded)
    v = mul32(v, constB)
    out[i] = (v ^ (v >>> 16)) >>> 0
  }
  return out
}

/** numpy's `Generator(PCG64(SeedSequence(seed)))`, the draws the dataprep's shuffle needs. */
export class NumpyGenerator {
  private state: bigint
  private readonly inc: bigint
  private spare: number | null = null

  constructor(seed: number) {
    const w = seedSequenceState(seed, 8)
    // generate_state(4, uint64): little-endian pairs of 32-bit words
    const u64 = (i: number) => (BigInt(w[2 * i + 1]) << 32n) | BigInt(w[2 * i])
    const initState = (u64(0) << 64n) | u64(1)
    const initSeq = (u64(2) << 64n) | u64(3)
    this.inc = ((initSeq << 1n) | 1n) & MASK128
    this.state = 0n
    this.step()
    this.state = (this.state + initState) & MASK128
    this.step()
  }

  private step(): void {
    this.state = (this.state * PCG_MULTIPLIER + this.inc) & MASK128
  }

  /** `pcg64_next64`: XSL-RR of the stepped state. */
  next64(): bigint {
    this.step()
    const s = this.state
    const x = ((s >> 64n) ^ s) & MASK64
    const rot = Number(s >> 122n)
    return ((x >> BigInt(rot)) | (x << BigInt((64 - rot) & 63))) & MASK64
  }

  /** `pcg64_next32`: the low half of a 64-bit draw, then its high half. */
  next32(): number {
    if (this.spare !== null) {
      const v = this.spare
      this.spare = null
      return v
    }
    const v = this.next64()
    this.spare = Number(v >> 32n)
    return Number(v & 0xffffffffn)
  }

  /** `Generator.integers(0, high)` for one value (`high` ≤ 2^32): Lemire's bounded draw. */
  integer(high: number): number {
    const rng = high - 1
    if (rng === 0) return 0
    const excl = high
    const draw = () => {
      const m = BigInt(this.next32()) * BigInt(excl)
      return { hi: Number(m >> 32n), lo: Number(m & 0xffffffffn) }
    }
    let m = draw()
    if (m.lo < excl) {
      const threshold = (MASK32 - rng) % excl
      while (m.lo < threshold) m = draw()
    }
    return m.hi
  }

  /** `random_interval(max)`: a value in [0, max] by masked rejection on 32-bit draws (`max` < 2^32). */
  interval(max: number): number {
    if (max === 0) return 0
    let mask = max
    mask |= mask >>> 1
    mask |= mask >>> 2
    mask |= mask >>> 4
    mask |= mask >>> 8
    mask |= mask >>> 16
    let value: number
    do value = (this.next32() & mask) >>> 0
    while (value > max)
    return value
  }

  /** `Generator.shuffle(list)` in place (untyped path: Fisher–Yates from the end). */
  shuffle<T>(items: T[]): void {
    for (let i = items.length - 1; i >= 1; i--) {
      const j = this.interval(i)
      const t = items[i]
      items[i] = items[j]
      items[j] = t
    }
  }
}
