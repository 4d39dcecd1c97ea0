/**
 * Kaldi's triangular mel filter bank (KNF:mel-computations.cc:107-208), computed in float32 arithmetic as knf does:
 * `mel(f) = 1127·ln(1 + f/700)`, `numBins` triangles equally spaced in mel between lowFreq and highFreq, FFT bin `i`
 * (frequency `i·sr/padded`) weighted `(m−left)/(center−left)` or `(right−m)/(right−center)` strictly inside (left, right).
 */
import type { FbankOptions } from './fbank-options.ts'

const f = Math.fround

/** Kaldi mel scale in float32: `1127·ln(1 + hz/700)`. */
export function kaldiMel(hz: number): number {
  return f(f(1127) * f(Math.log(f(1 + f(hz / 700)))))
}

/** A sparse mel bank: bin `b` covers FFT bins `start[b] .. start[b] + length[b] − 1`, weights packed in order. */
export interface MelBank {
  numBins: number
  /** One-sided FFT bins used: padded/2 (the Nyquist bin never contributes). */
  numFftBins: number
  /** `[numBins]` first FFT bin of each triangle. */
  start: Uint32Array
  /** `[numBins]` number of FFT bins in each triangle (≥ 1 for sane options). */
  length: Uint32Array
  /** `[numBins]` offset of each triangle's first weight in `weights`. */
  offset: Uint32Array
  /** All weights, float32, triangle after triangle. */
  weights: Float32Array
}

/**
 * Builds the mel bank for the given frame options.
 * @throws when lowFreq/highFreq are out of order or outside [0, Nyquist]
 */
export function kaldiMelBank(options: Pick<FbankOptions, 'numMelBins' | 'paddedLength' | 'sampleRate' | 'lowFreq' | 'highFreq'>): MelBank {
  const { numMelBins, paddedLength, sampleRate, lowFreq, highFreq } = options
  const nyquist = 0.5 * sampleRate
  if (!(lowFreq >= 0 && lowFreq < highFreq && highFreq <= nyquist)) {
    throw new Error(`fbank: mel range must satisfy 0 ≤ low < high ≤ ${nyquist} Hz, got low ${lowFreq}, high ${highFreq}`)
  }
  const numFftBins = paddedLength / 2
  const binWidth = f(sampleRate / paddedLength)
  const melLow = kaldiMel(lowFreq)
  const melHigh = kaldiMel(highFreq)
  const delta = f(f(melHigh - melLow) / (numMelBins + 1))
  const fftMel = new Float32Array(numFftBins)
  for (let i = 0; i < numFftBins; i++) fftMel[i] = kaldiMel(f(binWidth * i))
  const start = new Uint32Array(numMelBins), length = new Uint32Array(numMelBins), offset = new Uint32Array(numMelBins)
  const weights: number[] = []
  for (let b = 0; b < numMelBins; b++) {
    const left = f(melLow + f(b * delta)), center = f(melLow + f((b + 1) * delta)), right = f(melLow + f((b + 2) * delta))
    let first = -1
    const row: number[] = []
    for (let i = 0; i < numFftBins; i++) {
      const m = fftMel[i]
      if (m > left && m < right) {
        if (first < 0) first = i
        row.push(m <= center ? f(f(m - left) / f(center - left)) : f(f(right - m) / f(right - center)))
      }
    }
    start[b] = Math.max(first, 0)
    length[b] = row.length
    offset[b] = weights.length
    weights.push(...row)
  }
  return { numBins: numMelBins, numFftBins, start, length, offset, weights: Float32Array.from(weights) }
}
