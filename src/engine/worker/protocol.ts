/**
 * The worker boundary: every message between the UI thread and the engine worker.
 * Modelled on hyperparam-cli `src/lib/workers/types.ts`: two discriminated unions on `kind`, a request `id`
 * on every message, sources as *serializable descriptions* (never closures), results as plain data.
 * Datasets stay in the worker, addressed by a numeric handle; only reports cross.
 *
 * Each group of kinds declares its params and results in a leaf module under protocol/ (types only, importing
 * nothing from the worker), and the handlers import them from there: the protocol never imports a handler.
 */
import type { Progress } from '../dataset/dataset.ts'
import type { ArrayChunk } from './chunking.ts'
import type { AuditRequests } from './protocol/audit.ts'
import type { DatasetRequests } from './protocol/dataset.ts'
import type { ExamplesRequests } from './protocol/examples.ts'
import type { ExplorerRequests } from './protocol/explorer.ts'
import type { InspectRequests } from './protocol/inspect.ts'
import type { PlanRequests } from './protocol/plan.ts'
import type { PrepareRequests } from './protocol/prepare.ts'

/**
 * Request kinds, their parameters and their results. Adding a kind: an entry in its group's `…Requests` under
 * protocol/, and one handler in that group's handler table (handler-table.ts joins the tables).
 */
export interface Requests extends DatasetRequests, PlanRequests, AuditRequests, ExamplesRequests, InspectRequests, PrepareRequests, ExplorerRequests {}

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

/** What a kind reports before its result, when it reports anything (`partial` in its `Requests` entry). */
export type PartialOf<K extends RequestKind> = Requests[K] extends { partial: infer P } ? P : never

/**
 * Worker → UI thread. Every request ends with exactly one `result` or `error`; `progress` may come before, and
 * `partial` (a provisional result, for kinds that declare one: the progressive `open`).
 */
export type WorkerMessage =
  /** The worker thread runs (its first message, before the engine has loaded; worker.ts). */
  | { kind: 'started'; id: 0 }
  | { kind: 'progress'; id: number; progress: Progress }
  | { kind: 'partial'; id: number; partial: PartialOf<RequestKind> }
  /**
   * A slice of a long array of the next `partial` or `result` of this request, which carries that array empty
   * (chunking.ts: a large result never arrives as one long main-thread task).
   */
  | { kind: 'chunk'; id: number; chunk: ArrayChunk }
  | { kind: 'result'; id: number; result: Requests[RequestKind]['result'] }
  | { kind: 'error'; id: number; error: WorkerError }
