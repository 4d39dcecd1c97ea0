/**
 * The explorer's planning kinds: `config-resolve`, `mixture`, and the batch-streaming session `plan-start` →
 * `plan-next`… → `plan-close` with `plan-batch`, `plan-export` and `plan-featurize`. Types only (a leaf of protocol.ts).
 */
import type { ConfigSpec, ResolvedConfig } from '../../pipeline/config/resolve.ts'
import type { PipelineConfig } from '../../pipeline/config/types.ts'
import type { FeatureDevice } from '../../features/model-input.ts'
import type { Finding } from '../../core/findings.ts'
import type { BatchSummary } from '../../batches/batch-summary.ts'
import type { MixtureViewReport } from '../../mixture/mixture.ts'
import type { MixtureWeights } from '../../mixture/mixture-weights.ts'
import type { BucketSize } from '../../pipeline/buckets.ts'
import type { DropCount } from '../../pipeline/drops.ts'
import type { MixtureStream, RankDiagnostic } from '../../pipeline/plan-batches.ts'

/** What `plan-start` returns: everything known before the first batch. */
export interface PlanStartResult {
  session: number
  config: PipelineConfig
  /** Config resolution findings, then `planDataset`'s. */
  findings: Finding[]
  trainStreaming: boolean
  /** Batches the session stops at (`max_num_batches` after the cap), `null` for a full eval pass. */
  limit: number | null
  buckets: { sizes: BucketSize[]; maxNumElements: number; rounded: boolean } | null
  mixture: MixtureStream[] | null
  unweighted: { corpus: string; language: string }[]
  diagnostics: RankDiagnostic[]
  summaryPath: string | null
  /**
   * Partition streams whose first row group the sampler's first fill reads behind the first batch (ask `plan-warm-up`
   * for its outcome), or `null` when there is no mixture: the batches are final as they come.
   */
  warmUpStreams: number | null
  /**
   * Whether the plan computed the reference's mixture weights (a train stream with a stats TSV:
   * `DatasetPlan.weights`), so that the betas decide its batches; without them a beta change leaves the plan as it is.
   */
  weighted: boolean
}

/** What `plan-next` returns. */
export interface PlanChunk {
  batches: BatchSummary[]
  /** The stream ended (limit reached or eval pass done). */
  done: boolean
  /** Batches streamed so far in this session. */
  total: number
  mixture: MixtureStream[] | null
  drops: DropCount[]
  io: { fragments: number; rows: number }
  /** The sampler's first fill behind the batches (`PlanStartResult.warmUpStreams`), `null` without a mixture. */
  warmUp: WarmUpProgress | null
}

/** How far the sampler's deferred first fill is (src/engine/pipeline/deferred-fill.ts). */
export interface WarmUpProgress {
  /** Partition streams whose first row is in. */
  filled: number
  total: number
  /** Every stream's first row is in (without an error: an error fails `plan-warm-up`). */
  settled: boolean
}

/** One streamed batch: its numbers, and its examples (texts included) as an Arrow IPC stream (columnar, one buffer). */
export interface BatchTransfer {
  index: number
  step: number
  indexInStep: number
  /** `examplesTable([batch], {text: true})` as IPC bytes; `batchFromTransfer` (src/engine/batches/arrow.ts) reads it back. */
  examples: Uint8Array
}

/** One featurized batch, summarized. */
export interface FeaturizedBatchSummary {
  index: number
  examples: number
  /** Examples whose row could not be read or decoded: id and the error. */
  failed: { id: string; error: string }[]
  /** Decoders used (`webcodecs:flac`, `wasm:opus`, ...). */
  decoders: string[]
  /** Padded model input: `[examples, frames, 80]` (fbank) or `[examples, samples]` (waveform); null when nothing decoded. */
  shape: number[] | null
  /** Seconds of audio decoded. */
  audioSeconds: number
  /** Decoding the batch's files (on the decode threads, while earlier batches were featurized), ms of wall time. */
  decodeMs: number
  /** Model input of every example on `device`, ms. */
  featureMs: number
  /** Time the feature stage waited for this batch's audio, ms. */
  waitMs: number
}

/** Result of `plan-featurize`. */
export interface FeaturizeResult {
  /** Where features were computed (`gpu` may fall back to `cpu`: `fallbackReason` says why). */
  device: FeatureDevice
  adapter: string | null
  fallbackReason: string | null
  /** Helper Workers the decode stage ran on; 0: it decoded in the engine worker itself (no Workers, e.g. Node). */
  decodeWorkers: number
  batches: FeaturizedBatchSummary[]
  /** `decode` when features waited for audio after the first batch for more than 5% of their own time. */
  bottleneck: 'decode' | 'features'
}

/** Request kinds of the planning group: params and results. */
export interface PlanRequests {
  /** Resolves a config as the CLI does (src/engine/pipeline/config/resolve.ts); problems are findings, never errors. */
  'config-resolve': { params: { spec: ConfigSpec }; result: ResolvedConfig }
  /**
   * `mixtureReport` of the spec's split, as the view uses it (`mixtureViewReport`: no per-partition exposure rows);
   * `findings` holds the resolution's and the report's.
   */
  'mixture': { params: { dataset: number; spec: ConfigSpec; draws: number; steps: number }; result: MixtureViewReport }
  /**
   * The cheap half of a beta move (mixture-weights.ts): every row's weights, sampling probability and audio share
   * at the spec's betas, aligned with the rows of `mixture` for the same spec; O(rows) once the basis of the spec
   * without its betas is built (kept per dataset).
   */
  'mixture-weights': { params: { dataset: number; spec: ConfigSpec }; result: MixtureWeights }
  /**
   * Starts a session. `maxBatches` caps train (infinite) streams as the CLI's `--max-batches` (`null`: the config's
   * `max_num_batches`, else 20 for train streams). Refused (`plan-refused`) when resolving the spec has errors.
   */
  'plan-start': { params: { dataset: number; spec: ConfigSpec; maxBatches: number | null }; result: PlanStartResult }
  /**
   * Up to `count` more batches; an abort closes the session for good. Progress (phase `plan`, every 250 ms while it
   * runs): `done` is the row groups the session has read so far (`total` null).
   */
  /**
   * Up to `count` more batches; with `maxMs`, the chunk ends early once it holds a batch and has taken that many
   * milliseconds (the page shows the first batch when it is out, not when the whole chunk is).
   */
  'plan-next': { params: { session: number; count: number; maxMs?: number }; result: PlanChunk }
  /**
   * Waits for the sampler's first fill, which starts once the first batch is out (deferred-fill.ts): resolves when
   * every partition stream's first row is in, fails with the error the reference raises before its first batch
   * (then the streamed batches are not what training does). Progress (phase `warm-up`): `done` streams of `total`.
   */
  'plan-warm-up': { params: { session: number }; result: WarmUpProgress }
  'plan-batch': { params: { session: number; index: number }; result: BatchTransfer }
  /** The batches streamed so far as `batches --jsonl` (UTF-8) or `--arrow` (Arrow IPC file) bytes. */
  'plan-export': { params: { session: number; format: 'jsonl' | 'arrow' }; result: Uint8Array }
  /** Decode + model input of `count` (≤ 64) streamed batches from `index`, decode ahead of features. */
  'plan-featurize': { params: { session: number; index: number; count: number; device: FeatureDevice }; result: FeaturizeResult }
  'plan-close': { params: { session: number }; result: null }
}
