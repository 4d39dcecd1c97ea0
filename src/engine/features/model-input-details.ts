/**
 * The model input of one example with everything the Inspector explains about it: the steps in words, the reference
 * SpecAugment draw on the waveform (docs/reference-pipeline.md §12: the reference's RNG is unseeded, so mixscope draws
 * from Python's `random.Random(seed)` and the seed is an input), mixscope's `features` SpecAugment masks over the
 * fbank (outlined, not applied), value statistics, and the largest difference to the other device.
 */
import type { DecodedAudio } from '../audio/types.ts'
import { toMono } from '../audio/mono.ts'
import type { TrainingDtype } from './dsp/bf16.ts'
import { layerNorm, LAYER_NORM_EPS } from './dsp/normalize.ts'
import { PythonRandom } from '../random/python-random.ts'
import {
  drawFeatureSpecAugment, drawReferenceSpecAugment, SPEC_AUG_HOP, SPEC_AUG_N_FFT, type FeatureSpecAugmentOptions, type Mask,
} from './dsp/spec-augment.ts'
import { finding, type Finding } from '../core/findings.ts'
import { referenceStftDb, type DisplaySpectrogram } from './display-spectrogram.ts'
import {
  channelZeroFinding, computeModelInput, standardizeFinding,
  type FeatureBackend, type FeatureDevice, type FeatureWhere, type ModelInputConfig,
} from './model-input.ts'

/** Summary statistics over the finite values (NaN and ±inf counted, never averaged). */
export interface ValueStats {
  min: number | null
  max: number | null
  mean: number | null
  std: number | null
  nonFinite: number
}

/** The model input as training would receive it, explained. */
export interface ModelInput {
  kind: 'waveform' | 'fbank'
  /** Waveform `[samples]` or fbank `[frames, 80]` row-major, in the training dtype's values (bf16 widened to float32). */
  data: Float32Array
  shape: number[]
  dtype: TrainingDtype
  /** Where it was computed and, for the GPU, on which adapter. */
  device: FeatureDevice
  adapter: string | null
  /** Why the CPU ran although the GPU was asked for. */
  fallbackReason: string | null
  /** The steps applied, in order, in words. */
  steps: string[]
  stats: ValueStats
  /** Reference SpecAugment (waveform configs with `spec_aug_p`): the hop-200 STFT it acts on, in dB, and its masks. */
  specAugment: {
    seed: number
    p: number
    applied: boolean
    /** Both reference masks zero TIME frames of this STFT (docs/reference-pipeline.md §12). */
    masks: Mask[]
    stft: DisplaySpectrogram
    /** Samples after the iSTFT (200·⌊N/200⌋ when applied). */
    outputSamples: number
    error: string | null
  } | null
  /** mixscope `features` SpecAugment masks over the fbank (fbank configs): outlined, not applied. */
  featureMasks: { seed: number; p: number; applied: boolean; masks: Mask[] } | null
  /** The other device's result against this one: largest |Δ| over values finite in both, and NaN placement. */
  comparison: { device: FeatureDevice; maxAbsDiff: number | null; nanMismatch: number; error: string | null } | null
  /** Milliseconds of this device's path (mono/normalize/SpecAugment draws included, the comparison not). */
  elapsedMs: number
}

/** Where to compute: the backend (`null` = CPU), the adapter it runs on and why the CPU runs when a GPU was asked for. */
export interface ModelInputTarget {
  backend: FeatureBackend | null
  adapter: string | null
  fallbackReason: string | null
}

/** Options of `modelInputDetails`. */
export interface ModelInputDetailsOptions {
  /** Seed of `random.Random` for both SpecAugment draws (reference on the waveform, `features` on the fbank). */
  seed: number
  /** mixscope's `features` SpecAugment over the fbank (drawn and outlined only: training does not run it). */
  featureSpecAugment: FeatureSpecAugmentOptions
  target: ModelInputTarget
  /** Also compute on the other device: its backend (`null` = CPU), or why it is not available. */
  compareWith?: { backend: FeatureBackend | null } | { unavailable: string }
  /** Clock in milliseconds for `elapsedMs`; default `performance.now`. */
  now?: () => number
}

/** Finite-value statistics. */
function valueStats(x: Float32Array): ValueStats {
  let n = 0, sum = 0, min = Infinity, max = -Infinity, nonFinite = 0
  for (let i = 0; i < x.length; i++) {
    const v = x[i]
    if (!Number.isFinite(v)) { nonFinite++; continue }
    n++; sum += v
    if (v < min) min = v
    if (v > max) max = v
  }
  if (n === 0) return { min: null, max: null, mean: null, std: null, nonFinite }
  const mean = sum / n
  let sq = 0
  for (let i = 0; i < x.length; i++) if (Number.isFinite(x[i])) sq += (x[i] - mean) ** 2
  return { min, max, mean, std: Math.sqrt(sq / n), nonFinite }
}

/** Largest |a − b| over indices finite in both, and how many indices are NaN in exactly one. */
function compareValues(a: Float32Array, b: Float32Array): { maxAbsDiff: number | null; nanMismatch: number } {
  if (a.length !== b.length) return { maxAbsDiff: null, nanMismatch: Math.abs(a.length - b.length) }
  let worst = 0, nanMismatch = 0
  for (let i = 0; i < a.length; i++) {
    const fa = Number.isFinite(a[i]), fb = Number.isFinite(b[i])
    if (fa && fb) worst = Math.max(worst, Math.abs(a[i] - b[i]))
    else if (Number.isNaN(a[i]) !== Number.isNaN(b[i])) nanMismatch++
  }
  return { maxAbsDiff: worst, nanMismatch }
}

/**
 * The model input of `audio` under `config`, explained (see the module comment). Findings about the example
 * (`fbank-channel-zero`, `spec-augment-fails`: the reference raises, `fbank-standardize-undefined`) go to `findings`.
 */
export async function modelInputDetails(
  audio: DecodedAudio, config: ModelInputConfig, options: ModelInputDetailsOptions, findings: Finding[], where: FeatureWhere,
): Promise<ModelInput> {
  const { seed, target } = options
  const now = options.now ?? (() => performance.now())
  const started = now()
  const steps: string[] = []
  let specAugment: ModelInput['specAugment'] = null
  let masks: Mask[] | null = null
  if (config.use_fbank) {
    const zero = channelZeroFinding(audio, where)
    if (zero) findings.push(zero)
    steps.push(audio.channels.length > 1 ? `channel 0 of ${audio.channels.length}` : 'channel 0')
    steps.push(`Kaldi fbank, 80 mel bins at ${audio.sampleRate} Hz`, 'standardize per bin (unbiased std, no epsilon)')
  } else {
    steps.push(audio.channels.length > 1 ? `mono mean of ${audio.channels.length} channels` : 'mono (1 channel)')
    let x = toMono(audio.channels)
    if (config.normalize_audio) {
      steps.push(`layer norm (eps ${LAYER_NORM_EPS})`)
      x = layerNorm(x)
    }
    if (config.spec_aug_p !== null) {
      const p = config.spec_aug_p
      let error: string | null = null, applied = false, drawn: Mask[] = []
      try {
        const draw = drawReferenceSpecAugment(new PythonRandom(seed), x.length, { p, freqMaskParam: config.spec_aug_freq_mask_param })
        applied = draw.applied
        drawn = draw.masks
        if (applied && x.length <= SPEC_AUG_N_FFT / 2) throw new Error(`specaugment: reflect padding needs more than 200 samples, got ${x.length}`)
      } catch (e) {
        error = (e as Error).message
        applied = false
        findings.push(finding('error', 'spec-augment-fails', where.path, `${error}: the reference raises on this example`, where))
      }
      masks = applied ? drawn : null
      steps.push(applied ? `reference SpecAugment (seed ${seed}, p ${p}): ${drawn.length} masks, iSTFT` : `reference SpecAugment not drawn (seed ${seed}, p ${p})`)
      specAugment = {
        seed, p, applied, masks: drawn, error,
        stft: referenceStftDb(x, audio.sampleRate),
        outputSamples: applied ? SPEC_AUG_HOP * Math.floor(x.length / SPEC_AUG_HOP) : x.length,
      }
    }
  }
  steps.push(config.dtype)
  const device: FeatureDevice = target.backend ? 'gpu' : 'cpu'
  const computed = await computeModelInput(audio, config, masks, target.backend)
  if (computed.problem) {
    const undefinedFinding = standardizeFinding(computed.problem.problem, computed.problem.undefinedBins, computed.shape[0], where)
    if (undefinedFinding) findings.push(undefinedFinding)
  }
  const elapsedMs = now() - started
  let featureMasks: ModelInput['featureMasks'] = null
  if (config.use_fbank) {
    const fsa = options.featureSpecAugment
    const draw = drawFeatureSpecAugment(new PythonRandom(seed), computed.shape[0], computed.shape[1], fsa)
    featureMasks = { seed, p: fsa.p, applied: draw.applied, masks: draw.masks }
  }
  let comparison: ModelInput['comparison'] = null
  const other: FeatureDevice = device === 'gpu' ? 'cpu' : 'gpu'
  if (options.compareWith && 'unavailable' in options.compareWith) {
    comparison = { device: other, maxAbsDiff: null, nanMismatch: 0, error: options.compareWith.unavailable }
  } else if (options.compareWith) {
    try {
      const b = await computeModelInput(audio, config, masks, options.compareWith.backend)
      comparison = { device: other, ...compareValues(computed.data, b.data), error: null }
    } catch (e) {
      comparison = { device: other, maxAbsDiff: null, nanMismatch: 0, error: (e as Error).message }
    }
  }
  return {
    kind: config.use_fbank ? 'fbank' : 'waveform',
    data: computed.data, shape: computed.shape, dtype: config.dtype, device,
    adapter: target.adapter, fallbackReason: target.fallbackReason, steps,
    stats: valueStats(computed.data), specAugment, featureMasks, comparison, elapsedMs,
  }
}
