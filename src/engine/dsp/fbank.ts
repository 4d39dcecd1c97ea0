/**
 * Kaldi log-mel filter bank, as fairseq2's `WaveformToFbankConverter` computes it with kaldi-native-fbank (REFERENCE §13).
 * Per frame: copy (waveform × 32768, float32) → DC removal → pre-emphasis → Povey window → zero-pad → real FFT (double)
 * → power |X_k|², k < padded/2 → mel → `ln(max(E, FLT_EPSILON))`. Stages between are held in double; values Kaldi stores
 * as float (scaled samples, window, windowed frame, output) are rounded to float32 here too.
 * Compare: torchaudio.compliance.kaldi.fbank (https://pytorch.org/audio/stable/compliance.kaldi.html).
 */
import { RealFft } from './fft.ts'
import { fbankFrameCount, fbankOptions, type FbankOptions } from './fbank-options.ts'
import { kaldiMelBank, type MelBank } from './mel.ts'
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

/** Computes fbank frames for one sample rate, reusing its tables and scratch buffers across calls. */
export class FbankComputer {
  readonly options: FbankOptions
  readonly window: Float32Array
  readonly melBank: MelBank
  private readonly fft: RealFft
  private readonly frame: Float64Array
  private readonly spectrum: Float64Array
  private readonly power: Float64Array

  constructor(sampleRate: number, numMelBins = 80) {
    this.options = fbankOptions(sampleRate, numMelBins)
    this.window = poveyWindow(this.options.frameLength)
    this.melBank = kaldiMelBank(this.options)
    this.fft = new RealFft(this.options.paddedLength)
    this.frame = new Float64Array(this.options.paddedLength)
    this.spectrum = new Float64Array(2 * this.fft.bins)
    this.power = new Float64Array(this.melBank.numFftBins)
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
    for (let t = 0; t < frames; t++) {
      this.framePower(waveform, t * frameShift)
      this.melLog(data, t * numMelBins)
    }
    return { data, frames, bins: numMelBins }
  }

  /** Power spectrum `[padded/2]` of the frame starting at sample `start` (into this.power). */
  private framePower(waveform: Float32Array, start: number): void {
    const { frameLength, waveformScale } = this.options
    const x = this.frame, w = this.window
    const preemph = f(this.options.preemphasis)
    let sum = 0
    for (let i = 0; i < frameLength; i++) { x[i] = f(waveform[start + i] * waveformScale); sum += x[i] }
    const mean = sum / frameLength
    for (let i = 0; i < frameLength; i++) x[i] = f(x[i] - mean)
    for (let i = frameLength - 1; i > 0; i--) x[i] = f(x[i] - preemph * x[i - 1])
    x[0] = f(x[0] - preemph * x[0])
    for (let i = 0; i < frameLength; i++) x[i] = f(x[i] * w[i])
    x.fill(0, frameLength)
    this.fft.forward(this.spectrum, x)
    const s = this.spectrum, p = this.power
    for (let k = 0; k < p.length; k++) {
      const re = f(s[2 * k]), im = f(s[2 * k + 1])
      p[k] = re * re + im * im
    }
  }

  /** Mel energies of this.power, logged with the FLT_EPSILON floor, into `out[offset .. offset + bins)`. */
  private melLog(out: Float32Array, offset: number): void {
    const { start, length, offset: wOffset, weights, numBins } = this.melBank
    const p = this.power
    for (let b = 0; b < numBins; b++) {
      let energy = 0
      const s = start[b], o = wOffset[b]
      for (let i = 0; i < length[b]; i++) energy += weights[o + i] * p[s + i]
      out[offset + b] = Math.log(Math.max(energy, FLT_EPSILON))
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
