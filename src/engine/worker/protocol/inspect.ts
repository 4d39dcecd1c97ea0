/**
 * The Inspector's kinds (`inspect-example`, `inspect-spectrogram`, `tokenizer-load`) and the status bar's
 * `engine-status`. Types only (a leaf of protocol.ts).
 */
import type { PipelineConfig } from '../../pipeline/config/types.ts'
import type { FeatureSpecAugmentOptions } from '../../features/dsp/spec-augment.ts'
import type { DisplaySpectrogram } from '../../features/display-spectrogram.ts'
import type { ModelInput } from '../../features/model-input-details.ts'
import type { FeatureDevice, ModelInputConfig } from '../../features/model-input.ts'
import type { Finding } from '../../core/findings.ts'
import type { RowFindingSummary } from '../../audit/flagged.ts'
import type { ExampleIdentity } from '../../dataset/example-id.ts'
import type { ExampleTokens } from '../../examples/example-tokens.ts'
import type { IoCounters } from '../../source/source.ts'

/** What the UI shows about the worker's GPU. */
export interface GpuStatus {
  /** Whether a device is ready now. */
  available: boolean
  /** One line naming the adapter, e.g. `google swiftshader (fallback)`; `null` without one. */
  adapter: string | null
  /** Why there is no device (no WebGPU, no adapter, device lost); `null` when there is one or none was asked for yet. */
  reason: string | null
  /** Uncaptured errors and the loss message, oldest first (at most the last 20). */
  errors: string[]
  /** Whether the device was asked for yet (the first GPU request asks). */
  requested: boolean
}

/**
 * The config fields the Inspector depends on: the model input's, and the row findings' (the training split, the
 * length filter, `min_samples_per_char`: audit/flagged.ts `RowFindingConfig`; reference names).
 */
export type InspectConfig = ModelInputConfig & Pick<PipelineConfig, 'min_audio_len' | 'max_audio_len' | 'split' | 'min_samples_per_char'>

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
export interface InspectMeta extends ExampleIdentity {
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

/** The transcript as tokens (a SentencePiece model's, or the char vocabulary's). */
export type InspectTokens = ExampleTokens

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
  /** Every finding: the row's, its file's, the decoder's and the model input's. */
  findings: Finding[]
  /** The row findings as the Audit and the Examples list count them (audit/flagged.ts `rowFindingSummary`). */
  rowFindings: RowFindingSummary
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

/** Request kinds of the inspect group. */
export interface InspectRequests {
  'inspect-example': { params: InspectParams; result: InspectResult }
  'inspect-spectrogram': { params: SpectrogramParams; result: DisplaySpectrogram }
  'tokenizer-load': { params: TokenizerLoadParams; result: TokenizerLoadResult }
  'engine-status': { params: EngineStatusParams; result: EngineStatusResult }
}
