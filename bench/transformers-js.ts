/**
 * transformers.js, the comparison of the fbank benchmarks: its SeamlessM4TFeatureExtractor runs the same Kaldi recipe
 * (plus a per-bin normalization). Loaded from the separate bench/transformers package (installed by `npm run bench`),
 * with the SeamlessM4T preprocessor config given inline: nothing comes from the hub.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

/** transformers.js's preprocessor config for SeamlessM4T (facebook/seamless-m4t-v2-large), given inline: no hub access. */
export const seamlessConfig = {
  feature_extractor_type: 'SeamlessM4TFeatureExtractor', feature_size: 80, num_mel_bins: 80, sampling_rate: 16000,
  padding_side: 'right', padding_value: 0, return_attention_mask: true, stride: 2,
}

/** The part of transformers.js the benchmarks use. */
export interface TensorLike { data: Float32Array; dims: number[] }
export interface SeamlessExtractor {
  (audio: Float32Array, options?: { do_normalize_per_mel_bins?: boolean }): Promise<{ input_features: TensorLike }>
  /** The Kaldi log-mel fbank before normalization, `[frames, 80]`. */
  _extract_fbank_features(waveform: Float32Array, maxLength?: number): Promise<TensorLike>
}
export interface TransformersModule {
  SeamlessM4TFeatureExtractor: new (config: typeof seamlessConfig) => SeamlessExtractor
  env: { version: string; allowRemoteModels: boolean; allowLocalModels: boolean }
}

/** Loads @huggingface/transformers from bench/transformers (installed by `npm run bench`), or says why not. */
export function loadTransformers(): TransformersModule | string {
  const dir = join(import.meta.dirname, 'transformers')
  if (!existsSync(join(dir, 'node_modules', '@huggingface', 'transformers'))) {
    return 'bench/transformers is not installed (npm run bench installs it with --ignore-scripts)'
  }
  const module = createRequire(join(dir, 'package.json'))('@huggingface/transformers') as TransformersModule
  module.env.allowRemoteModels = false // nothing may come from the hub: the config is inline
  module.env.allowLocalModels = false
  return module
}
