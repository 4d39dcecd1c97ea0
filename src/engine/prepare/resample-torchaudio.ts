/**
 * `torchaudio.functional.resample(waveform, orig_freq, new_freq)` with its defaults (`sinc_interp_hann`,
 * `lowpass_filter_width=6`, `rolloff=0.99`), the resampler of the reference dataprep (docs/reference-pipeline.md
 * §17). The kernel is built as torchaudio builds it for a float32 waveform (`_get_sinc_resample_kernel`: every step
 * in float32, emulated with `Math.fround`), applied as its strided `conv1d` over the input padded with `width` zeros
 * on the left and `width + orig` on the right, and cut to `ceil(new · n / orig)` samples.
 *
 * Differences from torch, all below float32 resolution: products are summed in float64 (torch sums float32 in its
 * own order), and the taps the kernel clamps to the window's edge (|value| < 1e-12, where torch multiplies by
 * cos²(±π/2) ≈ 1.9e-15) are skipped.
 *
 * Whole pairs of frames run in a WebAssembly SIMD kernel (resample-wasm.ts, wasm/resample.wat) with the same
 * arithmetic in the same order, so the bits are the same either way.
 *
 * This is not the playback resampler (src/engine/audio/resample.ts, Kaiser polyphase): that one serves listening.
 */

import { resampleFramePairsWasm } from './resample-wasm.ts'

/** One phase of the kernel: the taps that matter, starting at `offset` within the padded window. */
interface Phase { offset: number; taps: Float32Array }

/** The phases flattened for the inner loop: taps as float64, each phase's start in `taps`, length and offset. */
interface FlatKernel { taps: Float64Array; start: Int32Array; length: Int32Array; offset: Int32Array }

/** The resampling kernel for one (orig, new) pair, reduced by their gcd. */
export interface TorchaudioKernel {
  /** Input samples per step (orig / gcd). */
  orig: number
  /** Output samples per step (new / gcd). */
  newFreq: number
  /** Zeros torchaudio pads on the left (`width`). */
  width: number
  /** One entry per output phase. */
  phases: Phase[]
  flat: FlatKernel
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b]
  return a
}

const f = Math.fround
const kernels = new Map<string, TorchaudioKernel>()

/**
 * The kernel torchaudio's `_get_sinc_resample_kernel` builds for a float32 waveform, cached per rate pair.
 * @param origFreq input rate in Hz (integer)
 * @param newFreq output rate in Hz (integer)
 */
export function torchaudioKernel(origFreq: number, newFreq: number, lowpassFilterWidth = 6, rolloff = 0.99): TorchaudioKernel {
  const key = `${origFreq}/${newFreq}/${lowpassFilterWidth}/${rolloff}`
  const hit = kernels.get(key)
  if (hit) return hit
  if (!Number.isInteger(origFreq) || !Number.isInteger(newFreq) || origFreq <= 0 || newFreq <= 0) {
    throw new Error(`resample: rates must be positive integers, got ${origFreq} → ${newFreq}`)
  }
  const g = gcd(origFreq, newFreq)
  const orig = origFreq / g
  const nw = newFreq / g
  const baseFreq = Math.min(orig, nw) * rolloff // a Python float (float64)
  const width = Math.ceil(lowpassFilterWidth * orig / baseFreq)
  const size = 2 * width + orig
  const baseF = f(baseFreq)
  const piF = f(Math.PI)
  const scale = baseFreq / orig // Python float, multiplied into a float32 tensor
  const phases: Phase[] = []
  for (let i = 0; i < nw; i++) {
    const row = new Float32Array(size)
    const ti = f(f(-i) / nw)
    for (let k = 0; k < size; k++) {
      const idx = f(f(k - width) / orig)
      let t = f(f(ti + idx) * baseF)
      t = Math.min(lowpassFilterWidth, Math.max(-lowpassFilterWidth, t))
      const c = f(Math.cos(f(f(f(t * piF) / lowpassFilterWidth) / 2)))
      const window = f(c * c)
      const tp = f(t * piF)
      const sinc = tp === 0 ? 1 : f(f(Math.sin(tp)) / tp)
      row[k] = f(sinc * f(window * f(scale)))
    }
    let a = 0
    let b = size
    while (a < b && Math.abs(row[a]) < 1e-12) a++
    while (b > a && Math.abs(row[b - 1]) < 1e-12) b--
    phases.push({ offset: a, taps: row.slice(a, b) })
  }
  const total = phases.reduce((n, p) => n + p.taps.length, 0)
  const flat: FlatKernel = { taps: new Float64Array(total), start: new Int32Array(nw), length: new Int32Array(nw), offset: new Int32Array(nw) }
  let at = 0
  phases.forEach((p, i) => {
    flat.taps.set(p.taps, at)
    flat.start[i] = at
    flat.length[i] = p.taps.length
    flat.offset[i] = p.offset
    at += p.taps.length
  })
  const kernel = { orig, newFreq: nw, width, phases, flat }
  kernels.set(key, kernel)
  return kernel
}

/** Output length torchaudio gives: `ceil(new · n / orig)` with the gcd-reduced rates. */
export function torchaudioResampledLength(frames: number, origFreq: number, newFreq: number): number {
  const g = gcd(origFreq, newFreq)
  return Math.ceil((newFreq / g) * frames / (origFreq / g))
}

/**
 * Resamples one channel as `torchaudio.functional.resample(x, origFreq, newFreq)` does.
 * @param samples `[frames]` float32 at `origFreq`
 * @param engine `wasm` (default: the SIMD kernel, resample-wasm.ts, where it runs) or `js`; both give the same bits
 * @returns `[ceil(newFreq · frames / origFreq)]` float32 at `newFreq` (the input itself when the rates are equal)
 */
export function resampleTorchaudio(samples: Float32Array, origFreq: number, newFreq: number, engine: 'wasm' | 'js' = 'wasm'): Float32Array {
  if (origFreq === newFreq) return samples
  const { orig, newFreq: nw, width, flat } = torchaudioKernel(origFreq, newFreq)
  const n = samples.length
  const outLength = torchaudioResampledLength(n, origFreq, newFreq)
  const out = new Float32Array(outLength)
  // whole pairs of frames in WebAssembly (two outputs per SIMD lane pair), the rest here
  const pairs = Math.floor(outLength / (2 * nw))
  const fast = engine === 'wasm' ? resampleFramePairsWasm(samples, flat, nw, orig, width, pairs) : null
  if (fast) out.set(fast)
  const firstFrame = fast ? 2 * pairs : 0
  // the padded input from the first frame left on, as float64 (no conversion in the inner loop): the padded input is
  // `width` zeros, the samples, `width + orig` zeros; `from` is where this copy starts in it
  const from = firstFrame * orig
  const padded = new Float64Array(Math.max(0, n + 2 * width + orig - from))
  for (let i = Math.max(0, from - width); i < n; i++) padded[width + i - from] = samples[i]
  const { taps, start, length, offset } = flat
  // frame by frame (each reads a short run of the input; all phases' taps, a few KB, stay in cache): out[j·new + i]
  for (let j = firstFrame, o = firstFrame * nw; o < outLength; j++) {
    const frameBase = j * orig - from
    for (let i = 0; i < nw && o < outLength; i++, o++) {
      const t0 = start[i]
      const len = length[i]
      const base = frameBase + offset[i]
      out[o] = tapSum(padded, base, taps, t0, len)
    }
  }
  return out
}

/**
 * `resampleTorchaudio` over a signal that arrives in pieces: the same outputs, bit for bit (the TypeScript loop's
 * arithmetic in its order), while holding only the input a frame still needs (`2·width + orig` samples plus the
 * last piece). The total length must be known up front: torchaudio's output length is `ceil(new · n / orig)`.
 */
export class TorchaudioResampleStream {
  private readonly kernel: TorchaudioKernel | null
  /** Output samples in all. */
  readonly outLength: number
  /** Input received so far. */
  private received = 0
  /** Output samples produced so far. */
  private produced = 0
  /** The padded input from padded index `bufStart` on (padded index = width + input index), float64. */
  private buf = new Float64Array(0)
  private bufStart = 0
  private bufLength = 0
  /** The furthest padded index past a frame's start that any phase reads (exclusive). */
  private readonly reach: number

  /**
   * @param origFreq input rate, Hz
   * @param newFreq output rate, Hz
   * @param frames input samples in all
   */
  constructor(private readonly origFreq: number, private readonly newFreq: number, private readonly frames: number) {
    this.kernel = origFreq === newFreq ? null : torchaudioKernel(origFreq, newFreq)
    this.outLength = origFreq === newFreq ? frames : torchaudioResampledLength(frames, origFreq, newFreq)
    const k = this.kernel
    this.reach = k ? Math.max(...k.phases.map((p) => p.offset + p.taps.length)) : 0
    if (k) this.append(new Float32Array(0), k.width) // the left padding
  }

  /** Appends `samples` (then `zeros` zeros) to the padded input. */
  private append(samples: Float32Array, zeros = 0): void {
    const need = this.bufLength + samples.length + zeros
    if (need > this.buf.length) {
      const grown = new Float64Array(Math.max(need, 2 * this.buf.length))
      grown.set(this.buf.subarray(0, this.bufLength))
      this.buf = grown
    }
    for (let i = 0; i < samples.length; i++) this.buf[this.bufLength + i] = samples[i]
    this.buf.fill(0, this.bufLength + samples.length, need)
    this.bufLength = need
  }

  /**
   * Takes the next input samples; returns the outputs they complete.
   * @param samples `[n]` float32, the input's next samples
   * @returns float32 outputs, in order (empty while more input is needed)
   */
  push(samples: Float32Array): Float32Array {
    if (this.received + samples.length > this.frames) throw new Error(`resample: more than the ${this.frames} samples announced`)
    this.received += samples.length
    if (!this.kernel) {
      this.produced += samples.length
      return samples.slice()
    }
    this.append(samples)
    if (this.received === this.frames) this.append(new Float32Array(0), this.kernel.width + this.kernel.orig)
    return this.drain()
  }

  /** Outputs every frame whose padded input is all here. */
  private drain(): Float32Array {
    const { orig, newFreq: nw, flat } = this.kernel!
    const { taps, start, length, offset } = flat
    const known = this.bufStart + this.bufLength
    // frames j with j·orig + reach ≤ known (all input in), limited by the output length
    const lastFrame = Math.floor((known - this.reach) / orig) // inclusive
    const firstOut = this.produced
    const endOut = Math.min(this.outLength, Math.max(firstOut, (lastFrame + 1) * nw))
    const out = new Float32Array(endOut - firstOut)
    const buf = this.buf
    for (let o = firstOut; o < endOut;) {
      const j = Math.floor(o / nw)
      const frameBase = j * orig - this.bufStart
      for (let i = o - j * nw; i < nw && o < endOut; i++, o++) {
        const t0 = start[i]
        const len = length[i]
        const base = frameBase + offset[i]
        out[o - firstOut] = tapSum(buf, base, taps, t0, len)
      }
    }
    this.produced = endOut
    // drop the input no later frame reads: frames from floor(produced / nw) on start at that frame · orig
    const keepFrom = Math.floor(this.produced / nw) * orig
    const drop = Math.min(this.bufLength, Math.max(0, keepFrom - this.bufStart))
    if (drop > 0) {
      this.buf.copyWithin(0, drop, this.bufLength)
      this.bufLength -= drop
      this.bufStart += drop
    }
    return out
  }

  /** Whether every output has been returned. */
  get done(): boolean {
    return this.produced === this.outLength && this.received === this.frames
  }
}

/**
 * One output sample: Σ `data[base + k] · taps[t0 + k]` over `k < len`, four terms at a time then the rest (the order
 * the one-shot and the streamed resampler share, so their outputs are bit-identical).
 */
function tapSum(data: Float64Array, base: number, taps: Float64Array, t0: number, len: number): number {
  let sum = 0
  let k = 0
  for (; k + 3 < len; k += 4) {
    sum += data[base + k] * taps[t0 + k] + data[base + k + 1] * taps[t0 + k + 1] + data[base + k + 2] * taps[t0 + k + 2] + data[base + k + 3] * taps[t0 + k + 3]
  }
  for (; k < len; k++) sum += data[base + k] * taps[t0 + k]
  return sum
}
