/**
 * Waveform normalization of the reference's waveform path (docs/reference-pipeline.md §11): mono mean, then
 * `layer_norm(x, x.shape)` without weight/bias: `(x − mean) / sqrt(var_pop + eps)`, eps 1e-5, output float32.
 * Statistics are accumulated in double (torch accumulates float32 input in higher precision too).
 */

/** torch's default layer-norm epsilon. */
export const LAYER_NORM_EPS = 1e-5

/**
 * Mean of the channels, sample by sample, summed left to right in float32 then divided by C (docs/reference-pipeline.md §11 step 1):
 * the audio module's `toMono`, re-exported under the name the DSP tests use.
 */
export { toMono as monoMean } from '../../audio/mono.ts'

/** Population mean and variance of `x`, two-pass in double. */
export function meanAndVariance(x: ArrayLike<number>): { mean: number; variance: number } {
  const n = x.length
  if (n === 0) return { mean: NaN, variance: NaN }
  let sum = 0
  for (let i = 0; i < n; i++) sum += x[i]
  const mean = sum / n
  let sq = 0
  for (let i = 0; i < n; i++) { const d = x[i] - mean; sq += d * d }
  return { mean, variance: sq / n }
}

/**
 * Layer norm over the whole utterance: `(x − mean) / sqrt(var_pop + eps)`.
 * @param x `[samples]` float32
 * @returns `[samples]` float32 (a new array; empty input gives an empty output)
 */
export function layerNorm(x: Float32Array, eps = LAYER_NORM_EPS): Float32Array {
  const { mean, variance } = meanAndVariance(x)
  const scale = 1 / Math.sqrt(variance + eps)
  const out = new Float32Array(x.length)
  for (let i = 0; i < x.length; i++) out[i] = (x[i] - mean) * scale
  return out
}
