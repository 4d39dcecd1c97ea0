/**
 * Handlers of the Examples view's kinds (protocol/examples.ts): a page of matches of the dataset's example index
 * (src/engine/examples/), and the next/previous match of an id under the same filter. Once the audit's cheap audio
 * check has finished for the dataset, its row findings (undecodable, damaged streams) count as flags too. A filter on
 * partition keys alone, in dataset order, is paged from the footers (partition-pages.ts) until the example index has
 * been built: a list of 10⁷ rows never waits for every transcript. Above `indexRowLimit` rows a transcript search, a
 * length range, "only flagged", a sort (but by findings) and a sample stream (text-scan.ts) instead of building the
 * index.
 */
import type { OpenDataset } from '../dataset/open.ts'
import { finishedQuickAudioCheck, quickRowFindings } from '../audit/quick-audio.ts'
import type { ExampleIndex } from '../examples/example-index.ts'
import { exampleIndex, finishedExampleIndex, indexRowFindings } from '../examples/example-index.ts'
import { resolveConfig, type ConfigSpec } from '../pipeline/config/resolve.ts'
import { neighbourExample, rowFindingsWithAudio, searchExamples } from '../examples/search.ts'
import { currentTextScan, streamsRows, textScan, type TextScanStatus } from '../examples/text-scan.ts'
import { flaggedUnder, flaggedUnderOtherConfig, type FlaggedPositions } from '../examples/flagged-positions.ts'
import { auditRowsKey } from '../audit/rows-config.ts'
import { facetsOfFiles, pagesByPartition, partitionNeighbour, partitionPage } from '../examples/partition-pages.ts'
import type { ExamplePage } from '../examples/search.ts'
import type { HandlerTable } from './handler-types.ts'
import type { ExamplesRequests } from './protocol/examples.ts'

/**
 * The row findings a search uses now (audit/flagged.ts): the metadata audit's with `spec`'s config (the default one
 * when absent or when it does not resolve: the Audit shows that config's error), with the audio check's once it has
 * finished.
 */
export function rowFindings(dataset: OpenDataset, index: ExampleIndex, spec: ConfigSpec | undefined) {
  const quick = finishedQuickAudioCheck(dataset)
  let config = null
  try {
    config = spec ? resolveConfig(spec).config : null
  } catch {
    config = null
  }
  return { findings: rowFindingsWithAudio(index, quick ? quickRowFindings(quick) : null, indexRowFindings(index, config)), audioChecked: quick !== null }
}

/** The flagged rows the dataset's latest audit kept under `spec`'s config (the default config without one). */
function flaggedOf(dataset: OpenDataset, spec: ConfigSpec | undefined): FlaggedPositions | null {
  try {
    return spec ? flaggedUnder(dataset, auditRowsKey(resolveConfig(spec).config)) : null
  } catch {
    return null
  }
}

/**
 * The answer to "only flagged" past the example index's row limit before an audit under the list's config ran:
 * no rows, and a scan status that says so (the audit is where every row is read and judged).
 */
function needsAudit(dataset: OpenDataset, spec: ConfigSpec | undefined): ExamplePage & { scan: TextScanStatus } {
  const readable = dataset.files.filter((f) => f.readable)
  let otherConfig = false
  try {
    otherConfig = !!spec && flaggedUnderOtherConfig(dataset, auditRowsKey(resolveConfig(spec).config))
  } catch {
    otherConfig = false
  }
  const rows = rowsOf(dataset)
  return {
    total: 0, offset: 0, rows: [], facets: facetsOfFiles(dataset.files),
    indexed: { rows, rowGroups: readable.reduce((n, f) => n + f.rowGroups.length, 0) },
    audioChecked: false, rowFindings: false,
    scan: { state: 'needs-audit', rowsRead: 0, rowsTotal: rows, matches: 0, unreadableRowGroups: 0, ...(otherConfig ? { otherConfig: true } : {}) },
  }
}

/** Rows of the dataset's readable files (from the footers). */
function rowsOf(dataset: OpenDataset): number {
  let rows = 0
  for (const f of dataset.files) if (f.readable) rows += f.rows
  return rows
}

export const examplesHandlers: HandlerTable<keyof ExamplesRequests> = {
  'examples-search': async (message, options, context) => {
    const dataset = context.dataset(message.dataset)
    if (!finishedExampleIndex(dataset) && pagesByPartition(message.filter, message.sample, message.sort)) {
      return partitionPage(dataset, message.filter, message.offset, message.limit, options)
    }
    if (!finishedExampleIndex(dataset) && streamsRows(message.filter, message.sample, message.sort, rowsOf(dataset), message.indexRowLimit)) {
      const flagged = message.filter.flaggedOnly ? flaggedOf(dataset, message.spec) : null
      if (message.filter.flaggedOnly && !flagged) return needsAudit(dataset, message.spec)
      const scan = textScan(dataset, message.filter, flagged, { sort: message.sort, sample: message.sample })
      // a page answers once its matches are found or within a quarter second, with the scan's progress
      await scan.waitFor(message.offset + message.limit, 250, options.signal)
      return scan.page(message.offset, message.limit, options)
    }
    const index = await exampleIndex(dataset, options)
    const { findings, audioChecked } = rowFindings(dataset, index, message.spec)
    return searchExamples(index, message.filter, message.sample, message.offset, message.limit, message.sort, findings, audioChecked)
  },
  'examples-neighbour': async (message, options, context) => {
    const dataset = context.dataset(message.dataset)
    if (!finishedExampleIndex(dataset) && pagesByPartition(message.filter, message.sample, message.sort)) {
      return partitionNeighbour(dataset, message.filter, message.exampleId, message.step)
    }
    if (!finishedExampleIndex(dataset) && streamsRows(message.filter, message.sample, message.sort, rowsOf(dataset), message.indexRowLimit)) {
      const flagged = message.filter.flaggedOnly ? flaggedOf(dataset, message.spec) : null
      if (message.filter.flaggedOnly && !flagged) return { id: null, index: null, total: 0 }
      return textScan(dataset, message.filter, flagged, { sort: message.sort, sample: message.sample }).neighbour(message.exampleId, message.step)
    }
    const index = await exampleIndex(dataset, options)
    return neighbourExample(index, message.filter, message.sample, message.exampleId, message.step, message.sort, rowFindings(dataset, index, message.spec).findings)
  },  'examples-scan': async (message, _options, context) => {
    const scan = currentTextScan(context.dataset(message.dataset))
    if (!scan) return null
    if (message.action === 'stop') scan.stop()
    else scan.start()
    return scan.status()
  },
}
