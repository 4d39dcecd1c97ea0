/**
 * Spectrograms for pictures (the Inspector): a dB power spectrogram of a visible window (n_fft 400, the hop grown to
 * fit a frame budget), on the CPU or a WebGPU pipeline, and the hop-200 STFT the reference SpecAugment acts on.
 */
import { powerSpectrogramDb } from './dsp/spectrogram.ts'
import { SPEC_AUG_HOP, SPEC_AUG_N_FFT } from './dsp/spec-augment.ts'
import { stft } from './dsp/stft.ts'
import { hannWindow } from './dsp/window.ts'
import type { FeatureBackend } from './model-input.ts'

/** A dB spectrogram for pictures, frame-major `[frames, bins]`. */
export interface DisplaySpectrogram {
  data: Float32Array
  frames: number
  bins: number
  nFft: number
  hop: number
  /** First sample of the first frame, at `sampleRate`. */
  start: number
  sampleRate: number
}

const displayNFft = 400
const minHop = 160

/** A spectrogram with no frames (a window shorter than one frame). */
function emptySpectrogram(sampleRate: number, start = 0): DisplaySpectrogram {
  return { data: new Float32Array(0), frames: 0, bins: 0, nFft: displayNFft, hop: minHop, start, sampleRate }
}

/** Display spectrogram of `x[start, end)` with at most `maxFrames` frames (n_fft 400, hop ≥ 160). */
export async function displaySpectrogram(
  x: Float32Array, sampleRate: number, start: number, end: number, maxFrames: number, backend: FeatureBackend | null,
): Promise<DisplaySpectrogram> {
  const length = end - start
  if (length < displayNFft) return emptySpectrogram(sampleRate, start)
  const hop = Math.max(minHop, Math.ceil((length - displayNFft) / Math.max(1, maxFrames - 1)))
  const options = { nFft: displayNFft, hop }
  const s = backend
    ? await (backend.lock ?? ((work) => work()))(() => backend.pipeline.spectrogram(x, start, end, options))
    : powerSpectrogramDb(x, start, end, options)
  return { data: s.data, frames: s.frames, bins: s.bins, nFft: displayNFft, hop, start, sampleRate }
}

/** The hop-200 STFT the reference SpecAugment acts on, in dB (`[T, 201]`, T = 1 + ⌊N/200⌋; empty for N ≤ 200). */
export function referenceStftDb(x: Float32Array, sampleRate: number): DisplaySpectrogram {
  if (x.length <= SPEC_AUG_N_FFT / 2) return emptySpectrogram(sampleRate)
  const spec = stft(x, SPEC_AUG_N_FFT, SPEC_AUG_HOP, hannWindow(SPEC_AUG_N_FFT, true))
  const data = new Float32Array(spec.frames * spec.bins)
  for (let i = 0; i < data.length; i++) {
    const p = spec.data[2 * i] ** 2 + spec.data[2 * i + 1] ** 2
    data[i] = 10 * Math.log10(Math.max(p, 1e-10))
  }
  return { data, frames: spec.frames, bins: spec.bins, nFft: SPEC_AUG_N_FFT, hop: SPEC_AUG_HOP, start: -SPEC_AUG_N_FFT / 2, sampleRate }
}
