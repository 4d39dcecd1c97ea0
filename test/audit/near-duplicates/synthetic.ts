/**
 * Synthetic speech fingerprints for the near-duplicate search at scale (test/audit/near-duplicate-spill.test.ts,
 * bench/near-duplicates-scale.ts): row `i`'s fingerprint is made from `i` alone (so 10^7 rows need not be held),
 * random 32-bit words over `steps` loud steps and random band hashes (hashes of the row and the band: two rows
 * share one by chance as 32-bit hashes do, ≈ 3.7·10^5 candidate pairs at 10^7 rows), except for planted groups of 2 or 3 rows: a
 * base row and variants of it — its words shifted by 3 steps (96 ms) with 8% of the bits flipped (a bit error rate
 * ≈ 0.08, well under the 0.30 threshold; unrelated rows are ≈ 0.5 apart) and its first 8 band hashes kept, the
 * others new. Every 97th row that is not planted has no fingerprint (too short or silent).
 */
import { encodeFingerprint, lshBandCount, mix32, type Fingerprint } from '../../../src/engine/features/dsp/fingerprint.ts'

/** Options of {@link syntheticFingerprints}. */
export interface SyntheticOptions {
  /** Steps of every fingerprint (default 188: a 6 s clip, ≈ 0.9 kB a record). */
  steps?: number
  /** Band hashes are drawn from `[0, bandSpace)` (default 2^32; a small space makes many candidate buckets). */
  bandSpace?: number
  /** Planted groups (default 20). */
  groups?: number
  seed?: number
}

/** A synthetic set of `count` rows. */
export interface SyntheticSet {
  count: number
  /** Row `i`'s fingerprint, `null` when it has none. */
  fingerprint(i: number): Fingerprint | null
  /** Row `i`'s fingerprint as `encodeFingerprint` writes it. */
  record(i: number): Uint8Array | null
  /** The planted groups: rows ascending, base first. */
  groups: number[][]
}

/**
 * A xorshift32 generator seeded from `seed` and `i`: the seed is a bijection of `i` (never 0), so no two rows start
 * alike (setting a bit instead would give pairs of rows the same words and bands: ≈ 10^4 false clusters at 10^7 rows).
 */
function generator(seed: number, i: number): () => number {
  let s = mix32(Math.imul(seed + 1, 0x9e3779b9) ^ mix32(i + 0x51ed27)) || 0x6d2b79f5
  return () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return (s >>>= 0)
  }
}

/** The set: deterministic for the same `count` and options. */
export function syntheticFingerprints(count: number, options: SyntheticOptions = {}): SyntheticSet {
  const steps = options.steps ?? 188
  const space = options.bandSpace ?? 2 ** 32
  const seed = options.seed ?? 1
  const groupCount = Math.min(options.groups ?? 20, Math.floor(count / 8))
  const groups: number[][] = []
  // base row of each planted row
  const baseOf = new Map<number, number>()
  for (let k = 0; k < groupCount; k++) {
    const base = Math.floor(((k + 0.25) * count) / groupCount)
    const group = [base, base + 1 + (k % 3)]
    if (k % 4 === 1) group.push(base + 5)
    for (const r of group) baseOf.set(r, base)
    groups.push(group)
  }
  // band hashes from a hash of (row, band), not from the xorshift stream: every xorshift32 stream is a stretch of one
  // cycle, so two streams never agree at one place and random rows would never share a band hash by chance; the XOR
  // of two bijections of the row is not one, so two rows share a band's hash as often as random 32-bit values do
  const bandHash = (i: number, j: number, salt: number) => {
    const m = mix32((i ^ Math.imul(seed, 0x27d4eb2f) ^ salt) >>> 0)
    const h = (mix32((m + Math.imul(j + 1, 0x9e3779b9)) >>> 0) ^ mix32((m ^ Math.imul(j + 1, 0x85ebca6b)) >>> 0)) >>> 0
    return space >= 2 ** 32 ? h : h % space
  }
  const random = (i: number): Fingerprint => {
    const next = generator(seed, i)
    const words = new Uint32Array(steps)
    for (let n = 0; n < steps; n++) words[n] = next()
    const active = new Uint8Array((steps + 7) >> 3)
    for (let n = 2; n < steps; n++) active[n >> 3] |= 1 << (n & 7)
    const bands = new Uint32Array(lshBandCount)
    for (let j = 0; j < lshBandCount; j++) bands[j] = bandHash(i, j, 0)
    return { words, active, bands }
  }
  const fingerprint = (i: number): Fingerprint | null => {
    const base = baseOf.get(i)
    if (base === undefined) return i % 97 === 96 ? null : random(i)
    const fp = random(base)
    if (base === i) return fp
    const next = generator(seed + 7, i)
    const words = new Uint32Array(steps)
    for (let n = 0; n < steps; n++) {
      let flips = 0
      for (let b = 0; b < 32; b++) if (next() % 100 < 8) flips |= 1 << b
      words[n] = (fp.words[Math.min(steps - 1, n + 3)] ^ flips) >>> 0
    }
    const bands = fp.bands.slice()
    for (let j = 8; j < lshBandCount; j++) bands[j] = bandHash(i, j, 0x5bd1e995)
    return { words, active: fp.active, bands }
  }
  return {
    count, groups, fingerprint,
    record: (i) => {
      if (baseOf.has(i)) {
        const fp = fingerprint(i)
        return fp && encodeFingerprint(fp)
      }
      if (i % 97 === 96) return null
      // the random row written straight into encodeFingerprint's layout (what `random(i)` makes, without the objects)
      const next = generator(seed, i)
      const out = new Uint8Array(3 + 4 * lshBandCount + 4 * steps + ((steps + 7) >> 3))
      const view = new DataView(out.buffer)
      view.setUint16(0, steps, true)
      out[2] = lshBandCount
      const words = 3 + 4 * lshBandCount
      for (let n = 0; n < steps; n++) view.setUint32(words + 4 * n, next(), true)
      for (let j = 0; j < lshBandCount; j++) view.setUint32(3 + 4 * j, bandHash(i, j, 0), true)
      const mask = words + 4 * steps
      for (let n = 2; n < steps; n++) out[mask + (n >> 3)] |= 1 << (n & 7)
      return out
    },
  }
}
