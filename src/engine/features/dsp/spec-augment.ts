/**
 * SpecAugment, two variants.
 *
 * `reference`: what Omnilingual ASR runs on the waveform path (docs/reference-pipeline.md §12), bugs included: STFT (n_fft 400, hop 200,
 * periodic Hann, center reflect) → a "frequency" mask that zeroes TIME frames `s .. s+L−1`, L = randint(20, freqMaskParam),
 * s = randint(0, 201 − L − 1) → a time mask with L = randint(0, min(120, ⌊T/4⌋)), s = randint(0, T − L − 1) → iSTFT, which
 * truncates to 200·⌊N/200⌋ samples. Applied when `random() < p`. The reference draws from Python's unseeded global
 * `random`; mixscope draws from {@link PythonRandom} seeded by the caller, so a seed reproduces `random.seed(seed)` exactly.
 *
 * `features`: mixscope's own textbook SpecAugment on `[frames, bins]` features (off by default): `numFreqMasks` masks of
 * width randint(0, freqMaskParam) over bins and `numTimeMasks` of width randint(0, timeMaskParam) over frames, value 0.
 */
import { PythonRandom } from '../../random/python-random.ts'
import { istft, stft } from './stft.ts'
import { hannWindow } from './window.ts'

/** n_fft, window and hop of the reference STFT. */
export const SPEC_AUG_N_FFT = 400
export const SPEC_AUG_HOP = 200

/** One mask: `length` consecutive indices from `start` (clamped to the axis when applied). */
export interface Mask {
  axis: 'time' | 'frequency'
  start: number
  length: number
}

/** What one SpecAugment draw decided. */
export interface SpecAugmentDraw {
  /** Whether `random() < p` selected this example. */
  applied: boolean
  /** The masks in draw order (empty when not applied). For `reference` both are on the time axis of the STFT. */
  masks: Mask[]
}

/** Reference SpecAugment parameters (asr_task config names). */
export interface ReferenceSpecAugmentOptions {
  /** `spec_aug_p`: per-example probability. */
  p: number
  /** `spec_aug_freq_mask_param` (default 80): 20 ≤ value ≤ 200. */
  freqMaskParam: number
}

/** STFT frames of the reference SpecAugment for N samples: 1 + ⌊N/200⌋. */
export function referenceStftFrames(numSamples: number): number {
  return 1 + Math.floor(numSamples / SPEC_AUG_HOP)
}

/**
 * Draws the reference masks for one example of `numSamples` samples, in the reference's order:
 * random(), randint(freq length), randint(freq start), randint(time length), randint(time start).
 * @throws with the reference's failure when freqMaskParam < 20 or > 200, or T is too small for the time mask start
 */
export function drawReferenceSpecAugment(rng: PythonRandom, numSamples: number, options: ReferenceSpecAugmentOptions): SpecAugmentDraw {
  if (!(rng.random() < options.p)) return { applied: false, masks: [] }
  const { freqMaskParam } = options
  if (freqMaskParam < 20 || freqMaskParam > 200) {
    throw new Error(`specaugment: spec_aug_freq_mask_param must be within 20..200 (randint(20, p), start ≥ 0), got ${freqMaskParam}`)
  }
  const T = referenceStftFrames(numSamples)
  const freqLength = rng.randint(20, freqMaskParam)
  const freqStart = rng.randint(0, 201 - freqLength - 1)
  const timeParam = Math.min(120, Math.trunc(T / 4))
  const timeLength = rng.randint(0, timeParam)
  if (T - timeLength - 1 < 0) throw new Error(`specaugment: randint(0, ${T - timeLength - 1}) has an empty range (T = ${T} frames)`)
  const timeStart = rng.randint(0, T - timeLength - 1)
  return {
    applied: true,
    masks: [{ axis: 'time', start: freqStart, length: freqLength }, { axis: 'time', start: timeStart, length: timeLength }],
  }
}

/**
 * Applies reference masks to a waveform: STFT → zero the masked frames (complex 0) → iSTFT.
 * @param waveform `[N]` float32, N > 200
 * @returns `[200·⌊N/200⌋]` float32 (the reference's truncation)
 */
export function applyReferenceSpecAugment(waveform: Float32Array, masks: Mask[]): Float32Array {
  const window = hannWindow(SPEC_AUG_N_FFT, true)
  const spec = stft(waveform, SPEC_AUG_N_FFT, SPEC_AUG_HOP, window)
  const rowLength = spec.bins * 2
  for (const mask of masks) {
    const end = Math.min(mask.start + mask.length, spec.frames)
    for (let t = mask.start; t < end; t++) spec.data.fill(0, t * rowLength, (t + 1) * rowLength)
  }
  return istft(spec, window)
}

/** Textbook SpecAugment parameters for `[frames, bins]` features. */
export interface FeatureSpecAugmentOptions {
  p: number
  numFreqMasks: number
  freqMaskParam: number
  numTimeMasks: number
  timeMaskParam: number
}

/** mixscope's default textbook parameters (off: p 0). */
export const defaultFeatureSpecAugment: FeatureSpecAugmentOptions = { p: 0, numFreqMasks: 2, freqMaskParam: 27, numTimeMasks: 2, timeMaskParam: 40 }

/** Draws textbook masks for `[frames, bins]`: `random() < p`, then frequency masks, then time masks. */
export function drawFeatureSpecAugment(rng: PythonRandom, frames: number, bins: number, options: FeatureSpecAugmentOptions): SpecAugmentDraw {
  if (!(rng.random() < options.p)) return { applied: false, masks: [] }
  const masks: Mask[] = []
  const draw = (axis: Mask['axis'], size: number, param: number) => {
    const length = rng.randint(0, Math.min(param, size))
    masks.push({ axis, start: rng.randint(0, size - length), length })
  }
  for (let i = 0; i < options.numFreqMasks; i++) draw('frequency', bins, options.freqMaskParam)
  for (let i = 0; i < options.numTimeMasks; i++) draw('time', frames, options.timeMaskParam)
  return { applied: true, masks }
}

/**
 * Zeroes masked rows (time) and columns (frequency) of row-major `[frames, bins]` features.
 * @returns a new array
 */
export function applyFeatureMasks(data: Float32Array, frames: number, bins: number, masks: Mask[]): Float32Array {
  const out = data.slice()
  for (const m of masks) {
    if (m.axis === 'time') {
      out.fill(0, Math.min(m.start, frames) * bins, Math.min(m.start + m.length, frames) * bins)
    } else {
      for (let t = 0; t < frames; t++) out.fill(0, t * bins + Math.min(m.start, bins), t * bins + Math.min(m.start + m.length, bins))
    }
  }
  return out
}

/** Creates the seeded RNG mixscope uses for SpecAugment (CPython-compatible). */
export function specAugmentRng(seed: number | bigint): PythonRandom {
  return new PythonRandom(seed)
}
