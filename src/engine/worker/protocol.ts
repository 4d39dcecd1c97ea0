/**
 * The worker boundary: every message between the UI thread and the engine worker.
 * Modelled on hyperparam-cli `src/lib/workers/types.ts`: two discriminated unions on `kind`, a request `id`
 * on every message, sources as *serializable descriptions* (never closures), results as plain data.
 * Datasets stay in the worker, addressed by a numeric handle; only reports cross.
 */
import type { Progress } from '../dataset.ts'
import type { IoCounters } from '../source/source.ts'
import type { StatsReport, ValidateReport } from '../stats/types.ts'
import type { PlanRequests } from './plan-handlers.ts'
import type { AuditRequests } from './audit-handlers.ts'
import type { ExamplesRequests } from './examples-handlers.ts'
import type { InspectRequests } from './inspect-handlers.ts'
import type { PrepareRequests } from './prepare-handlers.ts'

/** Where a dataset's bytes live, in a form `postMessage` can clone. */
export type SourceDescription =
  /**
   * A root URL ending in `/` (holding `_manifest.json`) or a single `.parquet` URL. `allowWholeFileReads`: the user
   * agreed to download whole files from a server that ignores `Range` (see `OpenResult.rangeIgnored`).
   */
  | { type: 'url'; url: string; allowWholeFileReads?: boolean }
  /** Files from a `<input type=file webkitdirectory>`; `webkitRelativePath` starts with the picked folder's name. */
  | { type: 'files'; files: File[] }
  /** A folder from `showDirectoryPicker()` (or any FileSystemDirectoryHandle, e.g. OPFS). */
  | { type: 'directory'; handle: FileSystemDirectoryHandle }
  /** The bundled demo; `url` is its root (`<base>/demo/version=0/`), resolved by the page, which knows its base. */
  | { type: 'demo'; url: string; allowWholeFileReads?: boolean }

/** A stats TSV the user picked, overriding the lookup beside the root (docs/conventions.md "Stats TSV"). */
export interface SummaryFile {
  path: string
  bytes: Uint8Array
}

/** What `open` returns: everything the Overview shows. The dataset itself stays in the worker under `dataset`. */
export interface OpenResult {
  /** Handle of the dataset kept in the worker (pass it to later requests: plan, decode, features). */
  dataset: number
  /** The source kind the worker built (`http`, `file-list`, `directory-handle`). */
  sourceKind: string
  /** The root as the source names it. */
  root: string
  stats: StatsReport
  validation: ValidateReport
  /** Discovery counts: parquet files, readable footers, ignored paths, stray files; `bytes`: Σ parquet file sizes. */
  files: { parquet: number; readable: number; ignored: number; stray: number; bytes: number }
  /**
   * Set when the HTTP server answered a range read with the whole file (first such answer). Unless the source
   * allowed whole-file reads, those reads failed (as findings); the UI asks before reopening with them allowed.
   */
  rangeIgnored: { url: string; path: string; size: number } | null
  /** Requests and bytes the source cost for the whole open (discovery + stats + validate). */
  counters: IoCounters
  /** Wall-clock milliseconds spent in the worker. */
  elapsedMs: number
}

/**
 * Request kinds, their parameters and their results. Adding a kind (plan, decode, features) is one entry here
 * and one handler in worker.ts; the unions below follow.
 */
export interface Requests {
  open: { params: { source: SourceDescription; summary?: SummaryFile }; result: OpenResult }
  /** Drops a dataset the worker holds. Resolves even when the handle is unknown. */
  close: { params: { dataset: number }; result: null }
  // explorer: config, mixture and batch streaming (plan-handlers.ts), audit (audit-handlers.ts)
  'config-resolve': PlanRequests['config-resolve']
  'mixture': PlanRequests['mixture']
  'plan-start': PlanRequests['plan-start']
  'plan-next': PlanRequests['plan-next']
  'plan-batch': PlanRequests['plan-batch']
  'plan-export': PlanRequests['plan-export']
  'plan-featurize': PlanRequests['plan-featurize']
  'plan-close': PlanRequests['plan-close']
  'audit': AuditRequests['audit']
  'audit-state': AuditRequests['audit-state']
  // explorer: examples list (examples-handlers.ts), inspector and status bar (inspect-handlers.ts)
  'examples-search': ExamplesRequests['examples-search']
  'examples-neighbour': ExamplesRequests['examples-neighbour']
  'inspect-example': InspectRequests['inspect-example']
  'inspect-spectrogram': InspectRequests['inspect-spectrogram']
  'tokenizer-load': InspectRequests['tokenizer-load']
  'engine-status': InspectRequests['engine-status']
  // dataprep (prepare-handlers.ts)
  'prepare-scan': PrepareRequests['prepare-scan']
  'prepare-run': PrepareRequests['prepare-run']
  'prepare-control': PrepareRequests['prepare-control']
  'prepare-zip': PrepareRequests['prepare-zip']
}

export type RequestKind = keyof Requests

/** A request of kind `K`, as posted to the worker. */
export type RequestMessage<K extends RequestKind = RequestKind> = { [P in K]: { kind: P; id: number } & Requests[P]['params'] }[K]

/** UI thread → worker. `abort` names the request to stop by its `id`. */
export type ClientMessage = RequestMessage | { kind: 'abort'; id: number }

/** Errors as they cross: `kind` is the engine's kebab-case kind, `aborted` for a cancelled request, `internal` otherwise. */
export interface WorkerError {
  message: string
  kind: string
}

/** Worker → UI thread. Every request ends with exactly one `result` or `error`; `progress` may come before. */
export type WorkerMessage =
  | { kind: 'progress'; id: number; progress: Progress }
  | { kind: 'result'; id: number; result: Requests[RequestKind]['result'] }
  | { kind: 'error'; id: number; error: WorkerError }
