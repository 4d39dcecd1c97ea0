/**
 * Stats from footers plus the `audio_size` column only (never audio bytes): per partition folder files, row groups,
 * rows, samples and hours = samples / 16000 / 3600; compared with the stats TSV (docs/conventions.md "Stats TSV").
 */
import { compareUtf8, finding, sortFindings, uniqueFindings, type Finding } from '../core/findings.ts'
import type { Dataset, DatasetFile, RunOptions } from './dataset.ts'
import type { ParquetReader } from '../parquet/reader.ts'
import { partitionIdOf, requiredKeys } from './hive.ts'
import { mapLimit } from '../core/map-limit.ts'
import { hasAudioSize, readFileFacts, type FactsOptions } from './facts.ts'
import { rememberCoverage } from './coverage-memo.ts'
import { coverageProblem, tsvCoverage, type PartitionCoverage, type SplitHours } from './tsv-coverage.ts'
import type { PartitionStats, StatsReport } from './stats-types.ts'

/** Samples per second the stored `audio_size` assumes (the dataprep resamples to 16 kHz). */
export const storedSampleRate = 16000

/** Hours of `samples` stored samples. */
export function hoursOf(samples: number): number {
  return samples / storedSampleRate / 3600
}

interface Accumulator {
  keys: Record<string, string>
  /** path of the first file seen, for findings */
  firstPath: string
  files: number
  rowGroups: number
  rows: number
  samples: number
}

/** Options of `computeStats`. */
export interface StatsOptions extends RunOptions {
  /** Files read at once (default 8). */
  concurrency?: number
  /**
   * Columns to bring into the chunk cache with each row group's stats read, in the same request when they are
   * neighbours (validation's row checks, which run next, then read nothing).
   */
  alsoRead?: FactsOptions['alsoRead']
}

/**
 * Computes `stats --json` for an opened dataset. Files whose facts are not known yet (`file.facts`: from an open that
 * read them, or from a fresh dataset index) have their `audio_size` column (and split/language/corpus columns when
 * they are not folder keys) read now, and keep the facts.
 */
export async function computeStats(dataset: Dataset & { parquet: ParquetReader }, options: StatsOptions = {}): Promise<StatsReport> {
  const { signal, onProgress } = options
  const missing = dataset.files.filter((f) => f.readable && !f.facts)
  const totalGroups = missing.reduce((n, f) => n + f.rowGroups.length, 0)
  let groupsDone = 0
  const source = dataset.source
  await mapLimit(missing, options.concurrency ?? 8, async (file) => {
    file.facts = await readFileFacts(dataset.parquet, file, { signal, alsoRead: options.alsoRead })
    groupsDone += file.rowGroups.length
    onProgress?.({ phase: 'stats', done: groupsDone, total: totalGroups, requests: source.counters.requests, bytes: source.counters.bytes })
  })
  return statsReport(dataset)
}

/**
 * Adds a file that has row groups, an `audio_size` column and readable facts with keys from its folder (no findings,
 * one partition) to its partition, as the general loop of `statsReport` would, and says whether it did.
 */
function addPlainFile(partitions: Map<string, Accumulator>, file: DatasetFile): boolean {
  const groups = file.facts?.groups
  if (!groups || groups.length === 0 || file.rowGroups.length === 0 || !hasAudioSize(file)) return false
  for (const g of groups) if (g.error !== null || g.byKeys) return false
  let acc = partitions.get(file.partition)
  if (!acc) partitions.set(file.partition, acc = { keys: file.keys, firstPath: file.path, files: 0, rowGroups: 0, rows: 0, samples: 0 })
  acc.files++
  acc.rowGroups += groups.length
  for (const g of groups) {
    acc.rows += g.rows
    acc.samples += g.sum
  }
  return true
}

/** What one file adds to the partitions, and its findings. */
function contribution(file: DatasetFile): { entries: { keys: Record<string, string>; rowGroup: number; rows: number; samples: number }[]; findings: Finding[] } {
  const entries: { keys: Record<string, string>; rowGroup: number; rows: number; samples: number }[] = []
  const findings: Finding[] = []
  if (!hasAudioSize(file)) {
    findings.push(finding('error', 'missing-column', file.path,
      `${file.path} has no audio_size column (columns: ${file.columns.map((c) => c.name).join(', ') || 'none'}); expected int64 decoded samples at 16 kHz`))
  }
  if (file.rowGroups.length === 0) {
    // a file without rows still makes its partition folder exist (0 rows), as DuckDB and pyarrow count it
    entries.push({ keys: file.keys, rowGroup: -1, rows: 0, samples: 0 })
    findings.push(finding('warning', 'empty-file', file.path, `${file.path} holds no rows (0 row groups)`))
  }
  file.facts?.groups.forEach((g, rowGroup) => {
    if (g.error !== null) {
      findings.push(finding('error', 'unreadable-row-group', file.path, g.error, { row_group: rowGroup }))
      return
    }
    if (g.byKeys) for (const k of g.byKeys) entries.push({ keys: k.keys, rowGroup, rows: k.rows, samples: k.samples })
    else entries.push({ keys: file.keys, rowGroup, rows: g.rows, samples: g.sum })
  })
  return { entries, findings }
}

/** What `statsReport` reads of a dataset. */
export type StatsInput = Pick<Dataset, 'root' | 'files' | 'findings' | 'summary'>

/**
 * `stats --json` from the facts the dataset's files hold (no I/O): every readable file's, or with `partial` only
 * those known so far (the progressive open shows them while the rest is read). Files are merged in dataset order, so
 * the report is the same whatever order the facts arrived in.
 */
export function statsReport(dataset: StatsInput, options: { partial?: boolean } = {}): StatsReport {
  const findings: Finding[] = options.partial ? [] : [...dataset.findings]
  const partitions = new Map<string, Accumulator>()
  const keyNames = new Set<string>(requiredKeys)
  const keysSeen = new Set<Record<string, string>>() // the files of a folder share one keys object
  for (const f of dataset.files) {
    if (keysSeen.has(f.keys)) continue
    keysSeen.add(f.keys)
    for (const k of Object.keys(f.keys)) keyNames.add(k)
  }
  let totalFiles = 0
  let totalGroups = 0
  for (const file of dataset.files) {
    if (!file.readable || (options.partial && !file.facts)) continue
    if (addPlainFile(partitions, file)) {
      // the common case, taken without building entries: the same sums in the same order as below
      totalFiles++
      totalGroups += file.facts!.groups.length
      continue
    }
    const { entries, findings: fileFindings } = contribution(file)
    findings.push(...fileFindings)
    if (entries.length > 0) totalFiles++
    const groupsSeen = new Set<number>()
    const inFile = new Map<string, Set<number>>()
    for (const r of entries) {
      // the folder's id, worked out once by discovery, unless the keys come from columns
      const id = r.keys === file.keys ? file.partition : partitionIdOf(r.keys)
      let acc = partitions.get(id)
      if (!acc) partitions.set(id, acc = { keys: r.keys, firstPath: file.path, files: 0, rowGroups: 0, rows: 0, samples: 0 })
      let groups = inFile.get(id)
      if (!groups) {
        inFile.set(id, groups = new Set())
        acc.files++
      }
      if (r.rowGroup >= 0 && !groups.has(r.rowGroup)) {
        groups.add(r.rowGroup)
        acc.rowGroups++
      }
      if (r.rowGroup >= 0) groupsSeen.add(r.rowGroup)
      acc.rows += r.rows
      acc.samples += r.samples
    }
    totalGroups += groupsSeen.size
  }

  const extraKeys = [...keyNames].filter((k) => !(requiredKeys as readonly string[]).includes(k)).sort(compareUtf8)
  const out: PartitionStats[] = []
  for (const acc of partitions.values()) {
    const p: PartitionStats = {
      corpus: acc.keys.corpus ?? null,
      language: acc.keys.language ?? null,
      split: acc.keys.split ?? null,
      files: 0, row_groups: 0, rows: 0, samples: 0, hours: 0,
    }
    for (const k of extraKeys) p[k] = acc.keys[k] ?? null
    Object.assign(p, { files: acc.files, row_groups: acc.rowGroups, rows: acc.rows, samples: acc.samples, hours: hoursOf(acc.samples) })
    out.push(p)
  }
  for (const [id, acc] of partitions) {
    if (acc.rows === 0) findings.push(finding('warning', 'empty-partition', acc.firstPath, `partition ${id} holds no rows; training gets nothing from it`))
  }
  const samples = out.reduce((n, p) => n + p.samples, 0)
  const compared = options.partial ? null : compareWithSummary(dataset, [...partitions.values()])
  if (compared) findings.push(...compared.findings)
  const report: StatsReport = {
    schema_version: 1,
    root: dataset.root,
    partitions: out,
    totals: { files: totalFiles, row_groups: totalGroups, rows: out.reduce((n, p) => n + p.rows, 0), samples, hours: hoursOf(samples) },
    summary: dataset.summary && {
      path: dataset.summary.path,
      rows: dataset.summary.rows.map((r) => ({ corpus: r.corpus, language: r.language, hours: Number.isFinite(r.hours) ? r.hours : null })),
    },
    findings: sortFindings(uniqueFindings(findings)),
  }
  if (compared?.coverage) rememberCoverage(report, compared.coverage)
  return report
}

export { summaryHoursTolerance } from './tsv-coverage.ts'

/**
 * TSV vs data (tsv-coverage.ts): partitions missing from the TSV, TSV rows without data, and TSV hours that no set
 * of the data's splits adds up to (every split, as the dataprep writes it, the train split alone, or another subset:
 * each is a reading training may be given, so only a TSV matching none of them is reported).
 */
function compareWithSummary(dataset: StatsInput, partitions: Accumulator[]): { findings: Finding[]; coverage: PartitionCoverage[] | null } {
  const summary = dataset.summary
  if (!summary) return { findings: [], coverage: null }
  const out: Finding[] = []
  const firstPath = new Map<string, string>()
  const data: SplitHours[] = []
  for (const p of partitions) {
    const { corpus, language, split } = p.keys
    if (corpus === undefined || language === undefined) continue
    const id = JSON.stringify([corpus, language])
    if (!firstPath.has(id)) firstPath.set(id, p.firstPath)
    data.push({ corpus, language, split: split ?? '(none)', hours: hoursOf(p.samples) })
  }
  const coverage = tsvCoverage(data, summary.rows, 'train')
  for (const c of coverage) {
    const problem = coverageProblem(c, summary.path)
    if (!problem) continue
    const path = problem.kind === 'missing-from-tsv' ? firstPath.get(JSON.stringify([c.corpus, c.language])) ?? '' : summary.path
    out.push(finding('warning', problem.kind, path, problem.message))
  }
  return { findings: out, coverage }
}
