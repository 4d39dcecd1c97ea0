/**
 * Display spectrogram: power STFT in dB of a visible window of samples (no centering, frames fully inside the window),
 * periodic Hann, `10·log10(max(|X|², floor))`. For pictures only; training never sees it.
 */
import { RealFft } from './fft.ts'
import { hannWindow } from './window.ts'

/** Options for {@link powerSpectrogramDb}. */
export interface SpectrogramOptions {
  /** FFT size and window length (400). */
  nFft?: number
  /** Samples between frames (160). */
  hop?: number
  /** Power floor before the log (1e-10 → −100 dB). */
  floor?: number
}

/** A dB spectrogram, frame-major. */
export interface SpectrogramDb {
  /** `[frames, bins]` float32 dB. */
  data: Float32Array
  frames: number
  /** nFft/2 + 1. */
  bins: number
  nFft: number
  hop: number
}

/** Frames of a display spectrogram over `samples`: `samples < nFft ? 0 : 1 + ⌊(samples − nFft)/hop⌋`. */
export function spectrogramFrameCount(samples: number, nFft: number, hop: number): number {
  return samples < nFft ? 0 : 1 + Math.floor((samples - nFft) / hop)
}

/**
 * Power spectrogram in dB of `x[start, end)`.
 * @param x `[samples]` float32
 */
export function powerSpectrogramDb(x: Float32Array, start = 0, end = x.length, options: SpectrogramOptions = {}): SpectrogramDb {
  const nFft = options.nFft ?? 400, hop = options.hop ?? 160, floor = options.floor ?? 1e-10
  if (!(start >= 0 && end <= x.length && start <= end)) throw new Error(`spectrogram: window [${start}, ${end}) is outside [0, ${x.length})`)
  const fft = new RealFft(nFft)
  const window = hannWindow(nFft, true)
  const frames = spectrogramFrameCount(end - start, nFft, hop)
  const bins = fft.bins
  const data = new Float32Array(frames * bins)
  const frame = new Float64Array(nFft), spectrum = new Float64Array(2 * bins)
  for (let t = 0; t < frames; t++) {
    const s = start + t * hop
    for (let i = 0; i < nFft; i++) frame[i] = x[s + i] * window[i]
    fft.forward(spectrum, frame)
    for (let k = 0; k < bins; k++) {
      const p = spectrum[2 * k] ** 2 + spectrum[2 * k + 1] ** 2
      data[t * bins + k] = 10 * Math.log10(Math.max(p, floor))
    }
  }
  return { data, frames, bins, nFft, hop }
}
