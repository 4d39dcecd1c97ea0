/**
 * Kaldi log-mel filter bank, as fairseq2's `WaveformToFbankConverter` computes it with kaldi-native-fbank (docs/reference-pipeline.md §13).
 * Per frame: copy (waveform × 32768) → DC removal → pre-emphasis → Povey window → zero-pad → real FFT (double)
 * → power |X_k|², k < padded/2 → mel → `ln(max(E, FLT_EPSILON))`.
 * Every stage but the FFT runs in float32 with knf's order of operations (KNF:feature-window.cc ProcessWindow,
 * KNF:feature-functions.cc ComputePowerSpectrum, KNF:mel-computations.cc MelBanks::Compute): the frame mean is a
 * sequential float sum divided in float, pre-emphasis rounds `p·x[i−1]` before subtracting, the spectrum is rounded to
 * float before squaring and the mel sums add rounded products in ascending bin order. Low mel bins of loud frames hold
 * energies ~10⁻¹⁰ of the frame's, so these roundings show at 10⁻³ in the log there: matching knf's keeps them knf's.
 * Compare: torchaudio.compliance.kaldi.fbank (https://pytorch.org/audio/stable/compliance.kaldi.html).
 * FbankComputer runs this loop in WebAssembly SIMD where it can (fbank-wasm.ts, wasm/fbank.wat: the same operations,
 * four frames at once, bit-identical results) and in TypeScript otherwise.
 */
import { RealFft } from './fft.ts'
import { FbankKernel } from './fbank-wasm.ts'
import { fbankFrameCount, fbankOptions, type FbankOptions } from './fbank-options.ts'
import { kaldiMelBank, type MelBank } from './mel.ts'
import { melSegments, type MelSegments } from './mel-segments.ts'
import { poveyWindow } from './window.ts'

/** float32 machine epsilon, Kaldi's log floor. */
export const FLT_EPSILON = 1.1920928955078125e-7

/** Features of one utterance, row-major. */
export interface Features {
  /** `[frames, bins]` float32, row-major. */
  data: Float32Array
  frames: number
  bins: number
}

const f = Math.fround

/** Where {@link FbankComputer} runs its frames: `wasm` (SIMD kernel), `js` (this file's loop), `auto` (wasm if it can). */
export type FbankEngine = 'auto' | 'wasm' | 'js'

/** Computes fbank frames for one sample rate, reusing its tables and scratch buffers across calls. */
export class FbankComputer {
  readonly options: FbankOptions
  /** `[frameLength]` Povey window, float32. */
  readonly window: Float32Array
  readonly melBank: MelBank
  private readonly fft: RealFft
  private readonly mel: MelSegments
  /** `[paddedLength]` windowed frame; the zero padding after frameLength is written once, here. */
  private readonly frame: Float64Array
  /** `[paddedLength/2 + 1]` interleaved complex spectrum. */
  private readonly spectrum: Float64Array
  private readonly kernel: FbankKernel | null
  /** What runs the frames: the WebAssembly kernel or the TypeScript loop (same results, bit for bit). */
  readonly engine: 'wasm' | 'js'

  /**
   * @param engine `auto` (default): the WebAssembly SIMD kernel where it compiles, else TypeScript; `wasm` throws where
   *   the kernel cannot run; `js` always runs the TypeScript loop
   */
  constructor(sampleRate: number, numMelBins = 80, engine: FbankEngine = 'auto') {
    this.options = fbankOptions(sampleRate, numMelBins)
    this.window = poveyWindow(this.options.frameLength)
    this.melBank = kaldiMelBank(this.options)
    this.mel = melSegments(this.melBank)
    this.fft = new RealFft(this.options.paddedLength)
    this.frame = new Float64Array(this.options.paddedLength)
    this.spectrum = new Float64Array(2 * this.fft.bins)
    this.kernel = engine === 'js' ? null : FbankKernel.create(this.options, this.window, this.mel, this.fft.plan())
    if (engine === 'wasm' && !this.kernel) throw new Error('fbank: the WebAssembly SIMD kernel cannot run here')
    this.engine = this.kernel ? 'wasm' : 'js'
  }

  /**
   * Log-mel features of a mono waveform in [−1, 1] at this computer's rate.
   * @param waveform `[samples]` float32 (channel 0 for multi-channel input, as the reference)
   * @returns `[frames, numMelBins]` with frames = `fbankFrameCount(samples)` (0 below one frame length)
   */
  compute(waveform: Float32Array): Features {
    const { frameShift, numMelBins } = this.options
    const frames = fbankFrameCount(waveform.length, this.options)
    const data = new Float32Array(frames * numMelBins)
    if (this.kernel) {
      this.kernel.compute(waveform, frames, data)
      return { data, frames, bins: numMelBins }
    }
    for (let t = 0; t < frames; t++) {
      this.windowFrame(waveform, t * frameShift)
      this.fft.forward(this.spectrum, this.frame)
      this.melLog(data, t * numMelBins)
    }
    return { data, frames, bins: numMelBins }
  }

  /** this.frame[0 .. frameLength) ← scaled, DC-removed, pre-emphasized, windowed samples from `start` (float32, knf's order). */
  private windowFrame(waveform: Float32Array, start: number): void {
    const { frameLength, waveformScale } = this.options
    const x = this.frame, w = this.window
    const preemph = f(this.options.preemphasis)
    let sum = 0
    for (let i = 0; i < frameLength; i++) {
      const v = f(waveform[start + i] * waveformScale)
      x[i] = v
      sum = f(sum + v)
    }
    const mean = f(sum / frameLength)
    // pre-emphasis x[i] − p·x[i−1] on the DC-removed values, and x[0] − p·x[0], fused with the window
    let previous = f(x[0] - mean)
    for (let i = 0; i < frameLength; i++) {
      const current = f(x[i] - mean)
      x[i] = f(f(current - f(preemph * previous)) * w[i])
      previous = current
    }
  }

  /**
   * Power |X_k|² of this.spectrum in float32 (re, im rounded to float32 first, as knf stores them), mel energies as
   * float32 sums in one ascending pass (mel-segments.ts), logged with the FLT_EPSILON floor, into
   * `out[offset .. offset + numBins)`.
   */
  private melLog(out: Float32Array, offset: number): void {
    const { numBins, firstBin, segmentEnd, currentWeight, nextWeight } = this.mel
    const s = this.spectrum
    let i = firstBin, current = 0, next = 0
    for (let segment = 0; segment <= numBins; segment++) {
      for (const end = segmentEnd[segment]; i < end; i++) {
        const re = f(s[2 * i]), im = f(s[2 * i + 1])
        const power = f(f(re * re) + f(im * im))
        current = f(current + f(currentWeight[i] * power))
        next = f(next + f(nextWeight[i] * power))
      }
      if (segment > 0) out[offset + segment - 1] = Math.log(Math.max(current, FLT_EPSILON))
      current = next
      next = 0
    }
  }
}

/**
 * Kaldi log-mel fbank of one utterance at its own sample rate (no resampling, as the reference).
 * @param waveform `[samples]` float32 in [−1, 1] (scaled by 32768 inside)
 * @param sampleRate Hz, ≥ 100
 * @returns `[frames, 80]` float32
 */
export function kaldiFbank(waveform: Float32Array, sampleRate: number, numMelBins = 80): Features {
  return new FbankComputer(sampleRate, numMelBins).compute(waveform)
}
