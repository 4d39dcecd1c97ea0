/**
 * Messages between the Node benchmarks and the benchmark Worker in Chromium (bench/browser/bench.worker.ts, reached
 * through `window.mixscopeHarness.bench` of e2e/harness/bench.harness.ts). URLs are relative to the page's origin.
 */
import type { GpuAdapterSummary } from '../../src/engine/gpu/device.ts'
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

export type BenchRequest = DecodeRequest | FbankRequest | PlanRequest | AuditRequest
export type BenchReply = DecodeReply | FbankReply | PlanReply | AuditReply | { kind: 'error'; message: string }
