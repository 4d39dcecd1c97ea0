/**
 * The Inspector's engine side, for one example: decode (WebCodecs first where the runtime has it), a 16-bit WAV for
 * the `<audio>` element, the mono display waveform and display spectrogram, and the model input as training would
 * receive it (docs/conventions.md "Audio and features", docs/reference-pipeline.md §11-§13) on the worker's GPU or the CPU:
 *   waveform configs: mono mean → layer norm when `normalize_audio` → reference SpecAugment when `spec_aug_p` → dtype;
 *   fbank configs:    channel 0 → Kaldi fbank (80 bins, own rate) → standardize → dtype.
 * SpecAugment draws come from Python's `random.Random(seed)` (the reference's own RNG is unseeded, docs/reference-pipeline.md §12), so
 * the seed is part of the request. Also: transcript tokens (char vocabulary or a loaded SentencePiece model), the
 * example's findings, the worker's GPU status and the dataset's I/O counters.
 */
import type { OpenDataset } from '../discovery/open.ts'
import { decodeAudio } from '../audio/decode.ts'
import { audioLengthFindings } from '../audio/length-check.ts'
import { toMono } from '../audio/mono.ts'
import { resampleChannels } from '../audio/resample.ts'
import type { DecodedAudio } from '../audio/types.ts'
import { toWav16 } from '../audio/wav-encode.ts'
import type { PipelineConfig, TrainingDtype } from '../config/types.ts'
import { castToTrainingDtype } from '../dsp/bf16.ts'
import { kaldiFbank } from '../dsp/fbank.ts'
import { layerNorm, LAYER_NORM_EPS } from '../dsp/normalize.ts'
import { PythonRandom } from '../dsp/python-random.ts'
import {
  applyReferenceSpecAugment, drawFeatureSpecAugment, drawReferenceSpecAugment, SPEC_AUG_HOP, SPEC_AUG_N_FFT,
  type FeatureSpecAugmentOptions, type Mask,
} from '../dsp/spec-augment.ts'
import { powerSpectrogramDb } from '../dsp/spectrogram.ts'
import { describeStandardizeProblem, standardizeFeatures, type StandardizeProblem } from '../dsp/standardize.ts'
import { stft } from '../dsp/stft.ts'
import { hannWindow } from '../dsp/window.ts'
import { readExample, parseExampleId, type ExampleRow } from '../examples/read-example.ts'
import { finding, MixscopeError, sortFindings, type Finding } from '../findings.ts'
import type { FeaturePipeline } from '../gpu/feature-pipeline.ts'
import type { IoCounters } from '../source/source.ts'
import { buildCharVocabulary, charTokenize } from '../text/char-tokenizer.ts'
import { loadSpmTokenizer, type SpmTokenizer } from '../text/spm-tokenizer.ts'
import { existingExampleIndex } from './examples-handlers.ts'
import { gpuStatus, withGpuLock, workerFeaturePipeline, type GpuStatus } from './gpu-state.ts'
import type { HandlerTable } from './handler-types.ts'

/** The config fields the model input depends on (reference names). */
export type InspectConfig = Pick<PipelineConfig,
  'use_fbank' | 'normalize_audio' | 'spec_aug_p' | 'spec_aug_freq_mask_param' | 'dtype' | 'min_audio_len' | 'max_audio_len'>

/** Where features are computed: the worker's GPU (falls back to the CPU, saying why) or the CPU. */
export type FeatureDevice = 'gpu' | 'cpu'

export interface InspectParams {
  dataset: number
  /** `<file>:<row>` (not `id`: that name is the request's own id on the wire). */
  exampleId: string
  config: InspectConfig
  /** Seed of `random.Random` for both SpecAugment draws (reference on the waveform, `features` on the fbank). */
  seed: number
  /** mixscope's `features` SpecAugment over the fbank (drawn and outlined only: training does not run it). */
  featureSpecAugment: FeatureSpecAugmentOptions
  device: FeatureDevice
  /** Also compute the model input on the other device and report the largest difference. */
  compare?: boolean
  /** A SentencePiece model loaded with `tokenizer-load`; absent: the char vocabulary. */
  tokenizer?: number | null
}

/** What the row and the decoder say about the example. */
export interface InspectMeta {
  id: string
  path: string
  row: number
  rowGroup: number
  keys: Record<string, string>
  /** Stored `audio_size` (16 kHz samples). */
  storedSamples: number | null
  /** Decoded frames per channel at `sampleRate`. */
  decodedFrames: number
  sampleRate: number
  channels: number
  container: string
  codec: string | null
  decoder: string
  /** Size of the encoded audio in bytes. */
  encodedBytes: number
  warnings: string[]
}

/** A dB spectrogram for pictures, frame-major `[frames, bins]`. */
export interface DisplaySpectrogram {
  data: Float32Array
  frames: number
  bins: number
  nFft: number
  hop: number
  /** First sample of the first frame, at `sampleRate`. */
  start: number
  sampleRate: number
}

/** Summary statistics over the finite values (NaN and ±inf counted, never averaged). */
export interface ValueStats {
  min: number | null
  max: number | null
  mean: number | null
  std: number | null
  nonFinite: number
}

/** The model input as training would receive it. */
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

export interface InspectTokens {
  /** `char vocabulary (N symbols)` or the SentencePiece model's name. */
  tokenizer: string
  ids: number[]
  pieces: string[]
  /** Ids that are the unknown token. */
  unknown: number
}

export interface InspectResult {
  meta: InspectMeta
  text: string | null
  tokens: InspectTokens | null
  /** 16-bit PCM WAV at `sampleRate`, for `<audio>` (a Blob URL on the page). */
  playback: { wav: ArrayBuffer; sampleRate: number; channels: number }
  /** Mono mean at the native rate, for the waveform picture. */
  display: Float32Array
  spectrogram: DisplaySpectrogram
  modelInput: ModelInput
  findings: Finding[]
  gpu: GpuStatus
  decodeMs: number
}

export interface SpectrogramParams {
  dataset: number
  exampleId: string
  /** Visible window in samples at the native rate, `[start, end)`. */
  start: number
  end: number
  /** Most frames wanted (the hop grows to fit; at least 160). */
  maxFrames: number
  device: FeatureDevice
}

export interface TokenizerLoadParams {
  name: string
  bytes: Uint8Array
}

export interface TokenizerLoadResult {
  handle: number
  name: string
  vocabSize: number
  unkId: number | null
}

export interface EngineStatusParams {
  /** The dataset whose I/O counters to return; `null` for none. */
  dataset: number | null
  /** Ask for the GPU device now (the first Inspector request would otherwise). */
  requestGpu?: boolean
}

export interface EngineStatusResult {
  counters: IoCounters | null
  gpu: GpuStatus
}

/** Rates an `<audio>` element plays everywhere; others are resampled to 48 kHz for playback. */
const playableRate = (rate: number) => Number.isInteger(rate) && rate >= 8000 && rate <= 96000

interface Decoded {
  row: ExampleRow
  audio: DecodedAudio
  ms: number
}

/** Recently decoded examples per dataset (a few, for the spectrogram window requests that follow an inspect). */
const decodedCache = new WeakMap<OpenDataset, Map<string, Promise<Decoded>>>()
const decodedCacheSize = 4
const tokenizers = new Map<number, { name: string; tokenizer: SpmTokenizer }>()
let nextTokenizer = 1

async function decodeExample(dataset: OpenDataset, id: string, signal?: AbortSignal): Promise<Decoded> {
  let cache = decodedCache.get(dataset)
  if (!cache) { cache = new Map(); decodedCache.set(dataset, cache) }
  let pending = cache.get(id)
  if (pending) {
    cache.delete(id)
    cache.set(id, pending)
    return pending
  }
  pending = (async () => {
    const { file, row } = parseExampleId(id)
    const example = await readExample(dataset, file, row, { signal })
    if (!example.audio) throw new MixscopeError(`example: ${id} has a null audio_bytes`, 'null-value')
    const started = performance.now()
    const audio = await decodeAudio(example.audio, { id })
    return { row: example, audio, ms: performance.now() - started }
  })()
  cache.set(id, pending)
  pending.catch(() => cache.delete(id))
  while (cache.size > decodedCacheSize) cache.delete(cache.keys().next().value as string)
  return pending
}

/** Finite-value statistics. */
export function valueStats(x: Float32Array): ValueStats {
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
export function compareValues(a: Float32Array, b: Float32Array): { maxAbsDiff: number | null; nanMismatch: number } {
  if (a.length !== b.length) return { maxAbsDiff: null, nanMismatch: Math.abs(a.length - b.length) }
  let worst = 0, nanMismatch = 0
  for (let i = 0; i < a.length; i++) {
    const fa = Number.isFinite(a[i]), fb = Number.isFinite(b[i])
    if (fa && fb) worst = Math.max(worst, Math.abs(a[i] - b[i]))
    else if (Number.isNaN(a[i]) !== Number.isNaN(b[i])) nanMismatch++
  }
  return { maxAbsDiff: worst, nanMismatch }
}

/** The hop-200 STFT the reference SpecAugment acts on, in dB (`[T, 201]`, T = 1 + ⌊N/200⌋). */
function referenceStftDb(x: Float32Array, sampleRate: number): DisplaySpectrogram {
  const spec = stft(x, SPEC_AUG_N_FFT, SPEC_AUG_HOP, hannWindow(SPEC_AUG_N_FFT, true))
  const data = new Float32Array(spec.frames * spec.bins)
  for (let i = 0; i < data.length; i++) {
    const p = spec.data[2 * i] ** 2 + spec.data[2 * i + 1] ** 2
    data[i] = 10 * Math.log10(Math.max(p, 1e-10))
  }
  return { data, frames: spec.frames, bins: spec.bins, nFft: SPEC_AUG_N_FFT, hop: SPEC_AUG_HOP, start: -SPEC_AUG_N_FFT / 2, sampleRate }
}

/** A model input and, for fbank, whether standardizing left bins undefined. */
export interface ComputedInput {
  data: Float32Array
  shape: number[]
  problem: { problem: StandardizeProblem; undefinedBins: number[] } | null
}

/** One example's model input on one device (`pipeline`: GPU, `null`: CPU). `masks`: the reference SpecAugment masks, or `null` when not applied. */
export async function computeModelInput(
  audio: DecodedAudio, config: InspectConfig, masks: Mask[] | null, pipeline: FeaturePipeline | null,
): Promise<ComputedInput> {
  if (config.use_fbank) {
    const channel0 = audio.channels[0]
    if (pipeline) {
      const [g] = await withGpuLock(() => pipeline.fbank([channel0], audio.sampleRate, { standardize: true, dtype: config.dtype }))
      return { data: g.data, shape: [g.frames, g.bins], problem: g.problem ? { problem: g.problem, undefinedBins: g.undefinedBins } : null }
    }
    const s = standardizeFeatures(kaldiFbank(channel0, audio.sampleRate))
    return { data: castToTrainingDtype(s.data, config.dtype), shape: [s.frames, s.bins], problem: s.problem ? { problem: s.problem, undefinedBins: s.undefinedBins } : null }
  }
  if (pipeline) {
    const [w] = await withGpuLock(() => pipeline.waveform([audio.channels], { normalize: config.normalize_audio, specAugment: [masks], dtype: config.dtype }))
    return { data: w, shape: [w.length], problem: null }
  }
  let x = toMono(audio.channels)
  if (config.normalize_audio) x = layerNorm(x)
  if (masks) x = applyReferenceSpecAugment(x, masks)
  x = castToTrainingDtype(x, config.dtype)
  return { data: x, shape: [x.length], problem: null }
}

/** The worker's GPU feature pipeline for `gpu` (or `null` and why not), `null` for `cpu`. */
export async function pipelineFor(device: FeatureDevice): Promise<{ pipeline: FeaturePipeline | null; reason: string | null }> {
  if (device === 'cpu') return { pipeline: null, reason: null }
  const got = await workerFeaturePipeline()
  return typeof got === 'string' ? { pipeline: null, reason: got } : { pipeline: got, reason: null }
}

async function modelInput(params: InspectParams, audio: DecodedAudio, findings: Finding[], where: { path: string; row: number; row_group: number }): Promise<ModelInput> {
  const { config, seed } = params
  const started = performance.now()
  const steps: string[] = []
  let specAugment: ModelInput['specAugment'] = null
  let masks: Mask[] | null = null
  if (config.use_fbank) {
    if (audio.channels.length > 1) {
      steps.push(`channel 0 of ${audio.channels.length}`)
      findings.push(finding('info', 'fbank-channel-zero', where.path, `fbank: ${audio.channels.length} channels: the reference's fbank uses channel 0 only`, where))
    } else steps.push('channel 0')
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
        stft: x.length > SPEC_AUG_N_FFT / 2 ? referenceStftDb(x, audio.sampleRate) : emptySpectrogram(audio.sampleRate),
        outputSamples: applied ? SPEC_AUG_HOP * Math.floor(x.length / SPEC_AUG_HOP) : x.length,
      }
    }
  }
  steps.push(config.dtype)
  const { pipeline, reason } = await pipelineFor(params.device)
  const device: FeatureDevice = pipeline ? 'gpu' : 'cpu'
  const computed = await computeModelInput(audio, config, masks, pipeline)
  if (computed.problem) {
    const message = describeStandardizeProblem({ ...computed.problem, frames: computed.shape[0] })
    if (message) findings.push(finding(computed.problem.problem === 'no-frames' ? 'error' : 'warning', 'fbank-standardize-undefined', where.path, message, where))
  }
  const elapsedMs = performance.now() - started
  let featureMasks: ModelInput['featureMasks'] = null
  if (config.use_fbank) {
    const options = params.featureSpecAugment
    const draw = drawFeatureSpecAugment(new PythonRandom(seed), computed.shape[0], computed.shape[1], options)
    featureMasks = { seed, p: options.p, applied: draw.applied, masks: draw.masks }
  }
  let comparison: ModelInput['comparison'] = null
  if (params.compare) {
    const other: FeatureDevice = device === 'gpu' ? 'cpu' : 'gpu'
    const otherPipeline = await pipelineFor(other)
    if (other === 'gpu' && !otherPipeline.pipeline) comparison = { device: other, maxAbsDiff: null, nanMismatch: 0, error: otherPipeline.reason }
    else {
      try {
        const b = await computeModelInput(audio, config, masks, otherPipeline.pipeline)
        comparison = { device: other, ...compareValues(computed.data, b.data), error: null }
      } catch (e) {
        comparison = { device: other, maxAbsDiff: null, nanMismatch: 0, error: (e as Error).message }
      }
    }
  }
  return {
    kind: config.use_fbank ? 'fbank' : 'waveform',
    data: computed.data, shape: computed.shape, dtype: config.dtype, device,
    adapter: pipeline ? gpuStatus().adapter : null, fallbackReason: reason, steps,
    stats: valueStats(computed.data), specAugment, featureMasks, comparison, elapsedMs,
  }
}

function emptySpectrogram(sampleRate: number): DisplaySpectrogram {
  return { data: new Float32Array(0), frames: 0, bins: 0, nFft: 400, hop: 160, start: 0, sampleRate }
}

/** Display spectrogram of `x[start, end)` with at most `maxFrames` frames (n_fft 400, hop ≥ 160). */
async function displaySpectrogram(x: Float32Array, sampleRate: number, start: number, end: number, maxFrames: number, pipeline: FeaturePipeline | null): Promise<DisplaySpectrogram> {
  const nFft = 400
  const length = end - start
  if (length < nFft) return { ...emptySpectrogram(sampleRate), start }
  const hop = Math.max(160, Math.ceil((length - nFft) / Math.max(1, maxFrames - 1)))
  const s = pipeline ? await withGpuLock(() => pipeline.spectrogram(x, start, end, { nFft, hop })) : powerSpectrogramDb(x, start, end, { nFft, hop })
  return { data: s.data, frames: s.frames, bins: s.bins, nFft, hop, start, sampleRate }
}

async function tokensOf(text: string | null, dataset: OpenDataset, handle: number | null | undefined): Promise<InspectTokens | null> {
  if (text === null) return null
  if (handle !== null && handle !== undefined) {
    const entry = tokenizers.get(handle)
    if (!entry) throw new MixscopeError(`tokenizer: no loaded SentencePiece model with handle ${handle}`, 'unknown-tokenizer', 'usage')
    const ids = entry.tokenizer.encode(text)
    return { tokenizer: entry.name, ids, pieces: ids.map((id) => entry.tokenizer.pieces[id] ?? `#${id}`), unknown: ids.filter((id) => id === entry.tokenizer.unkId).length }
  }
  const index = existingExampleIndex(dataset)
  const texts = index ? (await index.catch(() => null))?.rows.flatMap((r) => (r.text === null ? [] : [r.text])) ?? [text] : [text]
  const vocabulary = buildCharVocabulary(texts)
  const ids = charTokenize(vocabulary, text)
  const scope = texts.length > 1 ? `the dataset's ${texts.length} transcripts` : 'this transcript'
  return {
    tokenizer: `char vocabulary of ${scope} (${vocabulary.tokens.length} symbols)`,
    ids, pieces: ids.map((id) => vocabulary.tokens[id]), unknown: ids.filter((id) => id === vocabulary.unkIndex).length,
  }
}

async function inspect(params: InspectParams, dataset: OpenDataset, signal?: AbortSignal): Promise<InspectResult> {
  const { row, audio, ms } = await decodeExample(dataset, params.exampleId, signal)
  signal?.throwIfAborted()
  const where = { path: row.file, row: row.row, row_group: row.row_group }
  const findings: Finding[] = []
  const index = existingExampleIndex(dataset)
  if (index) findings.push(...((await index.catch(() => null))?.findings.get(params.exampleId) ?? []))
  findings.push(...dataset.findings.filter((f) => f.path === row.file && (f.row === null || f.row === row.row)))
  findings.push(...audio.warnings.map((w) => finding('info', 'audio-decode-warning', row.file, w, where)))
  if (!audio.trainable) findings.push(finding('error', 'untrainable-audio', row.file, `${params.exampleId}: training cannot read this row (what plays here is what decodes): ${audio.untrainable}`, where))
  findings.push(...audioLengthFindings(where, row.audioSize, audio))
  const { min_audio_len: min, max_audio_len: max } = params.config
  if (row.audioSize !== null && (row.audioSize < min || row.audioSize > max)) {
    findings.push(finding('warning', 'length-filtered', row.file,
      `audio_size ${row.audioSize} is outside [min_audio_len ${min}, max_audio_len ${max}]: training drops this example`, where))
  }
  const input = await modelInput(params, audio, findings, where)
  signal?.throwIfAborted()
  const mono = toMono(audio.channels)
  const playChannels = audio.channels.length <= 2 ? audio.channels : [mono]
  const playRate = playableRate(audio.sampleRate) ? audio.sampleRate : 48000
  const wav = toWav16(playRate === audio.sampleRate ? playChannels : resampleChannels(playChannels, audio.sampleRate, playRate), playRate)
  const spectrogram = await displaySpectrogram(mono, audio.sampleRate, 0, mono.length, 1200, input.device === 'gpu' ? (await pipelineFor('gpu')).pipeline : null)
  return {
    meta: {
      id: params.exampleId, path: row.file, row: row.row, rowGroup: row.row_group, keys: row.keys, storedSamples: row.audioSize,
      decodedFrames: audio.frames, sampleRate: audio.sampleRate, channels: audio.channels.length, container: audio.container,
      codec: audio.codec, decoder: audio.decoder, encodedBytes: row.audio?.length ?? 0, warnings: audio.warnings,
    },
    text: row.text,
    tokens: await tokensOf(row.text, dataset, params.tokenizer),
    playback: { wav: wav.buffer.slice(wav.byteOffset, wav.byteOffset + wav.byteLength) as ArrayBuffer, sampleRate: playRate, channels: playChannels.length },
    display: mono === audio.channels[0] ? mono.slice() : mono,
    spectrogram,
    modelInput: input,
    findings: sortFindings(findings),
    gpu: gpuStatus(),
    decodeMs: ms,
  }
}

/** Handlers of the Inspector's kinds and the status bar's `engine-status`. */
export const inspectHandlers: HandlerTable<'inspect-example' | 'inspect-spectrogram' | 'tokenizer-load' | 'engine-status'> = {
  'inspect-example': (message, options, context) => inspect(message, context.dataset(message.dataset), options.signal),
  'inspect-spectrogram': async (message, options, context) => {
    const { audio } = await decodeExample(context.dataset(message.dataset), message.exampleId, options.signal)
    const mono = toMono(audio.channels)
    const start = Math.max(0, Math.min(mono.length, Math.floor(message.start)))
    const end = Math.max(start, Math.min(mono.length, Math.ceil(message.end)))
    return displaySpectrogram(mono, audio.sampleRate, start, end, Math.max(1, message.maxFrames), (await pipelineFor(message.device)).pipeline)
  },
  'tokenizer-load': async (message) => {
    const tokenizer = await loadSpmTokenizer(message.bytes)
    const handle = nextTokenizer++
    tokenizers.set(handle, { name: message.name, tokenizer })
    return { handle, name: message.name, vocabSize: tokenizer.vocabSize, unkId: tokenizer.unkId }
  },
  'engine-status': async (message, _options, context) => {
    if (message.requestGpu) await workerFeaturePipeline()
    const dataset = message.dataset === null ? null : context.datasets.get(message.dataset) ?? null
    return { counters: dataset ? { ...dataset.source.counters } : null, gpu: gpuStatus() }
  },
}

/** The request kinds of this module, as protocol.ts `Requests` entries. */
export interface InspectRequests {
  'inspect-example': { params: InspectParams; result: InspectResult }
  'inspect-spectrogram': { params: SpectrogramParams; result: DisplaySpectrogram }
  'tokenizer-load': { params: TokenizerLoadParams; result: TokenizerLoadResult }
  'engine-status': { params: EngineStatusParams; result: EngineStatusResult }
}
