/**
 * The CPU feature path the benchmarks time, identical in Node and in the Chromium Worker: per utterance Kaldi fbank
 * (`FbankComputer`, tables reused) then fairseq2's per-bin standardization, as the reference's fbank path does.
 */
import { FbankComputer, type Features, standardizeFeatures } from '../../src/engine/index.ts'

/** Standardized `[frames, 80]` features of each waveform of one batch. */
export function featurizeBatchCpu(computer: FbankComputer, waveforms: Float32Array[]): Features[] {
  return waveforms.map((w) => standardizeFeatures(computer.compute(w)))
}

/**
 * Sum of |value| over the finite values of every feature matrix, compares two paths cheaply (a plain sum of
 * standardized features is ~0 whatever they hold).
 */
export function featureChecksum(features: Features[]): number {
  let sum = 0
  for (const f of features) for (const v of f.data) if (Number.isFinite(v)) sum += Math.abs(v)
  return sum
}

/** Largest |a − b| over two lists of feature matrices; NaN where shapes or NaN positions differ. */
export function maxAbsDiff(a: Features[], b: Features[]): number {
  if (a.length !== b.length) return NaN
  let worst = 0
  for (let e = 0; e < a.length; e++) {
    const x = a[e].data, y = b[e].data
    if (x.length !== y.length) return NaN
    for (let i = 0; i < x.length; i++) {
      if (Number.isNaN(x[i]) || Number.isNaN(y[i])) { if (Number.isNaN(x[i]) !== Number.isNaN(y[i])) return NaN; continue }
      worst = Math.max(worst, Math.abs(x[i] - y[i]))
    }
  }
  return worst
}

/** Splits one concatenated `[samples]` array into utterances of `lengths` samples (views, no copies). */
export function splitUtterances(all: Float32Array, lengths: number[]): Float32Array[] {
  let offset = 0
  return lengths.map((n) => {
    const view = all.subarray(offset, offset + n)
    offset += n
    return view
  })
}
