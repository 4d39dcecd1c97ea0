/**
 * Stats from footers plus the `audio_size` column only (never audio bytes): per partition folder files, row groups,
 * rows, samples and hours = samples / 16000 / 3600; compared with the stats TSV (docs/conventions.md "Stats TSV").
 */
import { compareUtf8, finding, sortFindings, uniqueFindings, type Finding } from '../findings.ts'
import type { DatasetFile, RunOptions } from '../dataset.ts'
import { requiredKeys, type OpenDataset } from '../discovery/open.ts'
import { partitionIdOf } from '../discovery/hive.ts'
import { toNumber, toText } from '../parquet/reader.ts'
import { mapLimit } from '../util/map-limit.ts'
import { coverageProblem, tsvCoverage, type SplitHours } from './tsv-coverage.ts'
import type { PartitionStats, StatsReport } from './types.ts'

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
  files: Set<string>
  rowGroups: Set<string>
  rows: number
  samples: number
}

/** Per-row partition keys of one row group: folder keys, plus required keys read from columns when not folders. */
async function rowGroupKeys(dataset: OpenDataset, file: DatasetFile, rowGroup: number, columnKeys: string[], signal?: AbortSignal) {
  const columns = ['audio_size', ...columnKeys].filter((c) => file.columns.some((col) => col.name === c))
  if (columns.length === 0) return null
  return dataset.parquet.readColumns(file, rowGroup, columns, { signal })
}

/**
 * Computes `stats --json` for an opened dataset.
 * Reads each readable file's `audio_size` column (and split/language/corpus columns when they are not folder keys).
 */
/** Options of `computeStats`. */
export interface StatsOptions extends RunOptions {
  concurrency?: number
  /**
   * Columns to bring into the chunk cache with each row group's stats read, in the same request when they are
   * neighbours (validation's row checks, which run next, then read nothing).
   */
  alsoRead?: (file: DatasetFile, rowGroup: number) => string[]
}

export async function computeStats(dataset: OpenDataset, options: StatsOptions = {}): Promise<StatsReport> {
  const { signal, onProgress } = options
  const findings: Finding[] = [...dataset.findings]
  const partitions = new Map<string, Accumulator>()
  const order: string[] = []
  const keyNames = new Set<string>(requiredKeys)
  for (const f of dataset.files) for (const k of Object.keys(f.keys)) keyNames.add(k)
  const readable = dataset.files.filter((f) => f.readable)
  const totalGroups = readable.reduce((n, f) => n + f.rowGroups.length, 0)
  let groupsDone = 0
  const source = dataset.source

  // per file results first (concurrently), merged in file order so the output is deterministic
  const perFile = await mapLimit(readable, options.concurrency ?? 8, async (file) => {
    const columnKeys = requiredKeys.filter((k) => !(k in file.keys) && file.columns.some((c) => c.name === k))
    const hasSize = file.columns.some((c) => c.name === 'audio_size')
    const rows: { keys: Record<string, string>; rowGroup: number; rows: number; samples: number }[] = []
    const fileFindings: Finding[] = []
    if (!hasSize) {
      fileFindings.push(finding('error', 'missing-column', file.path,
        `${file.path} has no audio_size column (columns: ${file.columns.map((c) => c.name).join(', ') || 'none'}); expected int64 decoded samples at 16 kHz`))
    }
    if (file.rowGroups.length === 0) {
      // a file without rows still makes its partition folder exist (0 rows), as DuckDB and pyarrow count it
      rows.push({ keys: file.keys, rowGroup: -1, rows: 0, samples: 0 })
      fileFindings.push(finding('warning', 'empty-file', file.path, `${file.path} holds no rows (0 row groups)`))
    }
    if (options.alsoRead) {
      const also = options.alsoRead
      try {
        await dataset.parquet.prefetch(file, file.rowGroups.map((g) => ({ rowGroup: g.index, columns: ['audio_size', ...columnKeys, ...also(file, g.index)] })), { signal })
      } catch (error) {
        if (signal?.aborted) throw error // otherwise the row groups below are read (and fail) one by one, as findings
      }
    }
    for (const group of file.rowGroups) {
      if (!hasSize && columnKeys.length === 0) {
        rows.push({ keys: file.keys, rowGroup: group.index, rows: group.rows, samples: 0 })
        continue
      }
      try {
        const data = await rowGroupKeys(dataset, file, group.index, columnKeys, signal)
        const sizes = data?.audio_size
        const byKey = new Map<string, { keys: Record<string, string>; rows: number; samples: number }>()
        for (let i = 0; i < group.rows; i++) {
          const keys = { ...file.keys }
          for (const k of columnKeys) {
            const v = toText(data?.[k]?.[i])
            if (v !== null) keys[k] = v
          }
          const id = partitionIdOf(keys)
          let slot = byKey.get(id)
          if (!slot) byKey.set(id, slot = { keys, rows: 0, samples: 0 })
          slot.rows++
          const n = sizes ? toNumber(sizes[i]) : null
          if (n !== null && Number.isFinite(n)) slot.samples += n
        }
        for (const slot of byKey.values()) rows.push({ ...slot, rowGroup: group.index })
      } catch (error) {
        if (signal?.aborted) throw error
        fileFindings.push(finding('error', 'unreadable-row-group', file.path, (error as Error).message, { row_group: group.index }))
      }
      groupsDone++
      onProgress?.({ phase: 'stats', done: groupsDone, total: totalGroups, requests: source.counters.requests, bytes: source.counters.bytes })
    }
    return { file, rows, fileFindings }
  })

  for (const { file, rows, fileFindings } of perFile) {
    findings.push(...fileFindings)
    for (const r of rows) {
      const id = partitionIdOf(r.keys)
      let acc = partitions.get(id)
      if (!acc) {
        partitions.set(id, acc = { keys: r.keys, firstPath: file.path, files: new Set(), rowGroups: new Set(), rows: 0, samples: 0 })
        order.push(id)
      }
      acc.files.add(file.path)
      if (r.rowGroup >= 0) acc.rowGroups.add(`${file.path}#${r.rowGroup}`)
      acc.rows += r.rows
      acc.samples += r.samples
    }
  }

  const extraKeys = [...keyNames].filter((k) => !(requiredKeys as readonly string[]).includes(k)).sort(compareUtf8)
  const out: PartitionStats[] = order.map((id) => {
    const acc = partitions.get(id)!
    const p: PartitionStats = {
      corpus: acc.keys.corpus ?? null,
      language: acc.keys.language ?? null,
      split: acc.keys.split ?? null,
      files: 0, row_groups: 0, rows: 0, samples: 0, hours: 0,
    }
    for (const k of extraKeys) p[k] = acc.keys[k] ?? null
    Object.assign(p, { files: acc.files.size, row_groups: acc.rowGroups.size, rows: acc.rows, samples: acc.samples, hours: hoursOf(acc.samples) })
    return p
  })
  for (const [id, acc] of partitions) {
    if (acc.rows === 0) findings.push(finding('warning', 'empty-partition', acc.firstPath, `partition ${id} holds no rows; training gets nothing from it`))
  }
  const allFiles = new Set<string>()
  const allGroups = new Set<string>()
  for (const acc of partitions.values()) {
    acc.files.forEach((f) => allFiles.add(f))
    acc.rowGroups.forEach((g) => allGroups.add(g))
  }
  const samples = out.reduce((n, p) => n + p.samples, 0)
  findings.push(...compareWithSummary(dataset, [...partitions.values()]))
  return {
    schema_version: 1,
    root: dataset.root,
    partitions: out,
    totals: { files: allFiles.size, row_groups: allGroups.size, rows: out.reduce((n, p) => n + p.rows, 0), samples, hours: hoursOf(samples) },
    summary: dataset.summary && {
      path: dataset.summary.path,
      rows: dataset.summary.rows.map((r) => ({ corpus: r.corpus, language: r.language, hours: Number.isFinite(r.hours) ? r.hours : null })),
    },
    findings: sortFindings(uniqueFindings(findings)),
  }
}

export { summaryHoursTolerance } from './tsv-coverage.ts'

/**
 * TSV vs data (tsv-coverage.ts): partitions missing from the TSV, TSV rows without data, and TSV hours that no set
 * of the data's splits adds up to (every split, as the dataprep writes it, the train split alone, or another subset:
 * each is a reading training may be given, so only a TSV matching none of them is reported).
 */
function compareWithSummary(dataset: OpenDataset, partitions: Accumulator[]): Finding[] {
  const summary = dataset.summary
  if (!summary) return []
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
  for (const c of tsvCoverage(data, summary.rows, 'train')) {
    const problem = coverageProblem(c, summary.path)
    if (!problem) continue
    const path = problem.kind === 'missing-from-tsv' ? firstPath.get(JSON.stringify([c.corpus, c.language])) ?? '' : summary.path
    out.push(finding('warning', problem.kind, path, problem.message))
  }
  return out
}
