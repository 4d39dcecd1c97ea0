/**
 * Handlers of the dataset kinds: `open` (discovery, stats, shallow validation; progressive: provisional results as it
 * goes), `close`, and `index-write` (the dataset index of an open dataset, into its folder or as bytes).
 */
import type { Dataset, DatasetEstimate } from '../dataset/dataset.ts'
import { openDataset, type OpenDataset } from '../dataset/open.ts'
import { buildIndexRows } from '../dataset-index/build.ts'
import { indexFileName } from '../dataset/index-format.ts'
import type { IndexSummary } from '../dataset/index-summary.ts'
import type { DatasetSource } from '../source/source.ts'
import { overviewTables, tsvCoverageOf } from '../dataset/groupings.ts'
import { statsReport } from '../dataset/stats.ts'
import { samePartitions, sameTotals } from '../dataset/same.ts'
import type { StatsReport, ValidateReport } from '../dataset/stats-types.ts'
import { checkDataset, rowChecksDuringOpen } from '../validate/validate.ts'
import type { RequestMessage } from './protocol.ts'
import type { DatasetRequests, IndexWriteResult, OpenProvisional, OpenResult, OpenResultMessage } from './protocol/dataset.ts'
import { rememberedCoverage } from '../dataset/coverage-memo.ts'
import type { HandlerContext, HandlerRunOptions, HandlerTable } from './handler-types.ts'

/**
 * Discovery, stats and (shallow) validation: everything the Overview shows. With `onPartial`, provisional results
 * come first (see `OpenProvisional`): the estimate once the listing and the TSV are known, exact numbers of the files
 * described so far (about 20 times), and, when every file is described but row checks are still reading, the final
 * stats with a dataset handle that can be used at once.
 */
async function open(message: RequestMessage<'open'>, options: HandlerRunOptions, context: HandlerContext): Promise<OpenResultMessage> {
  const start = context.now()
  let rangeIgnored: OpenResult['rangeIgnored'] = null
  const source = context.makeSource(message.source, { onRangeIgnored: (info) => { rangeIgnored ??= info } })
  const checks = rowChecksDuringOpen({ signal: options.signal })
  const emit = options.onPartial
  type Described = OpenResult['described']
  /** Everything of a result but its stats and their groupings. */
  const resultBase = (dataset: Dataset, handle: number, validation: ValidateReport, described: Described, provisional?: OpenProvisional) => ({
    dataset: handle,
    sourceKind: source.kind,
    root: source.root,
    validation,
    files: filesOf(dataset),
    rangeIgnored,
    counters: { ...source.counters },
    elapsedMs: context.now() - start,
    described,
    ...(provisional ? { provisional } : {}),
  })
  const result = (dataset: Dataset, handle: number, stats: StatsReport, validation: ValidateReport, described: Described, provisional?: OpenProvisional): OpenResult => ({
    ...resultBase(dataset, handle, validation, described, provisional),
    stats,
    overview: overviewTables(stats),
  })
  let fromIndexSoFar = 0
  /** The partitions of the partial posted last, to leave out of the `validating` one when it has the same. */
  let partitionsSent: StatsReport['partitions'] | null = null
  const send = (partial: OpenResult) => {
    if (!partial.samePartitions) partitionsSent = partial.stats.partitions
    emit?.(partial)
  }
  const dataset = await openDataset(source, {
    signal: options.signal,
    onProgress: options.onProgress,
    summary: message.summary,
    ...checks.open,
    onPartial: emit && ((partial) => {
      if (partial.stage === 'estimate') {
        send(estimateResult(partial.estimate, source, result))
        return
      }
      if (partial.stage === 'index-summary') {
        send(summaryResult(partial.summary, partial.where, source, result))
        return
      }
      if (partial.stage === 'index') {
        const { dataset: so } = partial
        const n = so.files.filter((f) => f.facts || f.error !== undefined).length
        const of = n === so.files.length ? `the ${n}` : `${n} of the ${so.files.length}`
        const stats = partial.checked?.stats ?? statsReport(so, { partial: true })
        const validation = validationSoFar(so, stats, checks.checked)
        const described = { fromIndex: n, read: 0, index: partial.where }
        const provisional: OpenProvisional = {
          stage: 'stats', filesDone: n, filesTotal: so.files.length, fromIndex: n,
          label: `Exact numbers of ${of} files the dataset index describes, before the index is checked against the listing and the stats TSV is read`,
        }
        if (partial.checked?.summaryAgrees && partitionsSent) {
          // the rows say what the summary, the partial posted last, said (compared by the open): nothing to draw again,
          // unless they have findings to show
          if (stats.findings.length > 0) send(withoutPartitions(resultBase(so, -1, validation, described, provisional), stats))
          return
        }
        send(result(so, -1, stats, validation, described, provisional))
        return
      }
      const { dataset: so, filesTotal } = partial
      // all files described: the final stats follow at once (as `validating`, or as the result), drawn once
      if (partial.filesDone === filesTotal) return
      // the files the snapshot holds (some in flight may be in it already): with their numbers, or unreadable
      const filesDone = so.files.filter((f) => f.facts || f.error !== undefined).length
      if (filesDone === filesTotal) return
      fromIndexSoFar = so.files.filter((f) => f.facts && !checks.checked.has(f.path)).length
      const stats = statsReport(so, { partial: true })
      send(result(so, -1, stats, validationSoFar(so, stats, checks.checked), { fromIndex: fromIndexSoFar, read: filesDone - fromIndexSoFar, index: null }, {
        stage: 'stats', filesDone, filesTotal, fromIndex: fromIndexSoFar,
        label: `Exact numbers of ${filesDone} of ${filesTotal} files so far${fromIndexSoFar > 0 ? ` (${fromIndexSoFar} from the dataset index)` : ''}; the rest are being read`,
      }))
    }),
  })
  const handle = context.nextHandle()
  context.datasets.set(handle, dataset)
  const remaining = dataset.files.filter((f) => f.readable && !checks.checked.has(f.path)).length
  let sent: StatsReport | null = null
  if (emit && remaining > 0) {
    const stats = sent = statsReport(dataset)
    const provisional: OpenProvisional = {
      stage: 'validating', filesDone: dataset.files.length, filesTotal: dataset.files.length, fromIndex: dataset.described.fromIndex,
      label: `Exact numbers of all ${dataset.files.length} files${dataset.described.fromIndex > 0 ? ` (${dataset.described.fromIndex} from the dataset index)` : ''}; rows of ${remaining} files are still being checked`,
    }
    const validation = validationSoFar(dataset, stats, checks.checked)
    send(partitionsSent && samePartitions(partitionsSent, stats.partitions)
      ? withoutPartitions(resultBase(dataset, handle, validation, dataset.described, provisional), stats)
      : result(dataset, handle, stats, validation, dataset.described, provisional))
  }
  const { stats, validation } = await checkDataset(dataset, { signal: options.signal, onProgress: options.onProgress, checked: checks.checked })
  // the page has these stats (and their groupings) from the `validating` partial already: at 100,000 partitions
  // cloning them again costs the page's main thread a few hundred ms, so the client takes them from the partial
  if (sent && sameStats(sent, stats)) return { ...resultBase(dataset, handle, validation, dataset.described), stats: null, overview: null }
  return result(dataset, handle, stats, validation, dataset.described)
}

/**
 * A partial whose partitions the page has already (`OpenResult.samePartitions`): the partitions and the groupings made
 * of them alone left empty; the TSV comparison, which the index's numbers had not, is sent.
 */
function withoutPartitions(base: Omit<OpenResult, 'stats' | 'overview'>, stats: StatsReport): OpenResult {
  return {
    ...base,
    stats: { ...stats, partitions: [] },
    overview: {
      languages: [], corpora: [], splits: [], splitPivot: { splits: [], rows: [] }, hasOtherKeys: false, corpusNames: [], splitNames: [],
      tsvCoverage: stats.summary ? rememberedCoverage(stats) ?? tsvCoverageOf(stats) : null,
    },
    samePartitions: true,
  }
}

/** True when two stats reports hold the same numbers, keys and findings (field by field; no serialization). */
export function sameStats(a: StatsReport, b: StatsReport): boolean {
  if (a.findings.length !== b.findings.length || a.root !== b.root) return false
  if (!sameTotals(a.totals, b.totals)) return false
  if (!samePartitions(a.partitions, b.partitions)) return false
  for (let i = 0; i < a.findings.length; i++) if (JSON.stringify(a.findings[i]) !== JSON.stringify(b.findings[i])) return false
  return JSON.stringify(a.summary) === JSON.stringify(b.summary)
}

/** Discovery counts: parquet files, readable footers, ignored paths, stray files, Σ parquet bytes. */
function filesOf(dataset: Dataset): OpenResult['files'] {
  let readable = 0
  let bytes = 0
  for (const f of dataset.files) {
    if (f.readable) readable++
    bytes += f.size
  }
  return { parquet: dataset.files.length, readable, ignored: dataset.ignored.length, stray: dataset.stray.length, bytes }
}

/** The findings so far: the stats' and the row checks' of the files checked already. */
function validationSoFar(dataset: Dataset, stats: StatsReport, checked: Map<string, { findings: ValidateReport['findings']; rows: number }>): ValidateReport {
  let rows = 0
  const findings = [...stats.findings]
  for (const c of checked.values()) {
    rows += c.rows
    findings.push(...c.findings)
  }
  return { schema_version: 1, root: dataset.root, files_checked: checked.size, rows_checked: rows, findings }
}

type MakeResult = (d: Dataset, h: number, s: StatsReport, v: ValidateReport, described: OpenResult['described'], p?: OpenProvisional) => OpenResult

/** A provisional result made before the open has any dataset file (the index's summary, the estimate): no handle, no findings. */
function resultWithoutFiles(source: DatasetSource, result: MakeResult, stats: StatsReport, files: OpenResult['files'], described: OpenResult['described'], provisional: OpenProvisional): OpenResult {
  const empty: Dataset = { root: source.root, source, files: [], ignored: [], stray: [], otherFiles: [], summary: null, findings: [] }
  const out = result(empty, -1, stats, { schema_version: 1, root: source.root, files_checked: 0, rows_checked: 0, findings: [] }, described, provisional)
  out.files = files
  return out
}

/** The index's summary as a provisional result: its numbers, no findings yet (they come with the rows and the data). */
function summaryResult(summary: IndexSummary, where: string, source: DatasetSource, result: MakeResult): OpenResult {
  const stats: StatsReport = { schema_version: 1, root: source.root, partitions: summary.partitions, totals: summary.totals, summary: null, findings: [] }
  const { parquet, readable, described: n, bytes } = summary.files
  const of = n === parquet ? `the ${n}` : `${n} of the ${parquet}`
  return resultWithoutFiles(source, result, stats, { parquet, readable, ignored: 0, stray: 0, bytes }, { fromIndex: n, read: 0, index: where }, {
    stage: 'stats', filesDone: n, filesTotal: parquet, fromIndex: n,
    label: `Numbers of ${of} files the dataset index describes, as its summary recorded them when it was written; its rows are being read, then checked against the listing and the stats TSV`,
  })
}

/** The estimate as a provisional result the Overview can draw: hours from the TSV, files and bytes from the listing. */
function estimateResult(estimate: DatasetEstimate, source: DatasetSource, result: MakeResult): OpenResult {
  const partitions = estimate.partitions.map(({ bytes: _bytes, hours, files, ...keys }) => ({ ...keys, files, row_groups: 0, rows: 0, samples: 0, hours: hours ?? 0 }))
  const hours = partitions.reduce((n, p) => n + p.hours, 0)
  const stats: StatsReport = {
    schema_version: 1, root: source.root, partitions,
    totals: { files: estimate.files, row_groups: 0, rows: 0, samples: 0, hours },
    summary: null, findings: [],
  }
  return resultWithoutFiles(source, result, stats, { parquet: estimate.files, readable: 0, ignored: 0, stray: 0, bytes: estimate.bytes }, { fromIndex: 0, read: 0, index: null }, {
    stage: 'estimate', filesDone: 0, filesTotal: estimate.files, fromIndex: 0, estimate,
    label: estimate.hoursFrom
      ? `Estimate from the file listing and ${estimate.hoursFrom}: files and bytes exact, hours as the TSV gives them (shared over splits by bytes); no parquet footer read yet`
      : 'Estimate from the file listing: files and bytes only (no stats TSV, so no hours yet); no parquet footer read yet',
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
