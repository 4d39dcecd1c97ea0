/**
 * The snapshots of the progressive open (open-progressive.ts): results made from the estimate, the index's summary,
 * the files described so far, or a partial whose partitions the page has already; the findings so far; discovery's
 * counts. Structured fields only: the page words where the numbers come from (`OpenProvisional.basis`).
 */
import type { RowFindingsSoFar } from './validate.ts'
import { capFindings } from '../core/findings-sink.ts'
import { compareUtf8 } from '../core/findings.ts'
import type { Dataset, DatasetEstimate } from '../dataset/dataset.ts'
import type { IndexSummary } from '../dataset/index-summary.ts'
import type { DatasetSource } from '../source/source.ts'
import { tsvCoverageOf } from '../dataset/groupings.ts'
import { rememberedCoverage } from '../dataset/coverage-memo.ts'
import { samePartitions, sameTotals } from '../dataset/same.ts'
import type { StatsReport, ValidateReport } from '../dataset/stats-types.ts'
import type { OpenProvisional, OpenResult } from './open-types.ts'

/**
 * A partial whose partitions the page has already (`OpenResult.samePartitions`): the partitions and the groupings made
 * of them alone left empty; the TSV comparison, which the index's numbers had not, is sent.
 */
export function withoutPartitions(base: Omit<OpenResult, 'stats' | 'overview'>, stats: StatsReport): OpenResult {
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

/**
 * The languages (`language` hive key) of `dataset`'s files none of whose files is described yet (no facts, no error):
 * what a `files` snapshot's numbers do not show at all yet (`OpenProvisional.unreadLanguages`), sorted by UTF-8 bytes.
 */
export function unreadLanguagesOf(dataset: Dataset): string[] {
  const read = new Set<string>()
  const unread = new Set<string>()
  for (const f of dataset.files) {
    const language = f.keys.language
    if (language === undefined) continue
    if (f.facts || f.error !== undefined) read.add(language)
    else unread.add(language)
  }
  return [...unread].filter((l) => !read.has(l)).sort(compareUtf8)
}

/** Discovery counts: parquet files, readable footers, ignored paths, stray files, Σ parquet bytes. */
export function filesOf(dataset: Dataset): OpenResult['files'] {
  let readable = 0
  let bytes = 0
  for (const f of dataset.files) {
    if (f.readable) readable++
    bytes += f.size
  }
  return { parquet: dataset.files.length, readable, ignored: dataset.ignored.length, stray: dataset.stray.length, bytes }
}

/** The findings so far: the stats' and the row checks' of the files checked already. */
export function validationSoFar(dataset: Dataset, stats: StatsReport, checked: Map<string, { findings: ValidateReport['findings']; rows: number }>,
  soFar: RowFindingsSoFar | null = null): ValidateReport {
  let rows = 0
  const findings = [...stats.findings]
  for (const c of checked.values()) {
    rows += c.rows
    findings.push(...c.findings)
  }
  if (soFar) findings.push(...soFar.kept)
  const capped = capFindings(findings)
  let omitted = capped.omitted
  // the row findings past the first of each kind (a collector holds them until the end): counted, not listed
  for (const [kind, c] of soFar?.counts ?? []) {
    const count = capped.counts[kind]
    const extra = c.total - soFar!.kept.filter((f) => f.kind === kind).length
    if (!count || extra <= 0) continue
    count.total += extra
    if (severityRank[c.severity] < severityRank[count.severity]) count.severity = c.severity
    omitted += extra
  }
  return { schema_version: 1, root: dataset.root, files_checked: checked.size, rows_checked: rows, finding_counts: capped.counts, findings_omitted: omitted, findings: capped.findings }
}

const severityRank = { error: 0, warning: 1, info: 2 } as const

/** Makes a result from a dataset snapshot, its handle, stats, findings and how its files were described. */
export type MakeResult = (d: Dataset, h: number, s: StatsReport, v: ValidateReport, described: OpenResult['described'], p?: OpenProvisional) => OpenResult

/** A provisional result made before the open has any dataset file (the index's summary, the estimate): no handle, no findings. */
export function resultWithoutFiles(source: DatasetSource, result: MakeResult, stats: StatsReport, files: OpenResult['files'], described: OpenResult['described'], provisional: OpenProvisional): OpenResult {
  const empty: Dataset = { root: source.root, source, files: [], ignored: [], stray: [], otherFiles: [], summary: null, findings: [] }
  const out = result(empty, -1, stats, { schema_version: 1, root: source.root, files_checked: 0, rows_checked: 0, finding_counts: {}, findings_omitted: 0, findings: [] }, described, provisional)
  out.files = files
  return out
}

/** The index's summary as a provisional result: its numbers, no findings yet (they come with the rows and the data). */
export function summaryResult(summary: IndexSummary, where: string, source: DatasetSource, result: MakeResult): OpenResult {
  const stats: StatsReport = { schema_version: 1, root: source.root, partitions: summary.partitions, totals: summary.totals, summary: null, findings: [] }
  const { parquet, readable, described: n, bytes } = summary.files
  return resultWithoutFiles(source, result, stats, { parquet, readable, ignored: 0, stray: 0, bytes }, { fromIndex: n, read: 0, index: where }, {
    stage: 'stats', filesDone: n, filesTotal: parquet, fromIndex: n, basis: 'index-summary',
  })
}

/** The estimate as a provisional result the Overview can draw: hours from the TSV, files and bytes from the listing. */
export function estimateResult(estimate: DatasetEstimate, source: DatasetSource, result: MakeResult): OpenResult {
  const partitions = estimate.partitions.map(({ bytes: _bytes, hours, files, ...keys }) => ({ ...keys, files, row_groups: 0, rows: 0, samples: 0, hours: hours ?? 0 }))
  const hours = partitions.reduce((n, p) => n + p.hours, 0)
  const stats: StatsReport = {
    schema_version: 1, root: source.root, partitions,
    totals: { files: estimate.files, row_groups: 0, rows: 0, samples: 0, hours },
    summary: null, findings: [],
  }
  return resultWithoutFiles(source, result, stats, { parquet: estimate.files, readable: 0, ignored: 0, stray: 0, bytes: estimate.bytes }, { fromIndex: 0, read: 0, index: null }, {
    stage: 'estimate', filesDone: 0, filesTotal: estimate.files, fromIndex: 0, basis: 'listing', estimate,
  })
}
