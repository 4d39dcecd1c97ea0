/** Types shared by the worker's request handlers (one table per group of kinds, joined in handler-table.ts). */
import type { RunOptions } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import type { RequestKind, RequestMessage, Requests } from './protocol.ts'
import type { sourceFromDescription } from './sources.ts'

/** What every kind's handler gets: the open datasets (handle → OpenDataset) and the handler options. */
export interface HandlerContext {
  datasets: Map<number, OpenDataset>
  /** The dataset behind `handle`. @throws MixscopeError (`unknown-dataset`) when the worker does not hold it */
  dataset(handle: number): OpenDataset
  makeSource: typeof sourceFromDescription
  now: () => number
  /** Next free dataset handle. */
  nextHandle(): number
}

/** What a handler runs with: the abort signal, progress, and for kinds that declare one, their partial results. */
export interface HandlerRunOptions extends RunOptions {
  /** Posts a provisional result (the kind's `partial` type in `Requests`) before the final one. */
  onPartial?: (partial: unknown) => void
}

/** One handler per request kind. Modules for later kinds (plan, decode, features, audit) export such tables. */
export type HandlerTable<K extends RequestKind = RequestKind> = {
  [P in K]: (message: RequestMessage<P>, options: HandlerRunOptions, context: HandlerContext) => Promise<Requests[P]['result']> | Requests[P]['result']
}
