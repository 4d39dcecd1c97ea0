/**
 * Power-of-two complex FFT in double precision: bit-reversal permutation, then decimation-in-time radix-4 stages (one
 * radix-2 stage first when log2 N is odd). Each radix-4 stage merges two radix-2 stages with 3 complex multiplies per
 * 4 points; twiddles are read from per-stage tables in loop order (no index arithmetic beyond a running pointer).
 * The first stage reads its input through the bit-reversal table (no separate permutation pass out of place).
 * Radix-4 butterfly for the span-4h stage, inputs a0..a3 at stride h, w = e^{∓2πik/(4h)}:
 * `t1 = w²a1, t2 = w a2, t3 = w³a3; X0 = (a0+t1)+(t2+t3), X2 = (a0+t1)−(t2+t3), X1 = (a0−t1) ∓ i(t2−t3), X3 = (a0−t1) ± i(t2−t3)`.
 */
import { isPowerOfTwo, type ComplexFft } from './complex-fft.ts'

/**
 * Twiddles of all radix-4 stages in loop order: for each stage quarter-span h (in order), for k < h,
 * `[w1r, w1i, w2r, w2i, w3r, w3i]` with w_j = e^{sign·2πi·j·k/(4h)}.
 * @returns Float64Array `[Σ_h 6h]`
 */
function radixFourTwiddles(quarters: number[], sign: number): Float64Array {
  const table = new Float64Array(6 * quarters.reduce((s, h) => s + h, 0))
  let p = 0
  for (const h of quarters) {
    for (let k = 0; k < h; k++) {
      for (let j = 1; j <= 3; j++) {
        const angle = (2 * Math.PI * j * k) / (4 * h)
        table[p++] = Math.cos(angle)
        table[p++] = sign * Math.sin(angle)
      }
    }
  }
  return table
}

/** Iterative power-of-two FFT (radix-4 with one radix-2 stage when needed), precomputed twiddle and index tables. */
export class RadixTwoFft implements ComplexFft {
  readonly size: number
  /** `[size]` bit-reversed index of each position (read by the out-of-place first stage). */
  private readonly reversed: Uint32Array
  /** `[size]` identity (read by the in-place first stage, after the swaps). */
  private readonly identity: Uint32Array
  /** Pairs `[i, j]` (i < j) to swap for the in-place bit-reversal permutation, flattened. */
  private readonly swaps: Uint32Array
  /** Points per butterfly of the first, twiddle-free stage: 4, 2 (log2 size odd) or 1 (size 1). */
  private readonly firstRadix: number
  /** Quarter-span h of each later radix-4 stage, in order (h = firstRadix, 4·firstRadix, … while 4h ≤ size). */
  private readonly quarters: number[]
  private readonly forwardTwiddles: Float64Array
  private readonly inverseTwiddles: Float64Array

  constructor(size: number) {
    if (!isPowerOfTwo(size)) throw new Error(`dsp: radix-2 FFT size must be a power of two, got ${size}`)
    this.size = size
    const bits = Math.log2(size)
    this.reversed = new Uint32Array(size)
    this.identity = Uint32Array.from({ length: size }, (_, i) => i)
    const swaps: number[] = []
    for (let i = 0; i < size; i++) {
      let r = 0
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b)
      this.reversed[i] = r
      if (r > i) swaps.push(i, r)
    }
    this.swaps = Uint32Array.from(swaps)
    this.firstRadix = size === 1 ? 1 : bits % 2 === 1 ? 2 : 4
    this.quarters = []
    for (let h = this.firstRadix; 4 * h <= size; h *= 4) this.quarters.push(h)
    this.forwardTwiddles = radixFourTwiddles(this.quarters, -1)
    this.inverseTwiddles = radixFourTwiddles(this.quarters, 1)
  }

  /**
   * The forward transform's tables, for kernels that must compute exactly what {@link transform} does (fbank.wat).
   * `reversed` `[size]`; `firstRadix` 4, 2 or 1; `twiddles` `[Σ_h 6h]` of the radix-4 stages h = firstRadix, 4·firstRadix, …
   * in loop order (w1, w2, w3 as re, im per k).
   */
  forwardPlan(): { reversed: Uint32Array; firstRadix: number; twiddles: Float64Array } {
    return { reversed: this.reversed, firstRadix: this.firstRadix, twiddles: this.forwardTwiddles }
  }

  transform(out: Float64Array, input: Float64Array, inverse = false): void {
    const n = this.size
    // ∓i: multiplying (x + iy) by −i (forward) gives (y − ix); by +i (inverse) gives (−y + ix)
    const rot = inverse ? -1 : 1
    let order = this.reversed
    if (out === input) { // permute in place, then run the first stage on positions in order
      const swaps = this.swaps
      for (let s = 0; s < swaps.length; s += 2) {
        const a = 2 * swaps[s], b = 2 * swaps[s + 1]
        const re = out[a], im = out[a + 1]
        out[a] = out[b]; out[a + 1] = out[b + 1]
        out[b] = re; out[b + 1] = im
      }
      order = this.identity
    }
    if (this.firstRadix === 4) radixFourFirstStage(out, input, order, n, rot)
    else if (this.firstRadix === 2) radixTwoFirstStage(out, input, order, n)
    else { out[0] = input[0]; out[1] = input[1] }
    const tw = inverse ? this.inverseTwiddles : this.forwardTwiddles
    let p = 0
    for (const h of this.quarters) {
      radixFourStage(out, n, h, tw, p, rot)
      p += 6 * h
    }
  }
}

/**
 * One radix-4 stage of quarter-span h in place on interleaved `[n]` complex: for each group of 4h values and k < h,
 * the butterfly on positions k, k+h, k+2h, k+3h with twiddles `tw[p + 6k .. p + 6k + 6)` (w, w², w³).
 * `rot` = 1 (forward) or −1 (inverse) picks ∓i.
 */
function radixFourStage(out: Float64Array, n: number, h: number, tw: Float64Array, p: number, rot: number): void {
  const span = 8 * h, end = 2 * n, h2 = 2 * h
  for (let k = 0; k < h; k++, p += 6) {
    const w1r = tw[p], w1i = tw[p + 1], w2r = tw[p + 2], w2i = tw[p + 3], w3r = tw[p + 4], w3i = tw[p + 5]
    for (let a0 = 2 * k; a0 < end; a0 += span) {
      const a1 = a0 + h2, a2 = a1 + h2, a3 = a2 + h2
      // in bit-reversed DIT order the w² twiddle goes with a1 and w with a2
      const x1r = out[a1], x1i = out[a1 + 1], x2r = out[a2], x2i = out[a2 + 1], x3r = out[a3], x3i = out[a3 + 1]
      const t1r = x1r * w2r - x1i * w2i, t1i = x1r * w2i + x1i * w2r
      const t2r = x2r * w1r - x2i * w1i, t2i = x2r * w1i + x2i * w1r
      const t3r = x3r * w3r - x3i * w3i, t3i = x3r * w3i + x3i * w3r
      const x0r = out[a0], x0i = out[a0 + 1]
      const sr = x0r + t1r, si = x0i + t1i, dr = x0r - t1r, di = x0i - t1i
      const ur = t2r + t3r, ui = t2i + t3i
      const vr = rot * (t2i - t3i), vi = rot * (t3r - t2r) // ∓i·(t2 − t3)
      out[a0] = sr + ur; out[a0 + 1] = si + ui
      out[a2] = sr - ur; out[a2 + 1] = si - ui
      out[a1] = dr + vr; out[a1 + 1] = di + vi
      out[a3] = dr - vr; out[a3 + 1] = di - vi
    }
  }
}

/**
 * First radix-4 stage (4-point DFTs, no twiddles): `out[4g + j] ← DFT4(input[order[4g + 0..3]])` on interleaved complex.
 * `order` is the bit-reversal table (out of place) or the identity (in place, after the swaps).
 */
function radixFourFirstStage(out: Float64Array, input: Float64Array, order: Uint32Array, n: number, rot: number): void {
  for (let g = 0; g < n; g += 4) {
    const i0 = 2 * order[g], i1 = 2 * order[g + 1], i2 = 2 * order[g + 2], i3 = 2 * order[g + 3]
    const x0r = input[i0], x0i = input[i0 + 1], x1r = input[i1], x1i = input[i1 + 1]
    const x2r = input[i2], x2i = input[i2 + 1], x3r = input[i3], x3i = input[i3 + 1]
    const sr = x0r + x1r, si = x0i + x1i, dr = x0r - x1r, di = x0i - x1i
    const ur = x2r + x3r, ui = x2i + x3i
    const vr = rot * (x2i - x3i), vi = rot * (x3r - x2r)
    const a = 2 * g
    out[a] = sr + ur; out[a + 1] = si + ui
    out[a + 2] = dr + vr; out[a + 3] = di + vi
    out[a + 4] = sr - ur; out[a + 5] = si - ui
    out[a + 6] = dr - vr; out[a + 7] = di - vi
  }
}

/** First radix-2 stage (2-point DFTs, no twiddles): `out[2g + j] ← DFT2(input[order[2g + 0..1]])`. */
function radixTwoFirstStage(out: Float64Array, input: Float64Array, order: Uint32Array, n: number): void {
  for (let g = 0; g < n; g += 2) {
    const i0 = 2 * order[g], i1 = 2 * order[g + 1]
    const x0r = input[i0], x0i = input[i0 + 1], x1r = input[i1], x1i = input[i1 + 1]
    const a = 2 * g
    out[a] = x0r + x1r; out[a + 1] = x0i + x1i
    out[a + 2] = x0r - x1r; out[a + 3] = x0i - x1i
  }
}
