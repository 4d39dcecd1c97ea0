/** Handlers of the foundation's kinds: `open` (discovery, stats, shallow validation) and `close`. */
import type { RunOptions } from '../dataset.ts'
import { openDataset } from '../discovery/open.ts'
import { checkDataset } from '../validate/validate.ts'
import type { RequestMessage } from './protocol.ts'
import type { DatasetRequests, OpenResult } from './protocol/dataset.ts'
import type { HandlerContext, HandlerTable } from './handler-types.ts'

/** Discovery, stats and (shallow) validation: everything the Overview shows. */
async function open(message: RequestMessage<'open'>, options: RunOptions, context: HandlerContext): Promise<OpenResult> {
  const start = context.now()
  let rangeIgnored: OpenResult['rangeIgnored'] = null
  const source = context.makeSource(message.source, { onRangeIgnored: (info) => { rangeIgnored ??= info } })
  const dataset = await openDataset(source, { ...options, summary: message.summary })
  const { stats, validation } = await checkDataset(dataset, options)
  const handle = context.nextHandle()
  context.datasets.set(handle, dataset)
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
    elapsedMs: context.now() - start,
  }
}

/** The handlers of the foundation's kinds (handler-table.ts joins every table). */
export const datasetHandlers: HandlerTable<keyof DatasetRequests> = {
  open,
  close: (message, _options, context) => {
    context.datasets.delete(message.dataset)
    return null
  },
}
