import { describe, expect, it } from 'vitest'
import { resample } from '../../src/engine/audio/resample.ts'

/** Linear sine sweep from f0 to f1 Hz over `seconds`, sampled at `rate`: sin(2π(f0·t + (f1−f0)·t²/(2T))). */
function sweep(rate: number, seconds: number, f0: number, f1: number, amp = 0.9): Float32Array {
  const n = Math.round(rate * seconds)
  const out = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    const t = i / rate
    out[i] = amp * Math.sin(2 * Math.PI * (f0 * t + ((f1 - f0) * t * t) / (2 * seconds)))
  }
  return out
}

function tone(rate: number, n: number, f: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => Math.sin((2 * Math.PI * f * i) / rate))
}

/** Max |error| away from the edges (0.1 s each side), where zero padding outside the signal does not reach. */
function maxInteriorError(got: Float32Array, want: Float32Array, rate: number): number {
  let m = 0
  for (let i = Math.round(rate * 0.1); i < want.length - Math.round(rate * 0.1); i++) m = Math.max(m, Math.abs(got[i] - want[i]))
  return m
}

/** The bound stated in resample.ts: passband error below 3e-5 of full scale (measured ≤ 1.1e-5). */
const SWEEP_ERROR_BOUND = 3e-5

describe('resample (Kaiser windowed sinc)', () => {
  for (const [from, to] of [[48000, 16000], [16000, 48000], [44100, 16000], [16000, 44100], [22050, 16000], [16000, 24000]]) {
    it(`${from} → ${to} Hz: a sweep up to 0.9 × the lower Nyquist comes out within ${SWEEP_ERROR_BOUND} of the exact sweep`, () => {
      const top = 0.9 * Math.min(from, to) / 2
      const got = resample(sweep(from, 1, 20, top), from, to)
      const want = sweep(to, 1, 20, top)
      expect(got.length).toBe(Math.ceil(from * 1 * to / from))
      const err = maxInteriorError(got, want, to)
      expect(err).toBeLessThan(SWEEP_ERROR_BOUND)
    })
  }
  it('48 → 16 kHz: a 10 kHz tone (above the new Nyquist) is attenuated by more than 90 dB', () => {
    const got = resample(tone(48000, 48000, 10000), 48000, 16000)
    let peak = 0
    for (let i = 1600; i < got.length - 1600; i++) peak = Math.max(peak, Math.abs(got[i]))
    expect(20 * Math.log10(peak)).toBeLessThan(-90)
  })
  it('an awkward ratio without a phase table (16001 → 16000) still interpolates a 1 kHz tone', () => {
    const got = resample(tone(16001, 16001, 1000), 16001, 16000)
    expect(got.length).toBe(16000)
    expect(maxInteriorError(got, tone(16000, 16000, 1000), 16000)).toBeLessThan(SWEEP_ERROR_BOUND)
  })
  it('output length is ceil(n · to / from); equal rates return the input', () => {
    expect(resample(new Float32Array(89619), 48000, 16000).length).toBe(29873)
    expect(resample(new Float32Array(10), 48000, 16000).length).toBe(4)
    const x = new Float32Array(5)
    expect(resample(x, 16000, 16000)).toBe(x)
    expect(() => resample(x, 0, 16000)).toThrow(/resample: rates must be positive integers \(got 0 → 16000 Hz\)/)
  })
})
