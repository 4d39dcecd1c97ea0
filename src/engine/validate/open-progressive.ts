/**
 * The progressive open: discovery, stats and (shallow) validation, everything the Overview shows, with provisional
 * snapshots as it goes (docs/interpretations.md "Progressive open"): the estimate once the listing and the TSV are
 * known (or, with a dataset index, the index's summary, then its rows), exact numbers of the files described so far
 * (about 20 times), and, when every file is described but row checks are still reading, the final stats with a
 * dataset that can be used at once. The worker's `open` kind posts each snapshot as a `partial` message.
 */
import type { ByteBuckets } from '../core/byte-buckets.ts'
import { FindingsCollector } from '../core/findings-sink.ts'
import type { RunOptions } from '../dataset/dataset.ts'
import { openDataset, type OpenDataset, type OpenOptions } from '../dataset/open.ts'
import { overviewTables } from '../dataset/groupings.ts'
import { statsReport } from '../dataset/stats.ts'
import { samePartitions } from '../dataset/same.ts'
import type { Dataset } from '../dataset/dataset.ts'
import type { DatasetSource } from '../source/source.ts'
import type { StatsReport, ValidateReport } from '../dataset/stats-types.ts'
import { checkDataset, rowChecksDuringOpen } from './validate.ts'
import { estimateResult, filesOf, sameStats, summaryResult, unreadLanguagesOf, validationSoFar, withoutPartitions } from './open-snapshots.ts'
import type { OpenProvisional, OpenResult, OpenResultMessage } from './open-types.ts'

/** Options of `openProgressive`. */
export interface ProgressiveOpenOptions extends RunOptions {
  /** A stats TSV the user picked, overriding the lookup beside the root. */
  summary?: OpenOptions['summary']
  /** Receives each provisional result (`provisional` set), in order, before the final one; none without it. */
  onSnapshot?: (snapshot: OpenResult) => void
  /** Keeps the opened dataset (once every file is described) and returns its handle for the results. */
  keep: (dataset: OpenDataset) => number
  /** The clock of `elapsedMs` (ms). */
  now: () => number
  /** The first range read the server answered with the whole file, or `null` (read when each result is made). */
  rangeIgnored?: () => OpenResult['rangeIgnored']
  /**
   * Where the row checks' findings wait until the final report (the browser's OPFS spill, worker/browser-spill.ts;
   * closed when the open ends): without it they are held per file in memory until then.
   */
  spill?: () => Promise<ByteBuckets>
}

/**
 * Opens `source` progressively.
 * @returns the final result: without `stats` and `overview` (both `null`) when the `validating` snapshot sent the
 *   same stats already (the client takes them from it: cloning 100,000 partitions twice costs the page)
 * @throws the abort reason when `signal` aborts
 */
export async function openProgressive(source: DatasetSource, options: ProgressiveOpenOptions): Promise<OpenResultMessage> {
  const buckets = options.spill ? await options.spill() : undefined
  try {
    return await openWith(source, options, buckets ? new FindingsCollector({ buckets }) : undefined)
  } finally {
    await buckets?.close()
  }
}

async function openWith(source: DatasetSource, options: ProgressiveOpenOptions, collector: FindingsCollector | undefined): Promise<OpenResultMessage> {
  const start = options.now()
  const checks = rowChecksDuringOpen({ signal: options.signal, collector })
  const emit = options.onSnapshot
  type Described = OpenResult['described']
  /** Everything of a result but its stats and their groupings. */
  const resultBase = (dataset: Dataset, handle: number, validation: ValidateReport, described: Described, provisional?: OpenProvisional) => ({
    dataset: handle,
    sourceKind: source.kind,
    root: source.root,
    validation,
    files: filesOf(dataset),
    rangeIgnored: options.rangeIgnored?.() ?? null,
    counters: { ...source.counters },
    elapsedMs: options.now() - start,
    described,
    ...(provisional ? { provisional } : {}),
  })
  const result = (dataset: Dataset, handle: number, stats: StatsReport, validation: ValidateReport, described: Described, provisional?: OpenProvisional): OpenResult => ({
    ...resultBase(dataset, handle, validation, described, provisional),
    stats,
    overview: overviewTables(stats),
  })
  /** The partitions of the snapshot sent last, to leave out of the `validating` one when it has the same. */
  let partitionsSent: StatsReport['partitions'] | null = null
  const send = (partial: OpenResult) => {
    if (!partial.samePartitions) partitionsSent = partial.stats.partitions
    emit?.(partial)
  }
  const dataset = await openDataset(source, {
    signal: options.signal,
    onProgress: options.onProgress,
    summary: options.summary,
    ...checks.open,
    onPartial: emit && ((partial) => {
      if (partial.stage === 'estimate') return send(estimateResult(partial.estimate, source, result))
      if (partial.stage === 'index-summary') return send(summaryResult(partial.summary, partial.where, source, result))
      if (partial.stage === 'index') {
        const { dataset: so } = partial
        const n = so.files.filter((f) => f.facts || f.error !== undefined).length
        const stats = partial.checked?.stats ?? statsReport(so, { partial: true })
        const validation = validationSoFar(so, stats, checks.checked, checks.soFar)
        const described = { fromIndex: n, read: 0, index: partial.where }
        const provisional: OpenProvisional = { stage: 'stats', filesDone: n, filesTotal: so.files.length, fromIndex: n, basis: 'index-rows' }
        if (partial.checked?.summaryAgrees && partitionsSent) {
          // the rows say what the summary, the snapshot sent last, said (compared by the open): nothing to draw again,
          // unless they have findings to show
          if (stats.findings.length > 0) send(withoutPartitions(resultBase(so, -1, validation, described, provisional), stats))
          return
        }
        return send(result(so, -1, stats, validation, described, provisional))
      }
      const { dataset: so, filesTotal } = partial
      // all files described: the final stats follow at once (as `validating`, or as the result), drawn once
      if (partial.filesDone === filesTotal) return
      // the files the snapshot holds (some in flight may be in it already): with their numbers, or unreadable
      const filesDone = so.files.filter((f) => f.facts || f.error !== undefined).length
      if (filesDone === filesTotal) return
      const fromIndex = so.files.filter((f) => f.facts && !checks.checked.has(f.path)).length
      const stats = statsReport(so, { partial: true })
      send(result(so, -1, stats, validationSoFar(so, stats, checks.checked, checks.soFar), { fromIndex, read: filesDone - fromIndex, index: null }, {
        stage: 'stats', filesDone, filesTotal, fromIndex, basis: 'files', unreadLanguages: unreadLanguagesOf(so),
      }))
    }),
  })
  const handle = options.keep(dataset)
  const remaining = dataset.files.filter((f) => f.readable && !checks.checked.has(f.path)).length
  let sent: StatsReport | null = null
  if (emit && remaining > 0) {
    const stats = sent = statsReport(dataset)
    const provisional: OpenProvisional = {
      stage: 'validating', filesDone: dataset.files.length, filesTotal: dataset.files.length, fromIndex: dataset.described.fromIndex, basis: 'all-files', remaining,
    }
    const validation = validationSoFar(dataset, stats, checks.checked, checks.soFar)
    send(partitionsSent && samePartitions(partitionsSent, stats.partitions)
      ? withoutPartitions(resultBase(dataset, handle, validation, dataset.described, provisional), stats)
      : result(dataset, handle, stats, validation, dataset.described, provisional))
  }
  // the dataset is usable from the `validating` snapshot on: the views' reads go before the row checks'
  const { stats, validation } = await checkDataset(dataset, { signal: options.signal, onProgress: options.onProgress, checked: checks.checked, background: true, collector })
  // the page has these stats (and their groupings) from the `validating` snapshot already: at 100,000 partitions
  // cloning them again costs the page's main thread a few hundred ms, so the client takes them from the snapshot
  if (sent && sameStats(sent, stats)) return { ...resultBase(dataset, handle, validation, dataset.described), stats: null, overview: null }
  return result(dataset, handle, stats, validation, dataset.described)
}
