/**
 * The features stage: the model input of one decoded example as training receives it (docs/conventions.md "Audio and
 * features", docs/reference-pipeline.md §11-§13), on the CPU (the TS reference) or on a WebGPU `FeaturePipeline`:
 *   waveform configs: mono mean → layer norm when `normalize_audio` → reference SpecAugment (masks given) → dtype;
 *   fbank configs:    channel 0 → Kaldi fbank (80 bins, the example's own rate) → standardize → dtype.
 * The one implementation behind the Inspector (`inspect-example`), the Batches view's loader cost (`plan-featurize`)
 * and `mixscope fbank`, so they cannot disagree.
 */
import type { DecodedAudio } from '../audio/types.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { castToTrainingDtype, type TrainingDtype } from './dsp/bf16.ts'
import { kaldiFbank } from './dsp/fbank.ts'
import { toMono } from '../audio/mono.ts'
import { layerNorm } from './dsp/normalize.ts'
import { applyReferenceSpecAugment, type Mask } from './dsp/spec-augment.ts'
import { describeStandardizeProblem, standardizeFeatures, type StandardizeProblem } from './dsp/standardize.ts'
import { finding, type Finding } from '../core/findings.ts'
import type { FeaturePipeline } from './gpu/feature-pipeline.ts'

/** The config fields the model input depends on (reference names). */
export type ModelInputConfig = Pick<PipelineConfig, 'use_fbank' | 'normalize_audio' | 'spec_aug_p' | 'spec_aug_freq_mask_param' | 'dtype'>

/** Where features are computed: a WebGPU pipeline, or the CPU. */
export type FeatureDevice = 'gpu' | 'cpu'

/**
 * A GPU to compute on. `lock` runs each pipeline call after the earlier ones have settled (a `FeaturePipeline` pools
 * its buffers, so two calls in flight at once on one pipeline would share a buffer); omit it when nothing else uses
 * the pipeline. `null` wherever a `FeatureBackend | null` is asked for means the CPU.
 */
export interface FeatureBackend {
  pipeline: FeaturePipeline
  lock?: <T>(work: () => Promise<T>) => Promise<T>
}

/** Options of `fbankFeatures`. */
export interface FbankOptions {
  /** Per-bin standardization over frames (unbiased std, no epsilon, as fairseq2). */
  standardize: boolean
  dtype: TrainingDtype
}

/** Fbank features `[frames, bins]` row-major in the dtype's values (bf16 widened to float32). */
export interface FbankResult {
  data: Float32Array
  frames: number
  bins: number
  /** Why standardizing left bins undefined (NaN/±inf as in the reference), `null` when it did not (or was not asked). */
  problem: StandardizeProblem | null
  undefinedBins: number[]
}

/** One example's model input. */
export interface ComputedInput {
  /** Waveform `[samples]` or fbank `[frames, 80]` row-major, in the training dtype's values (bf16 widened to float32). */
  data: Float32Array
  shape: number[]
  /** For fbank: whether standardizing left bins undefined. */
  problem: { problem: StandardizeProblem; undefinedBins: number[] } | null
}

/** Where an example's findings point: a file (and row) of the dataset, or an audio file's name. */
export interface FeatureWhere {
  path: string
  row?: number | null
  row_group?: number | null
}

const run = <T>(backend: FeatureBackend, work: () => Promise<T>): Promise<T> => (backend.lock ? backend.lock(work) : work())

/**
 * Kaldi fbank of channel 0 at the example's own rate (80 mel bins, 25 ms / 10 ms frames, snip edges, waveform ×
 * 32768), optionally standardized, cast to `dtype`: the reference's `use_fbank` features.
 */
export async function fbankFeatures(audio: DecodedAudio, options: FbankOptions, backend: FeatureBackend | null): Promise<FbankResult> {
  const channel0 = audio.channels[0] ?? new Float32Array(0)
  if (backend) {
    const [g] = await run(backend, () => backend.pipeline.fbank([channel0], audio.sampleRate, { standardize: options.standardize, dtype: options.dtype }))
    return { data: g.data, frames: g.frames, bins: g.bins, problem: g.problem, undefinedBins: g.undefinedBins }
  }
  const raw = kaldiFbank(channel0, audio.sampleRate)
  const features = options.standardize ? standardizeFeatures(raw) : { ...raw, problem: null, undefinedBins: [] }
  return { data: castToTrainingDtype(features.data, options.dtype), frames: features.frames, bins: features.bins, problem: features.problem, undefinedBins: features.undefinedBins }
}

/**
 * One example's model input on one device.
 * @param masks the reference SpecAugment masks to apply (waveform configs), or `null` when SpecAugment is not applied
 * @param backend the GPU to use, or `null` for the CPU
 */
export async function computeModelInput(audio: DecodedAudio, config: ModelInputConfig, masks: Mask[] | null, backend: FeatureBackend | null): Promise<ComputedInput> {
  if (config.use_fbank) {
    const f = await fbankFeatures(audio, { standardize: true, dtype: config.dtype }, backend)
    return { data: f.data, shape: [f.frames, f.bins], problem: f.problem ? { problem: f.problem, undefinedBins: f.undefinedBins } : null }
  }
  if (backend) {
    const [w] = await run(backend, () => backend.pipeline.waveform([audio.channels], { normalize: config.normalize_audio, specAugment: [masks], dtype: config.dtype }))
    return { data: w, shape: [w.length], problem: null }
  }
  let x = toMono(audio.channels)
  if (config.normalize_audio) x = layerNorm(x)
  if (masks) x = applyReferenceSpecAugment(x, masks)
  x = castToTrainingDtype(x, config.dtype)
  return { data: x, shape: [x.length], problem: null }
}

/** `fbank-channel-zero` (info) when the example has more than one channel: the reference's fbank uses channel 0 only. */
export function channelZeroFinding(audio: DecodedAudio, where: FeatureWhere): Finding | null {
  if (audio.channels.length <= 1) return null
  return finding('info', 'fbank-channel-zero', where.path, `fbank: ${audio.channels.length} channels: the reference's fbank uses channel 0 only`, where)
}

/**
 * `fbank-standardize-undefined` when standardizing left bins undefined: `error` for 0 frames (the reference's
 * Seq2SeqBatch rejects the example), `warning` for NaN/±inf values (training runs on them silently).
 */
export function standardizeFinding(problem: StandardizeProblem | null, undefinedBins: number[], frames: number, where: FeatureWhere): Finding | null {
  const message = describeStandardizeProblem({ problem, undefinedBins, frames })
  if (!problem || !message) return null
  return finding(problem === 'no-frames' ? 'error' : 'warning', 'fbank-standardize-undefined', where.path, message, where)
}
