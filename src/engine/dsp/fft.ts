/**
 * FFTs in double precision, writing into caller-owned interleaved `[re, im, …]` Float64Arrays (nothing allocated per call).
 * Radix-2 for powers of two (Kaldi's fbank pads frames to 512), Bluestein's chirp-z for other sizes (the reference
 * SpecAugment STFT uses n_fft 400). Kaldi computes its FFT in double too (KNF:rfft.cc), so this is the accuracy bar.
 * See https://en.wikipedia.org/wiki/Chirp_Z-transform#Bluestein's_algorithm.
 */

/** A complex FFT of one fixed size, forward (e^{-2πikn/N}) or inverse (e^{+2πikn/N}, unscaled). */
export interface ComplexFft {
  readonly size: number
  /** `out[2k], out[2k+1]` = X_k for k < size; `input` and `out` are interleaved complex, length 2·size; may alias. */
  transform(out: Float64Array, input: Float64Array, inverse?: boolean): void
}

/** True when `n` is a power of two ≥ 1. */
export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0
}

/** Iterative radix-2 FFT with precomputed twiddles and bit-reversal table. */
export class RadixTwoFft implements ComplexFft {
  readonly size: number
  private readonly cos: Float64Array
  private readonly sin: Float64Array
  private readonly reversed: Uint32Array

  constructor(size: number) {
    if (!isPowerOfTwo(size)) throw new Error(`dsp: radix-2 FFT size must be a power of two, got ${size}`)
    this.size = size
    this.cos = new Float64Array(size / 2)
    this.sin = new Float64Array(size / 2)
    for (let k = 0; k < size / 2; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / size)
      this.sin[k] = Math.sin((2 * Math.PI * k) / size)
    }
    this.reversed = new Uint32Array(size)
    const bits = Math.log2(size)
    for (let i = 0; i < size; i++) {
      let r = 0
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b)
      this.reversed[i] = r
    }
  }

  transform(out: Float64Array, input: Float64Array, inverse = false): void {
    const n = this.size
    if (out !== input) out.set(input.subarray(0, 2 * n))
    for (let i = 0; i < n; i++) {
      const j = this.reversed[i]
      if (j > i) {
        const re = out[2 * i], im = out[2 * i + 1]
        out[2 * i] = out[2 * j]; out[2 * i + 1] = out[2 * j + 1]
        out[2 * j] = re; out[2 * j + 1] = im
      }
    }
    const sign = inverse ? 1 : -1
    for (let half = 1; half < n; half *= 2) {
      const step = n / (2 * half)
      for (let start = 0; start < n; start += 2 * half) {
        for (let k = 0; k < half; k++) {
          const wr = this.cos[k * step], wi = sign * this.sin[k * step]
          const a = 2 * (start + k), b = 2 * (start + k + half)
          const br = out[b] * wr - out[b + 1] * wi
          const bi = out[b] * wi + out[b + 1] * wr
          out[b] = out[a] - br; out[b + 1] = out[a + 1] - bi
          out[a] += br; out[a + 1] += bi
        }
      }
    }
  }
}

/** Bluestein (chirp-z) FFT for any size ≥ 1, built on a radix-2 FFT of size ≥ 2N−1. */
export class BluesteinFft implements ComplexFft {
  readonly size: number
  private readonly inner: RadixTwoFft
  private readonly chirp: Float64Array // w_k = e^{-iπk²/N}, interleaved
  private readonly kernelSpectrum: Float64Array // FFT of conj(w) wrapped, interleaved
  private readonly scratch: Float64Array

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`dsp: FFT size must be a positive integer, got ${size}`)
    this.size = size
    let m = 1
    while (m < 2 * size - 1) m *= 2
    this.inner = new RadixTwoFft(m)
    this.chirp = new Float64Array(2 * size)
    for (let k = 0; k < size; k++) {
      const angle = (Math.PI * ((k * k) % (2 * size))) / size // k² mod 2N keeps the angle small and exact
      this.chirp[2 * k] = Math.cos(angle)
      this.chirp[2 * k + 1] = -Math.sin(angle)
    }
    const b = new Float64Array(2 * m)
    for (let k = 0; k < size; k++) {
      b[2 * k] = this.chirp[2 * k]; b[2 * k + 1] = -this.chirp[2 * k + 1]
      if (k > 0) { b[2 * (m - k)] = b[2 * k]; b[2 * (m - k) + 1] = b[2 * k + 1] }
    }
    this.inner.transform(b, b)
    this.kernelSpectrum = b
    this.scratch = new Float64Array(2 * m)
  }

  transform(out: Float64Array, input: Float64Array, inverse = false): void {
    const n = this.size, m = this.inner.size, a = this.scratch, w = this.chirp, b = this.kernelSpectrum
    // the inverse transform is the forward transform of the conjugate, conjugated
    const s = inverse ? -1 : 1
    a.fill(0)
    for (let k = 0; k < n; k++) {
      const xr = input[2 * k], xi = s * input[2 * k + 1]
      a[2 * k] = xr * w[2 * k] - xi * w[2 * k + 1]
      a[2 * k + 1] = xr * w[2 * k + 1] + xi * w[2 * k]
    }
    this.inner.transform(a, a)
    for (let k = 0; k < m; k++) {
      const re = a[2 * k] * b[2 * k] - a[2 * k + 1] * b[2 * k + 1]
      const im = a[2 * k] * b[2 * k + 1] + a[2 * k + 1] * b[2 * k]
      a[2 * k] = re; a[2 * k + 1] = im
    }
    this.inner.transform(a, a, true)
    for (let k = 0; k < n; k++) {
      const cr = a[2 * k] / m, ci = a[2 * k + 1] / m
      out[2 * k] = cr * w[2 * k] - ci * w[2 * k + 1]
      out[2 * k + 1] = s * (cr * w[2 * k + 1] + ci * w[2 * k])
    }
  }
}

/** A complex FFT of `size`: radix-2 when `size` is a power of two, else Bluestein. */
export function makeFft(size: number): ComplexFft {
  return isPowerOfTwo(size) ? new RadixTwoFft(size) : new BluesteinFft(size)
}

/**
 * Real FFT of a fixed size: one-sided spectrum X_0..X_{N/2} of a real frame, and its inverse (C2R, like numpy/torch irfft:
 * imaginary parts of X_0 and, for even N, X_{N/2} are ignored).
 */
export class RealFft {
  readonly size: number
  /** Number of one-sided bins, ⌊N/2⌋ + 1. */
  readonly bins: number
  private readonly fft: ComplexFft
  private readonly buffer: Float64Array

  constructor(size: number) {
    this.size = size
    this.bins = Math.floor(size / 2) + 1
    this.fft = makeFft(size)
    this.buffer = new Float64Array(2 * size)
  }

  /** `out` interleaved complex `[bins]` (length 2·bins) ← real `input` (first `size` values; missing values are 0). */
  forward(out: Float64Array, input: ArrayLike<number>): void {
    const n = this.size, buf = this.buffer
    buf.fill(0)
    const m = Math.min(n, input.length)
    for (let i = 0; i < m; i++) buf[2 * i] = input[i]
    this.fft.transform(buf, buf)
    out.set(buf.subarray(0, 2 * this.bins))
  }

  /** Real `out` `[size]` ← inverse of one-sided `spectrum` (interleaved `[bins]`), scaled by 1/N. */
  inverse(out: Float64Array, spectrum: Float64Array): void {
    const n = this.size, buf = this.buffer, bins = this.bins
    for (let k = 0; k < bins; k++) { buf[2 * k] = spectrum[2 * k]; buf[2 * k + 1] = spectrum[2 * k + 1] }
    buf[1] = 0
    if (n % 2 === 0) buf[2 * (bins - 1) + 1] = 0
    for (let k = bins; k < n; k++) { buf[2 * k] = buf[2 * (n - k)]; buf[2 * k + 1] = -buf[2 * (n - k) + 1] }
    this.fft.transform(buf, buf, true)
    for (let i = 0; i < n; i++) out[i] = buf[2 * i] / n
  }
}
