/**
 * Waveform normalization of the reference's waveform path (REFERENCE §11): mono mean, then
 * `layer_norm(x, x.shape)` without weight/bias: `(x − mean) / sqrt(var_pop + eps)`, eps 1e-5, output float32.
 * Statistics are accumulated in double (torch accumulates float32 input in higher precision too).
 */

/** torch's default layer-norm epsilon. */
export const LAYER_NORM_EPS = 1e-5

/**
 * Mean of the channels, sample by sample, summed left to right then divided by C (REFERENCE §11 step 1).
 * Local stand-in until src/engine/audio/mono.ts exists (owned by the audio helper).
 * @param channels `C × [samples]` float32, all the same length
 * @returns `[samples]` float32 (the same array when C = 1)
 */
export function monoMean(channels: Float32Array[]): Float32Array {
  if (channels.length === 0) throw new Error('normalize: no channels to mix')
  if (channels.length === 1) return channels[0]
  const n = channels[0].length
  const out = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    let s = channels[0][i]
    for (let c = 1; c < channels.length; c++) s = Math.fround(s + channels[c][i])
    out[i] = s / channels.length
  }
  return out
}

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
