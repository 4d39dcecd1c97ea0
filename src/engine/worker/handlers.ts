/**
 * What the worker does for each request kind. Kept apart from worker.ts (which only wires `self.onmessage`)
 * so the dispatch reads as "one small function per kind" and can run in Node tests.
 */
import type { RunOptions } from '../dataset.ts'
import { openDataset, type OpenDataset } from '../discovery/open.ts'
import { computeStats } from '../stats/stats.ts'
import { validateDataset } from '../validate/validate.ts'
import type { OpenResult, RequestKind, RequestMessage, Requests } from './protocol.ts'
import { sourceFromDescription } from './sources.ts'

/** Runs one request and resolves with its result; rejects with the engine's error (aborts included). */
export type RequestHandler = <K extends RequestKind>(message: RequestMessage<K>, options: RunOptions) => Promise<Requests[K]['result']>

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
  let nextHandle = 1

  /** Discovery, stats and (shallow) validation: everything the Overview shows. */
  async function open(message: RequestMessage<'open'>, options: RunOptions): Promise<OpenResult> {
    const start = now()
    let rangeIgnored: OpenResult['rangeIgnored'] = null
    const source = makeSource(message.source, { onRangeIgnored: (info) => { rangeIgnored ??= info } })
    const dataset = await openDataset(source, { ...options, summary: message.summary })
    const stats = await computeStats(dataset, options)
    const validation = await validateDataset(dataset, options)
    const handle = nextHandle++
    datasets.set(handle, dataset)
    return {
      dataset: handle,
      sourceKind: source.kind,
      root: source.root,
      stats,
      validation,
      files: {
        parquet: dataset.files.length,
        readable: dataset.files.filter((f) => f.readable).length,
        ignored: dataset.ignored.length,
        stray: dataset.stray.length,
        bytes: dataset.files.reduce((sum, f) => sum + f.size, 0),
      },
      rangeIgnored,
      counters: { ...source.counters },
      elapsedMs: now() - start,
    }
  }

  function close(message: RequestMessage<'close'>): null {
    datasets.delete(message.dataset)
    return null
  }

  return (async (message: RequestMessage, options: RunOptions) => {
    switch (message.kind) {
      case 'open': return open(message, options)
      case 'close': return close(message)
    }
  }) as RequestHandler
}
