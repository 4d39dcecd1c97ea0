/**
 * fairseq2's fbank standardization (docs/reference-pipeline.md §13): per mel bin, over the frames of one utterance,
 * `(x − mean) / std` with the **unbiased** std (divide by T − 1) and **no epsilon**, as `at::std_mean(fbank, 0)`.
 * Where that is undefined (one frame, a constant bin) the reference produces NaN/±inf; this module computes the same
 * values and reports the bins so callers can emit a finding (NaN is never shown as data: JSON null).
 */
import type { Features } from './fbank.ts'

/** Why some bins have no finite standardized value. */
export type StandardizeProblem = 'no-frames' | 'one-frame' | 'zero-std'

/** Standardized features plus the bins whose values are not finite. */
export interface Standardized extends Features {
  /** `[bins]` per-bin mean over frames (double precision, stored float32). */
  mean: Float32Array
  /** `[bins]` per-bin unbiased std over frames. */
  std: Float32Array
  /** Bins whose std is 0 or undefined (their values are NaN or ±inf, as in the reference), ascending. */
  undefinedBins: number[]
  /** Set when `undefinedBins` is not empty. */
  problem: StandardizeProblem | null
}

/**
 * Standardizes `[frames, bins]` features per bin over frames.
 * @param features row-major `[frames, bins]` float32
 */
export function standardizeFeatures(features: Features): Standardized {
  const { data, frames, bins } = features
  const mean = new Float32Array(bins), std = new Float32Array(bins)
  const out = new Float32Array(data.length)
  const undefinedBins: number[] = []
  for (let b = 0; b < bins; b++) {
    let sum = 0
    for (let t = 0; t < frames; t++) sum += data[t * bins + b]
    const m = sum / frames
    let sq = 0
    for (let t = 0; t < frames; t++) { const d = data[t * bins + b] - m; sq += d * d }
    const s = Math.sqrt(sq / (frames - 1))
    mean[b] = m; std[b] = s
    if (!(s > 0) || !Number.isFinite(s)) undefinedBins.push(b)
    for (let t = 0; t < frames; t++) out[t * bins + b] = (data[t * bins + b] - m) / s
  }
  const problem: StandardizeProblem | null = undefinedBins.length === 0 ? null
    : frames === 0 ? 'no-frames' : frames === 1 ? 'one-frame' : 'zero-std'
  return { data: out, frames, bins, mean, std, undefinedBins, problem }
}

/** Describes a standardization problem in a sentence with the bad values (for a finding's message). */
export function describeStandardizeProblem(result: Pick<Standardized, 'problem' | 'undefinedBins' | 'frames'>): string | null {
  switch (result.problem) {
    case null: return null
    case 'no-frames': return 'fbank: 0 frames (fewer samples than one frame): standardization has nothing to work on'
    case 'one-frame': return 'fbank: only 1 frame: the unbiased std divides by T − 1 = 0, so every standardized value is NaN'
    case 'zero-std': return `fbank: ${result.undefinedBins.length} mel bin(s) constant over ${result.frames} frames ` +
      `(std 0, values NaN or ±inf): bins ${result.undefinedBins.join(', ')}`
  }
}
