/**
 * FFTs in double precision, writing into caller-owned interleaved `[re, im, …]` Float64Arrays (nothing allocated per call).
 * Power-of-two sizes use radix-4 (fft-radix.ts; Kaldi's fbank pads frames to 512), other sizes Bluestein's chirp-z
 * (fft-bluestein.ts; the reference SpecAugment STFT uses n_fft 400). A real FFT of even size N runs one complex FFT of
 * N/2 plus a split step. Kaldi computes its FFT in double too (KNF:rfft.cc), so this is the accuracy bar.
 */
import { isPowerOfTwo, type ComplexFft } from './complex-fft.ts'
import { BluesteinFft } from './fft-bluestein.ts'
import { RadixTwoFft } from './fft-radix.ts'

/** A complex FFT of `size`: radix-4/2 when `size` is a power of two, else Bluestein. */
export function makeFft(size: number): ComplexFft {
  return isPowerOfTwo(size) ? new RadixTwoFft(size) : new BluesteinFft(size)
}

/** The tables of {@link RealFft.forward} for an even size whose half is a power of two (see {@link RealFft.plan}). */
export interface RealFftPlan {
  /** N/2, the size of the complex FFT. */
  half: number
  /** Of the radix-4/2 complex FFT of `half` (fft-radix.ts `forwardPlan`). */
  reversed: Uint32Array
  firstRadix: number
  twiddles: Float64Array
  /** `[half]` cos(2πk/N), sin(2πk/N) of the split step. */
  splitCos: Float64Array
  splitSin: Float64Array
}

/**
 * Real FFT of a fixed size: one-sided spectrum X_0..X_{N/2} of a real frame, and its inverse (C2R, like numpy/torch irfft:
 * imaginary parts of X_0 and, for even N, X_{N/2} are ignored).
 * Even N: the frame read as N/2 complex values z_m = x_{2m} + i·x_{2m+1} (the same memory layout) goes through one
 * complex FFT of N/2, then X_k = E_k + e^{-2πik/N}·O_k with E_k = (Z_k + Z*_{N/2−k})/2, O_k = (Z_k − Z*_{N/2−k})/(2i).
 * Odd N: one complex FFT of N on the zero-imaginary frame.
 */
export class RealFft {
  readonly size: number
  /** Number of one-sided bins, ⌊N/2⌋ + 1. */
  readonly bins: number
  /** Complex FFT of N/2 (even N) or N (odd N). */
  private readonly fft: ComplexFft
  /** Interleaved complex `[fft.size]`. */
  private readonly buffer: Float64Array
  /** Even N: `[N/2]` cos(2πk/N) and sin(2πk/N) of the split step. */
  private readonly splitCos: Float64Array
  private readonly splitSin: Float64Array

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`dsp: real FFT size must be a positive integer, got ${size}`)
    this.size = size
    this.bins = Math.floor(size / 2) + 1
    const half = size % 2 === 0 ? size / 2 : 0
    this.fft = makeFft(half || size)
    this.buffer = new Float64Array(2 * this.fft.size)
    this.splitCos = new Float64Array(half)
    this.splitSin = new Float64Array(half)
    for (let k = 0; k < half; k++) {
      this.splitCos[k] = Math.cos((2 * Math.PI * k) / size)
      this.splitSin[k] = Math.sin((2 * Math.PI * k) / size)
    }
  }

  /** The tables {@link forward} uses, when N is even and N/2 a power of two (radix path); null otherwise (Bluestein). */
  plan(): RealFftPlan | null {
    if (!(this.fft instanceof RadixTwoFft)) return null
    if (this.size % 2 === 1) return null
    return { half: this.size / 2, ...this.fft.forwardPlan(), splitCos: this.splitCos, splitSin: this.splitSin }
  }

  /** `out` interleaved complex `[bins]` (length 2·bins) ← real `input` (first `size` values; missing values are 0). */
  forward(out: Float64Array, input: ArrayLike<number>): void {
    const n = this.size, buf = this.buffer
    const m = Math.min(n, input.length)
    if (n % 2 === 1) {
      buf.fill(0)
      for (let i = 0; i < m; i++) buf[2 * i] = input[i]
      this.fft.transform(buf, buf)
      out.set(buf.subarray(0, 2 * this.bins))
      return
    }
    if (m === n && input instanceof Float64Array) this.fft.transform(buf, input) // reads only input[0 .. n)
    else {
      for (let i = 0; i < m; i++) buf[i] = input[i]
      buf.fill(0, m)
      this.fft.transform(buf, buf)
    }
    this.split(out)
  }

  /**
   * Even N: one-sided `out` `[N/2 + 1]` from the half-size spectrum Z in this.buffer. Bins k and h−k come from the same
   * Z_k, Z_{h−k}: E_{h−k} = E*_k, O_{h−k} = O*_k and e^{-2πi(h−k)/N} = −(e^{-2πik/N})*, so X_{h−k} = (E_k − W^k·O_k)*.
   */
  private split(out: Float64Array): void {
    const h = this.size >> 1, z = this.buffer, c = this.splitCos, s = this.splitSin
    out[0] = z[0] + z[1]; out[1] = 0
    out[2 * h] = z[0] - z[1]; out[2 * h + 1] = 0
    for (let k = 1, j = h - 1; k <= j; k++, j--) {
      const zr = z[2 * k], zi = z[2 * k + 1], yr = z[2 * j], yi = z[2 * j + 1]
      const er = 0.5 * (zr + yr), ei = 0.5 * (zi - yi) // E_k
      const or = 0.5 * (zi + yi), oi = 0.5 * (yr - zr) // O_k
      const wr = c[k], wi = -s[k] // W^k = e^{-2πik/N}
      const pr = wr * or - wi * oi, pi = wr * oi + wi * or // W^k·O_k
      out[2 * j] = er - pr; out[2 * j + 1] = pi - ei // written first: for k = j (h even, k = h/2) X_k wins
      out[2 * k] = er + pr; out[2 * k + 1] = ei + pi
    }
  }

  /** Real `out` `[size]` ← inverse of one-sided `spectrum` (interleaved `[bins]`), scaled by 1/N. */
  inverse(out: Float64Array, spectrum: Float64Array): void {
    const n = this.size, buf = this.buffer, bins = this.bins
    if (n % 2 === 1) {
      for (let k = 0; k < bins; k++) { buf[2 * k] = spectrum[2 * k]; buf[2 * k + 1] = spectrum[2 * k + 1] }
      buf[1] = 0
      for (let k = bins; k < n; k++) { buf[2 * k] = buf[2 * (n - k)]; buf[2 * k + 1] = -buf[2 * (n - k) + 1] }
      this.fft.transform(buf, buf, true)
      for (let i = 0; i < n; i++) out[i] = buf[2 * i] / n
      return
    }
    // Z_k = E_k + i·O_k with E_k = (X_k + X*_{h−k})/2, O_k = (X_k − X*_{h−k})·e^{+2πik/N}/2; x = IFFT_h(Z)/h interleaved
    const h = n >> 1, c = this.splitCos, s = this.splitSin
    for (let k = 0; k < h; k++) {
      const j = h - k
      const xr = spectrum[2 * k], xi = k === 0 ? 0 : spectrum[2 * k + 1]
      const yr = spectrum[2 * j], yi = j === h ? 0 : spectrum[2 * j + 1]
      const er = 0.5 * (xr + yr), ei = 0.5 * (xi - yi)
      const dr = 0.5 * (xr - yr), di = 0.5 * (xi + yi)
      const wr = c[k], wi = s[k]
      const or = dr * wr - di * wi, oi = dr * wi + di * wr
      buf[2 * k] = er - oi; buf[2 * k + 1] = ei + or
    }
    this.fft.transform(buf, buf, true)
    for (let i = 0; i < n; i++) out[i] = buf[i] / h
  }
}
