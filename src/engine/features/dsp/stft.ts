/**
 * Short-time Fourier transform and its inverse with torch.stft / torch.istft semantics
 * (center=True with reflect padding of n_fft/2, one-sided, not normalized; istft divides the overlap-added frames by
 * the summed squared window and trims n_fft/2 at both ends). Double precision.
 * See https://pytorch.org/docs/stable/generated/torch.stft.html and torch.istft.
 */
import { RealFft } from './fft.ts'

/** A one-sided complex spectrogram, frame-major. */
export interface Stft {
  /** Interleaved complex `[frames, bins, 2]` (re, im). */
  data: Float64Array
  frames: number
  /** n_fft/2 + 1. */
  bins: number
  nFft: number
  hop: number
}

/** Index into `x` after reflect padding by `pad` on both sides (numpy/torch "reflect": the edge is not repeated). */
export function reflectIndex(i: number, pad: number, n: number): number {
  let j = i - pad
  if (j < 0) j = -j
  if (j >= n) j = 2 * (n - 1) - j
  return j
}

/**
 * STFT of `x`: frames = 1 + ⌊N / hop⌋, frame t covers padded samples `[t·hop, t·hop + nFft)`.
 * @param x `[samples]`, needs N > nFft/2 for reflect padding
 * @param window `[nFft]` (e.g. periodic Hann)
 * @throws when the input is too short to reflect-pad (as torch does)
 */
export function stft(x: Float32Array, nFft: number, hop: number, window: Float32Array): Stft {
  const pad = Math.floor(nFft / 2)
  if (x.length <= pad) throw new Error(`stft: reflect padding of ${pad} needs more than ${pad} samples, got ${x.length}`)
  const frames = 1 + Math.floor(x.length / hop)
  const fft = new RealFft(nFft)
  const bins = fft.bins
  const data = new Float64Array(frames * bins * 2)
  const frame = new Float64Array(nFft)
  const spectrum = new Float64Array(2 * bins)
  for (let t = 0; t < frames; t++) {
    for (let i = 0; i < nFft; i++) frame[i] = x[reflectIndex(t * hop + i, pad, x.length)] * window[i]
    fft.forward(spectrum, frame)
    data.set(spectrum, t * bins * 2)
  }
  return { data, frames, bins, nFft, hop }
}

/**
 * Inverse STFT without a `length` argument: output length `hop · (frames − 1)`.
 * @returns `[hop·(frames−1)]` float32
 * @throws when the summed squared window falls below 1e-11 somewhere inside the output (torch's NOLA check)
 */
export function istft(spec: Stft, window: Float32Array): Float32Array {
  const { frames, bins, nFft, hop, data } = spec
  const fft = new RealFft(nFft)
  const total = nFft + hop * (frames - 1)
  const y = new Float64Array(total), envelope = new Float64Array(total)
  const frame = new Float64Array(nFft)
  for (let t = 0; t < frames; t++) {
    fft.inverse(frame, data.subarray(t * bins * 2, (t + 1) * bins * 2))
    for (let i = 0; i < nFft; i++) {
      y[t * hop + i] += frame[i] * window[i]
      envelope[t * hop + i] += window[i] * window[i]
    }
  }
  const start = Math.floor(nFft / 2)
  const out = new Float32Array(hop * (frames - 1))
  for (let i = 0; i < out.length; i++) {
    const e = envelope[start + i]
    if (!(e > 1e-11)) throw new Error(`stft: window envelope ${e} at output sample ${i} is below 1e-11 (NOLA fails)`)
    out[i] = y[start + i] / e
  }
  return out
}
