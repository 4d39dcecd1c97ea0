/**
 * Handlers of the dataset kinds: `open` (the progressive open, src/engine/validate/open-progressive.ts: provisional
 * results as it goes; its row checks' findings spill as the audit's do, browser-spill.ts), `close`, and `index-write` (the dataset index of an open dataset, into its folder or as bytes).
 */
import type { OpenDataset } from '../dataset/open.ts'
import { buildIndexRows } from '../dataset-index/build.ts'
import { indexFileName } from '../dataset/index-format.ts'
import { openProgressive } from '../validate/open-progressive.ts'
import { browserSpillFactory } from './browser-spill.ts'
import type { RequestMessage } from './protocol.ts'
import type { DatasetRequests, IndexWriteResult, OpenResult, OpenResultMessage } from './protocol/dataset.ts'
import type { HandlerContext, HandlerRunOptions, HandlerTable } from './handler-types.ts'

/** The progressive open (`openProgressive`): each snapshot posted as a `partial`, the dataset kept under a new handle. */
async function open(message: RequestMessage<'open'>, options: HandlerRunOptions, context: HandlerContext): Promise<OpenResultMessage> {
  let rangeIgnored: OpenResult['rangeIgnored'] = null
  const source = context.makeSource(message.source, { onRangeIgnored: (info) => { rangeIgnored ??= info } })
  return openProgressive(source, {
    signal: options.signal,
    onProgress: options.onProgress,
    summary: message.summary,
    onSnapshot: options.onPartial,
    now: context.now,
    rangeIgnored: () => rangeIgnored,
    // the row checks' findings wait in OPFS (in memory where the worker has none) until the final report
    spill: browserSpillFactory(),
    keep: (dataset) => {
      const handle = context.nextHandle()
      context.datasets.set(handle, dataset)
      return handle
    },
  })
}

/**
 * The dataset index of an open dataset, from what its open read (every file's footer and facts are in memory, or came
 * from the index): written into the folder when the source can write there, else returned as bytes.
 */
async function indexWrite(message: RequestMessage<'index-write'>, options: HandlerRunOptions, context: HandlerContext): Promise<IndexWriteResult> {
  const dataset: OpenDataset = context.dataset(message.dataset)
  const rows = await buildIndexRows(dataset, { signal: options.signal, onProgress: options.onProgress })
  // the writer loads with the first index written (an open never needs it)
  const { writeDatasetIndex } = await import('../dataset-index/write.ts')
  const bytes = writeDatasetIndex(rows)
  const summary = { rows: rows.length, files: dataset.files.length, size: bytes.length }
  if (!dataset.source.write) {
    return { written: null, reason: `a ${dataset.source.kind} source cannot write into its folder`, bytes, ...summary }
  }
  try {
    await dataset.source.write(indexFileName, bytes, { signal: options.signal })
    return { written: indexFileName, reason: null, bytes: null, ...summary }
  } catch (error) {
    if (options.signal?.aborted) throw error
    return { written: null, reason: `the folder refused the write (${(error as Error).message})`, bytes, ...summary }
  }
}

/** The handlers of the dataset kinds (handler-table.ts joins every table). */
export const datasetHandlers: HandlerTable<keyof DatasetRequests> = {
  open,
  close: (message, _options, context) => {
    const dataset = context.datasets.get(message.dataset)
    dataset?.source.close?.()
    context.datasets.delete(message.dataset)
    return null
  },
  'index-write': indexWrite,
}
