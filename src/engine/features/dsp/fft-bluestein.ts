/**
 * Bluestein's chirp-z FFT in double precision for any size (the reference SpecAugment STFT uses n_fft 400), as a
 * circular convolution computed with a power-of-two FFT of size ≥ 2N−1.
 * See https://en.wikipedia.org/wiki/Chirp_Z-transform#Bluestein's_algorithm.
 */
import type { ComplexFft } from './complex-fft.ts'
import { RadixTwoFft } from './fft-radix.ts'

/** Bluestein (chirp-z) FFT for any size ≥ 1, built on a radix-2 FFT of size ≥ 2N−1. */
export class BluesteinFft implements ComplexFft {
  readonly size: number
  private readonly inner: RadixTwoFft
  private readonly chirp: Float64Array // w_k = e^{-iπk²/N}, interleaved
  private readonly kernelSpectrum: Float64Array // FFT of conj(w) wrapped, ÷ m, interleaved
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
    for (let i = 0; i < 2 * m; i++) b[i] /= m // the inverse's 1/m, folded in (exact: m is a power of two)
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
      const cr = a[2 * k], ci = a[2 * k + 1]
      out[2 * k] = cr * w[2 * k] - ci * w[2 * k + 1]
      out[2 * k + 1] = s * (cr * w[2 * k + 1] + ci * w[2 * k])
    }
  }
}
