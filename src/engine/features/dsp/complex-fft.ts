/**
 * What every complex FFT of dsp/ implements (radix-4/2 in fft-radix.ts, Bluestein in fft-bluestein.ts), and the size
 * test that picks between them. A leaf module: the FFT implementations and fft.ts import it, it imports nothing.
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
