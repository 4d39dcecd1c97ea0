/**
 * What the worker does for each request kind. Kept apart from serve.ts (which only wires `self.onmessage`)
 * so the dispatch reads as "one small function per kind" and can run in Node tests.
 */
import type { OpenDataset } from '../dataset/open.ts'
import type { RequestKind, RequestMessage, Requests } from './protocol.ts'
import { MixscopeError } from '../core/findings.ts'
import { allHandlers } from './handler-table.ts'
import type { HandlerContext, HandlerRunOptions } from './handler-types.ts'

import { sourceFromDescription } from './sources.ts'

/** Runs one request and resolves with its result; rejects with the engine's error (aborts included). */
export type RequestHandler = <K extends RequestKind>(message: RequestMessage<K>, options: HandlerRunOptions) => Promise<Requests[K]['result']>

/** What the handler is built from (tests pass a memory-source factory and a fixed clock). */
export interface HandlerOptions {
  /** Builds the source for an `open` request; default `sourceFromDescription`. */
  makeSource?: typeof sourceFromDescription
  /** Clock in milliseconds, for `elapsedMs`. */
  now?: () => number
}

/** Creates the handler with its own table of open datasets (handle → OpenDataset). */
export function createRequestHandler({ makeSource = sourceFromDescription, now = () => performance.now() }: HandlerOptions = {}): RequestHandler {
  const datasets = new Map<number, OpenDataset>()
  let handles = 1
  const context: HandlerContext = {
    datasets,
    dataset(handle) {
      const dataset = datasets.get(handle)
      if (!dataset) throw new MixscopeError(`worker: no open dataset with handle ${handle}`, 'unknown-dataset', 'usage')
      return dataset
    },
    makeSource,
    now,
    nextHandle: () => handles++,
  }
  return (async (message: RequestMessage, options: HandlerRunOptions) => {
    const handler = allHandlers[message.kind] as (m: RequestMessage, o: HandlerRunOptions, c: HandlerContext) => unknown
    return handler(message, options, context)
  }) as RequestHandler
}
