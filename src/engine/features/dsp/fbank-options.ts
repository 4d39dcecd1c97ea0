/**
 * Frame geometry of Kaldi's fbank at a given sample rate, as kaldi-native-fbank computes it (docs/reference-pipeline.md §13):
 * lengths are `int(sr · 0.001f · ms)` in float32 arithmetic, snip_edges framing, padding to a power of two.
 */

import { MixscopeError } from '../../core/findings.ts'

/** Frame geometry and mel options for one sample rate. */
export interface FbankOptions {
  /** Sample rate in Hz (≥ 100). */
  sampleRate: number
  /** Samples per frame (400 at 16 kHz). */
  frameLength: number
  /** Samples between frame starts (160 at 16 kHz). */
  frameShift: number
  /** FFT size: frameLength rounded up to a power of two (512 at 16 kHz). */
  paddedLength: number
  /** Mel bins (80). */
  numMelBins: number
  /** Lowest mel edge in Hz (20). */
  lowFreq: number
  /** Highest mel edge in Hz (Nyquist). */
  highFreq: number
  /** Pre-emphasis coefficient (0.97). */
  preemphasis: number
  /** Scale applied to the waveform before framing (32768). */
  waveformScale: number
}

const f = Math.fround

/**
 * The options fairseq2's `WaveformToFbankConverter` uses (knf defaults, 80 bins, waveform × 2^15) at `sampleRate`.
 * @throws MixscopeError `fbank-bad-rate` when the sample rate is below 100 Hz or not finite
 */
export function fbankOptions(sampleRate: number, numMelBins = 80): FbankOptions {
  if (!(sampleRate >= 100) || !Number.isFinite(sampleRate)) {
    throw new MixscopeError(`fbank: sample rate must be ≥ 100 Hz, got ${sampleRate} (a 25 ms frame needs samples)`, 'fbank-bad-rate', 'data')
  }
  const msToSamples = (ms: number) => Math.trunc(f(f(f(sampleRate) * f(0.001)) * f(ms)))
  const frameLength = msToSamples(25)
  const frameShift = msToSamples(10)
  let paddedLength = 1
  while (paddedLength < frameLength) paddedLength *= 2
  return {
    sampleRate, frameLength, frameShift, paddedLength, numMelBins,
    lowFreq: 20, highFreq: 0.5 * sampleRate, preemphasis: 0.97, waveformScale: 32768,
  }
}

/**
 * Number of fbank frames for `numSamples` samples with snip_edges: `N < L ? 0 : 1 + ⌊(N − L)/shift⌋`.
 */
export function fbankFrameCount(numSamples: number, options: Pick<FbankOptions, 'frameLength' | 'frameShift'>): number {
  if (numSamples < options.frameLength) return 0
  return 1 + Math.floor((numSamples - options.frameLength) / options.frameShift)
}
