/**
 * A compact perceptual fingerprint of speech for near-duplicate search (the deep audit's `near-duplicate-audio`):
 * what survives re-encoding at 20–32 kb/s, resampling, gain, trims of a few hundred ms and noise at 30 dB SNR.
 *
 * In the family of Haitsma & Kalker's fingerprint ("A Highly Robust Audio Fingerprinting System", ISMIR 2002: sign
 * bits of band-energy differences) and Chromaprint (acoustid/chromaprint, `src/fingerprinter.cpp`), tuned for speech:
 *
 * - the 16 kHz mono signal in 32 ms Hann frames every 16 ms (FFT 512), power summed into 17 mel-spaced bands over
 *   250–3,800 Hz (what Opus at 20 kb/s, MP3 at 32 kb/s and a trip through 8 kHz keep);
 * - one 32-bit word per step of 32 ms, from the log band energies summed over 4 frames (64 ms) around the step:
 *   bits 0–15 the spectro-temporal sign `(L[n,m] − L[n,m+1]) − (L[n−1,m] − L[n−1,m+1]) > 0` (Haitsma & Kalker's),
 *   bits 16–31 the temporal sign `L[n,m] − L[n−2,m] > 0` of bands 0–15. A gain scales every band alike, so no bit
 *   changes;
 * - a step is *quiet* when its energy is 40 dB under the clip's loudest step or under −65 dBFS; quiet steps (pauses,
 *   where noise decides the bits) are masked out of comparisons.
 *
 * Size: 4 bytes per 32 ms step plus one mask bit, 129 bytes a second (≈ 775 bytes for a 6 s clip); at most
 * {@link fingerprintMaxSteps} steps (the first 60 s). Two fingerprints compare by the bit error rate over their
 * aligned overlap, at the best of the offsets within ±{@link maxOffsetSteps} steps ({@link compareFingerprints}).
 */
import { RealFft } from './fft.ts'
import { hannWindow } from './window.ts'

/** Sample rate the fingerprint is computed at (Hz). */
export const fingerprintRate = 16000
const frameLength = 512
const frameHop = 256
/** Frames per step (the step is 2 × 16 ms = 32 ms). */
const stepFrames = 2
/** Frames summed per step's energies (4 × 16 ms hop → a 64 ms + 16 ms span). */
const spanFrames = 4
const bandCount = 17
const lowHz = 250
const highHz = 3800
/** Seconds per fingerprint step. */
export const fingerprintStepSeconds = (frameHop * stepFrames) / fingerprintRate
/** Steps kept at most (60 s). */
export const fingerprintMaxSteps = Math.round(60 / fingerprintStepSeconds)
/** Quiet: this many dB under the clip's loudest step. */
const quietBelowPeakDb = 40
/** Quiet: under this (dBFS of the step's mean band power, full scale 1). */
const quietFloorDb = -65
/** Offsets tried when comparing, in steps each way (±1.02 s). */
export const maxOffsetSteps = 32

/** A clip's fingerprint. */
export interface Fingerprint {
  /** One 32-bit word per step. */
  words: Uint32Array
  /** One bit per step, 1 = loud enough to compare (bit `i & 7` of byte `i >> 3`). */
  active: Uint8Array
  /**
   * Locality-sensitive hashes for the candidate search, {@link lshBandCount} of them (empty when the clip is too
   * short): band `j` hashes the minima of two MinHash functions over the clip's *slow keys* (per step, the signs of
   * the change of each band's mean log energy between the 8 steps before and the 8 after: shift-invariant as a set,
   * and what noise and codecs leave alone). Two clips whose slow-key sets have Jaccard similarity J share band `j`
   * with probability J².
   */
  bands: Uint32Array
}

function melOf(hz: number): number {
  return 1127 * Math.log(1 + hz / 700)
}

let bandTable: { first: Int32Array; last: Int32Array } | null = null
/** FFT bins of each band: [first, last] inclusive, mel-spaced edges between lowHz and highHz. */
function bands(): { first: Int32Array; last: Int32Array } {
  if (bandTable) return bandTable
  const first = new Int32Array(bandCount)
  const last = new Int32Array(bandCount)
  const lo = melOf(lowHz), hi = melOf(highHz)
  const binHz = fingerprintRate / frameLength
  for (let b = 0; b < bandCount; b++) {
    const from = 700 * (Math.exp((lo + ((hi - lo) * b) / bandCount) / 1127) - 1)
    const to = 700 * (Math.exp((lo + ((hi - lo) * (b + 1)) / bandCount) / 1127) - 1)
    first[b] = Math.round(from / binHz)
    last[b] = Math.max(first[b], Math.round(to / binHz) - 1)
  }
  return (bandTable = { first, last })
}

/**
 * The fingerprint of a 16 kHz mono signal (full scale 1).
 * @returns `null` when the clip is shorter than 4 steps (about 0.2 s) or has no step loud enough
 */
export function speechFingerprint(signal: Float32Array): Fingerprint | null {
  const frames = signal.length < frameLength ? 0 : Math.floor((signal.length - frameLength) / frameHop) + 1
  const usableFrames = Math.min(frames, fingerprintMaxSteps * stepFrames + spanFrames)
  const steps = Math.min(fingerprintMaxSteps, Math.floor((usableFrames - spanFrames) / stepFrames) + 1)
  if (!(steps >= 4)) return null
  const { first, last } = bands()
  const window = hannWindow(frameLength)
  const fft = new RealFft(frameLength)
  const frame = new Float64Array(frameLength)
  const spectrum = new Float64Array(2 * fft.bins)
  const power = new Float64Array(usableFrames * bandCount)
  for (let f = 0; f < usableFrames; f++) {
    const at = f * frameHop
    for (let i = 0; i < frameLength; i++) frame[i] = signal[at + i] * window[i]
    fft.forward(spectrum, frame)
    for (let b = 0; b < bandCount; b++) {
      let sum = 0
      for (let k = first[b]; k <= last[b]; k++) sum += spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]
      power[f * bandCount + b] = sum
    }
  }
  // log band energy per step, summed over the step's span; the energy floor keeps digital silence finite
  const floor = 1e-10 * frameLength
  const logs = new Float64Array(steps * bandCount)
  const loudness = new Float64Array(steps)
  let peak = -Infinity
  for (let n = 0; n < steps; n++) {
    let total = 0
    for (let b = 0; b < bandCount; b++) {
      let sum = 0
      for (let f = n * stepFrames; f < n * stepFrames + spanFrames; f++) sum += power[f * bandCount + b]
      logs[n * bandCount + b] = Math.log(sum + floor)
      total += sum
    }
    // mean band power per frame, as dBFS of a full-scale sine through the Hann window (Σw² = N·3/8, |X|² ≈ (N/4)²)
    const db = 10 * Math.log10(total / spanFrames / ((frameLength / 4) ** 2) + 1e-20)
    loudness[n] = db
    if (db > peak) peak = db
  }
  const words = new Uint32Array(steps)
  const active = new Uint8Array((steps + 7) >> 3)
  let loud = 0
  for (let n = 0; n < steps; n++) {
    if (loudness[n] >= Math.max(quietFloorDb, peak - quietBelowPeakDb) && n >= 2) {
      active[n >> 3] |= 1 << (n & 7)
      loud++
    }
    if (n < 2) continue
    let word = 0
    const l = n * bandCount, p = (n - 1) * bandCount, q = (n - 2) * bandCount
    for (let m = 0; m < 16; m++) {
      if ((logs[l + m] - logs[l + m + 1]) - (logs[p + m] - logs[p + m + 1]) > 0) word |= 1 << m
      if (logs[l + m] - logs[q + m] > 0) word |= 1 << (16 + m)
    }
    words[n] = word >>> 0
  }
  return loud === 0 ? null : { words, active, bands: minHashBands(slowKeys(logs, loudness, steps, Math.max(quietFloorDb, peak - quietBelowPeakDb))) }
}

/** LSH bands per fingerprint (each of two MinHash rows). */
export const lshBandCount = 32

/** murmur3's 32-bit finalizer (band hashes, and which slice of the near-duplicate search a band hash falls in). */
export function mix32(x: number): number {
  x ^= x >>> 16
  x = Math.imul(x, 0x85ebca6b)
  x ^= x >>> 13
  x = Math.imul(x, 0xc2b2ae35)
  x ^= x >>> 16
  return x >>> 0
}

/** `lshBandCount` band hashes of the MinHash signature of `keys` (none when there are no keys). */
function minHashBands(keys: readonly number[]): Uint32Array {
  if (keys.length === 0) return new Uint32Array(0)
  const bands = new Uint32Array(lshBandCount)
  for (let j = 0; j < lshBandCount; j++) {
    const seedA = mix32(0x9e3779b9 + 2 * j), seedB = mix32(0x9e3779b9 + 2 * j + 1)
    let a = 0xffffffff, b = 0xffffffff
    for (const k of keys) {
      const ha = mix32(k ^ seedA), hb = mix32(k ^ seedB)
      if (ha < a) a = ha
      if (hb < b) b = hb
    }
    bands[j] = mix32(mix32(a ^ Math.imul(j + 1, 0x27d4eb2f)) ^ b)
  }
  return bands
}

/** Window of the slow keys, in steps, each side (8 × 32 ms). */
const slowWindow = 8
/** Slow keys: per step, the signs of the change of mean log energy per band between the window before and after. */
function slowKeys(logs: Float64Array, loudness: Float64Array, steps: number, quiet: number): number[] {
  const keys = new Set<number>()
  const w = slowWindow
  for (let n = w; n + w <= steps; n++) {
    let loud = 0
    for (let k = n - w; k < n + w; k++) if (loudness[k] >= quiet) loud++
    if (loud < w) continue
    let key = 0
    for (let m = 0; m < 16; m++) {
      let d = 0
      for (let k = 0; k < w; k++) d += logs[(n + k) * bandCount + m] - logs[(n - w + k) * bandCount + m]
      if (d > 0) key |= 1 << m
    }
    keys.add(key >>> 0)
  }
  return [...keys]
}

/** Whether step `i` is loud enough to compare. */
export function isActiveStep(fp: Fingerprint, i: number): boolean {
  return (fp.active[i >> 3] & (1 << (i & 7))) !== 0
}

/** Loud steps of a fingerprint. */
export function activeSteps(fp: Fingerprint): number {
  let n = 0
  for (let i = 0; i < fp.words.length; i++) if (isActiveStep(fp, i)) n++
  return n
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}

/** How two fingerprints compare at their best offset. */
export interface FingerprintMatch {
  /** Bit error rate over the steps loud in both, at `offset` (0 = identical bits, ≈ 0.5 = unrelated). */
  ber: number
  /** Step `i` of `a` is aligned with step `i + offset` of `b`. */
  offset: number
  /** Steps loud in both at that offset. */
  overlap: number
  /** `overlap` over the loud steps of the fingerprint with fewer of them. */
  coverage: number
}

/**
 * The best alignment of two fingerprints: the lowest bit error rate over offsets within ±`maxOffsetSteps`, among
 * offsets whose overlap covers at least half the loud steps of the shorter (and at least 16 steps).
 * @returns `null` when no offset overlaps enough
 */
export function compareFingerprints(a: Fingerprint, b: Fingerprint, maxOffset = maxOffsetSteps): FingerprintMatch | null {
  const loudA = activeSteps(a), loudB = activeSteps(b)
  const needed = Math.max(16, Math.ceil(0.5 * Math.min(loudA, loudB)))
  let best: FingerprintMatch | null = null
  for (let d = -maxOffset; d <= maxOffset; d++) {
    let errors = 0, overlap = 0
    const from = Math.max(0, -d), to = Math.min(a.words.length, b.words.length - d)
    for (let i = from; i < to; i++) {
      if (!isActiveStep(a, i) || !isActiveStep(b, i + d)) continue
      errors += popcount(a.words[i] ^ b.words[i + d])
      overlap++
    }
    if (overlap < needed) continue
    const ber = errors / (32 * overlap)
    if (!best || ber < best.ber) best = { ber, offset: d, overlap, coverage: overlap / Math.min(loudA, loudB) }
  }
  return best
}

/** A fingerprint as bytes: steps (u16), bands (u8), the band hashes and the words (little-endian u32), the mask. */
export function encodeFingerprint(fp: Fingerprint): Uint8Array {
  const n = fp.words.length, b = fp.bands.length
  const out = new Uint8Array(3 + 4 * b + 4 * n + fp.active.length)
  const view = new DataView(out.buffer)
  view.setUint16(0, n, true)
  out[2] = b
  fp.bands.forEach((w, i) => view.setUint32(3 + 4 * i, w, true))
  fp.words.forEach((w, i) => view.setUint32(3 + 4 * b + 4 * i, w, true))
  out.set(fp.active, 3 + 4 * b + 4 * n)
  return out
}

/**
 * Checks that `bytes` have the layout {@link encodeFingerprint} writes (their length agrees with their header).
 * @throws when they do not
 */
export function checkFingerprintBytes(bytes: Uint8Array): void {
  const n = bytes.length >= 3 ? bytes[0] | (bytes[1] << 8) : -1
  if (n < 0 || bytes.length !== 3 + 4 * bytes[2] + 4 * n + ((n + 7) >> 3)) throw new Error(`fingerprint: ${bytes.length} bytes are not a fingerprint`)
}

/**
 * The inverse of {@link encodeFingerprint}.
 * @throws when the bytes are not a fingerprint's
 */
export function decodeFingerprint(bytes: Uint8Array): Fingerprint {
  checkFingerprintBytes(bytes)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const n = view.getUint16(0, true)
  const b = bytes[2]
  const bands = new Uint32Array(b)
  for (let i = 0; i < b; i++) bands[i] = view.getUint32(3 + 4 * i, true)
  const words = new Uint32Array(n)
  for (let i = 0; i < n; i++) words[i] = view.getUint32(3 + 4 * b + 4 * i, true)
  return { words, active: bytes.slice(3 + 4 * b + 4 * n), bands }
}

const base64Chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Bytes as base64 (how a fingerprint travels in JSON: the audit state, shard parts). */
export function toBase64(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const x = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    out += base64Chars[x >> 18] + base64Chars[(x >> 12) & 63] + (i + 1 < bytes.length ? base64Chars[(x >> 6) & 63] : '=') + (i + 2 < bytes.length ? base64Chars[x & 63] : '=')
  }
  return out
}

/**
 * The inverse of {@link toBase64}.
 * @throws on a character outside the base64 alphabet or a length not a multiple of 4
 */
export function fromBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new Error(`fingerprint: base64 of length ${text.length} is not a multiple of 4`)
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
  const out = new Uint8Array((text.length / 4) * 3 - pad)
  for (let i = 0, o = 0; i < text.length; i += 4) {
    let x = 0
    for (let k = 0; k < 4; k++) {
      const c = text[i + k]
      const v = c === '=' ? 0 : base64Chars.indexOf(c)
      if (v < 0) throw new Error(`fingerprint: ${JSON.stringify(c)} at ${i + k} is not base64`)
      x = (x << 6) | v
    }
    if (o < out.length) out[o++] = x >> 16
    if (o < out.length) out[o++] = (x >> 8) & 255
    if (o < out.length) out[o++] = x & 255
  }
  return out
}
