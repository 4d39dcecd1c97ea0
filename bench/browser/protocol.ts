/**
 * Messages between the Node benchmarks and the benchmark Worker in Chromium (bench/browser/bench.worker.ts, reached
 * through `window.mixscopeHarness.bench` of e2e/harness/bench.harness.ts). URLs are relative to the page's origin.
 */
import type { GpuAdapterSummary } from '../../src/engine/features/gpu/device.ts'
import type { ConsumeResult } from '../plan-synthetic.ts'

/** Decode each file `repeats` times with `decodeAudio` (bytes fetched first, not timed); report the fastest run. */
export interface DecodeRequest {
  kind: 'decode'
  urls: string[]
  /** Decoder family; omitted: `decodeAudio`'s default (`defaultDecoder`: WebCodecs for FLAC, WASM otherwise). */
  prefer?: 'webcodecs' | 'wasm'
  /** WebCodecs: most decoders per FLAC stream (`decodeAudio`'s `streamDecoders`); omitted: its default. */
  streamDecoders?: number
  repeats: number
}

/** Per file: fastest decode in ms and what came out. */
export interface DecodeReply {
  kind: 'decode'
  files: { url: string; bestMs: number; frames: number; sampleRate: number; decoder: string; warnings: string[] }[]
}

/**
 * Fbank (+ standardize, as the reference) of every utterance of `pcmUrl` (float32 LE, utterances concatenated,
 * `lengths` samples each), batch by batch; the whole pass `repeats` times, the fastest pass reported.
 */
export interface FbankRequest {
  kind: 'fbank'
  device: 'cpu' | 'gpu'
  pcmUrl: string
  sampleRate: number
  lengths: number[]
  /** Batches as utterance indices. */
  batches: number[][]
  repeats: number
  /** GPU only: passes on a fallback (software) adapter such as SwiftShader, where one pass takes tens of seconds. */
  repeatsOnFallback?: number
}

/** Timings of the fastest pass and checks of its output. */
export interface FbankReply {
  kind: 'fbank'
  device: 'cpu' | 'gpu'
  /** Null when device is `gpu` and there is none (then `unavailable` says why and nothing was timed). */
  adapter: GpuAdapterSummary | null
  unavailable: string | null
  /** Whole pass, ms (fastest of `repeats`). */
  bestMs: number
  /** Per batch ms in the fastest pass. */
  batchMs: number[]
  frames: number
  /** Sum of |value| over every finite feature value (compares paths). */
  checksum: number
  /** GPU only: max |GPU − CPU| over all standardized values (NaN positions must match, else NaN). */
  maxAbsDiffVsCpu: number | null
  /** GPU only: command-buffer submissions per batch (1 expected). */
  submissionsPerBatch: number | null
  gpuErrors: string[]
}

/** Plan the synthetic 1M-row workload of bench/plan-synthetic.ts in the Worker. */
export interface PlanRequest {
  kind: 'plan'
}

export interface PlanReply {
  kind: 'plan'
  train: ConsumeResult
  eval: ConsumeResult
}

/** Deep-audit the dataset at `url` (relative to the page, with `_manifest.json`) in the Worker, one thread. */
export interface AuditRequest {
  kind: 'audit'
  url: string
}

export interface AuditReply {
  kind: 'audit'
  ms: number
  rowsDecoded: number
  hoursDecoded: number
}

/**
 * Featurizing training batches from encoded files as the engine does (`featurizeBatches`: decode stage ahead of the
 * CPU fbank + standardize), against the fbank alone on the same audio decoded beforehand. `decoder`: `in-thread`
 * decodes in the bench Worker itself (`decodeMany`, several files in flight); `pool` on helper Workers
 * (`createDecodePool`: cores − 1 of them), leaving the bench Worker to the features.
 */
export interface FeaturizeRequest {
  kind: 'featurize'
  urls: string[]
  /** Batches as indices into `urls`. */
  batches: number[][]
  decoder: 'in-thread' | 'pool'
  prefer?: 'webcodecs' | 'wasm'
  /** Files in flight per decoding thread; omitted: `DEFAULT_DECODE_CONCURRENCY`. */
  concurrency?: number
  /** WebCodecs decoders per FLAC stream; omitted: `DEFAULT_STREAM_DECODERS`. */
  streamDecoders?: number
  /** Batches decoded ahead (`featurizeBatches`' `prefetch`); omitted: its default. */
  prefetch?: number
  repeats: number
}

export interface FeaturizeReply {
  kind: 'featurize'
  /** Decoder names seen (e.g. `webcodecs:flac`) and the threads the decode stage used. */
  decoders: string[]
  lanes: number
  /** `navigator.hardwareConcurrency` in the Worker. */
  cores: number
  /** Fbank of every batch on audio decoded beforehand: the feature stage alone (fastest pass), total and per batch. */
  fbankMs: number
  fbankBatchMs: number[]
  /** The decode stage alone, per batch (fastest pass). */
  decodeBatchMs: number[]
  /** Decode + features through `featurizeBatches` (fastest pass), and how long features waited for audio. */
  pipelineMs: number
  firstWaitMs: number
  /** Waits after the first batch (the pipeline is full from then on), summed. */
  laterWaitMs: number
  /** Feature checksums of the pipeline and of the fbank-alone pass (must be equal). */
  checksum: number
  checksumAlone: number
  failures: string[]
}

/**
 * Open a dataset over HTTP in the Worker as the explorer's engine does (footers and `audio_size` facts; the dataset
 * index when the root has one) and compute its stats: the scale benchmark's fetch-level figures in Chromium, e.g.
 * with the fetch `cache` mode `no-store` against the default.
 */
export interface StatsRequest {
  kind: 'stats'
  url: string
  cache?: RequestCache
  concurrency?: number
}

export interface StatsReply {
  kind: 'stats'
  ms: number
  requests: number
  bytes: number
  files: number
  rows: number
  samples: number
  /** The HTTP source's cap at the end (raised when it saw HTTP/2). */
  parallelism: number
}

export type BenchRequest = DecodeRequest | FbankRequest | PlanRequest | AuditRequest | FeaturizeRequest | StatsRequest
export type BenchReply = DecodeReply | FbankReply | PlanReply | AuditReply | FeaturizeReply | StatsReply | { kind: 'error'; message: string }
