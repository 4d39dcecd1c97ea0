/**
 * The index's summary of its own numbers (docs/conventions.md "Dataset index", docs/interpretations.md "Progressive
 * open"): the per-partition `stats` of the files its rows describe, written as key-value metadata
 * `mixscope.index.summary` in the footer. An open reads it before decoding a single row, so an indexed root's first
 * chart costs the index's transfer and a JSON parse, not the decoding of 100,000 rows. It is never the truth: the rows
 * are decoded next and checked against it, then against the listing, and `stats` always uses the rows.
 */
import type { Dataset } from './dataset.ts'
import { describedFiles, folderKeys } from './index-described.ts'
import { MixscopeError } from '../core/findings.ts'
import { statsReport, hoursOf } from './stats.ts'
import { samePartitions, sameTotals } from './same.ts'
import type { PartitionStats, StatsReport, StatsTotals } from './stats-types.ts'
import { indexEntries } from './index-entries.ts'
import type { IndexRow } from './index-format.ts'

/** Key-value metadata key of the summary. */
export const indexSummaryKey = 'mixscope.index.summary'

/** The numbers of the parquet files an index describes, as an open shows them before it has decoded the rows. */
export interface IndexSummary {
  /** Partitions in dataset order, as `stats --json` (partial: files whose facts the index holds) gives them. */
  partitions: PartitionStats[]
  totals: StatsTotals
  /** Parquet files the index describes, those of them readable, those with facts or a footer error, Σ bytes. */
  files: { parquet: number; readable: number; described: number; bytes: number }
}

/** The numeric fields of a partition, in the order `stats --json` prints them after the keys. */
const counts = ['files', 'row_groups', 'rows', 'samples'] as const

/**
 * The summary of index rows: the files they describe made as discovery makes them, and `stats` of those with facts.
 * @param rows in dataset order, as `writeIndex` takes them
 */
export function summarizeIndexRows(rows: readonly IndexRow[]): IndexSummary {
  const files = [...describedFiles(indexEntries(rows, 'index rows'), folderKeys()).values()]
  const dataset: Pick<Dataset, 'root' | 'files' | 'findings' | 'summary'> = { root: '', files, findings: [], summary: null }
  const stats = statsReport(dataset, { partial: true })
  let readable = 0
  let described = 0
  let bytes = 0
  for (const f of files) {
    if (f.readable) readable++
    if (f.facts || f.error !== undefined) described++
    bytes += f.size
  }
  return { partitions: stats.partitions, totals: stats.totals, files: { parquet: files.length, readable, described, bytes } }
}

/**
 * The summary as the metadata value: JSON with each key's values listed once (`values[k]`) and each partition as its
 * key indices (-1 for null) followed by files, row groups, rows and samples. About 26 bytes per partition.
 */
export function encodeIndexSummary(summary: IndexSummary): string {
  const keys = summary.partitions.length > 0 ? Object.keys(summary.partitions[0]).filter((k) => !isCount(k)) : ['corpus', 'language', 'split']
  const values = keys.map(() => new Map<string, number>())
  const partitions = summary.partitions.map((p) => {
    const row: number[] = keys.map((k, i) => {
      const v = p[k]
      if (v === null) return -1
      const text = String(v)
      let at = values[i].get(text)
      if (at === undefined) values[i].set(text, at = values[i].size)
      return at
    })
    for (const c of counts) row.push(p[c])
    return row
  })
  const { files, row_groups, rows, samples } = summary.totals
  return JSON.stringify({ version: 1, keys, values: values.map((m) => [...m.keys()]), partitions, totals: [files, row_groups, rows, samples], files: summary.files })
}

function isCount(key: string): boolean {
  return key === 'hours' || (counts as readonly string[]).includes(key)
}

/**
 * Parses the metadata value back into partitions shaped exactly as `statsReport` makes them (hours = samples / 16000 /
 * 3600).
 * @throws MixscopeError `bad-index` naming what does not fit
 */
export function decodeIndexSummary(text: string, where: string): IndexSummary {
  const fail = (what: string) => new MixscopeError(`index: ${where} ${indexSummaryKey} ${what}`, 'bad-index', 'data')
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw fail(`is not JSON (${(error as Error).message})`)
  }
  const o = raw as { version?: unknown; keys?: unknown; values?: unknown; partitions?: unknown; totals?: unknown; files?: unknown }
  if (typeof raw !== 'object' || raw === null || o.version !== 1) throw fail(`has version ${JSON.stringify(o?.version ?? null)}, expected 1`)
  const keys = o.keys
  const values = o.values
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string' && !isCount(k))) throw fail('has no list of key names')
  if (!Array.isArray(values) || values.length !== keys.length || !values.every((v) => Array.isArray(v) && v.every((s) => typeof s === 'string'))) {
    throw fail('has no list of values per key')
  }
  if (!Array.isArray(o.partitions)) throw fail('has no partitions')
  const width = keys.length + counts.length
  const partitions = (o.partitions as unknown[]).map((row, i) => {
    if (!Array.isArray(row) || row.length !== width || !row.every((n) => Number.isSafeInteger(n))) throw fail(`partition ${i} is ${JSON.stringify(row)}, expected ${width} integers`)
    // the shape `statsReport` makes: the three required keys, the counts, then any other key
    const p: PartitionStats = { corpus: null, language: null, split: null, files: 0, row_groups: 0, rows: 0, samples: 0, hours: 0 }
    keys.forEach((k, j) => {
      const at = row[j] as number
      if (at !== -1 && (at < 0 || at >= (values[j] as string[]).length)) throw fail(`partition ${i} has ${k} value ${at}, of ${(values[j] as string[]).length}`)
      p[k] = at === -1 ? null : (values[j] as string[])[at]
    })
    counts.forEach((c, j) => { p[c] = row[keys.length + j] as number })
    p.hours = hoursOf(p.samples)
    return p
  })
  const totals = o.totals
  if (!Array.isArray(totals) || totals.length !== 4 || !totals.every((n) => Number.isSafeInteger(n))) throw fail(`has totals ${JSON.stringify(totals)}, expected 4 integers`)
  const f = o.files as IndexSummary['files'] | undefined
  if (typeof f !== 'object' || f === null || !['parquet', 'readable', 'described', 'bytes'].every((k) => Number.isSafeInteger((f as unknown as Record<string, unknown>)[k]))) {
    throw fail(`has files ${JSON.stringify(f ?? null)}, expected parquet, readable, described and bytes`)
  }
  const [files, row_groups, rows, samples] = totals as number[]
  return { partitions, totals: { files, row_groups, rows, samples, hours: hoursOf(samples) }, files: { parquet: f.parquet, readable: f.readable, described: f.described, bytes: f.bytes } }
}

/** True when `stats` of the index's rows holds exactly the summary's partitions (same order, keys and numbers) and totals. */
export function summaryMatches(summary: IndexSummary, stats: Pick<StatsReport, 'partitions' | 'totals'>): boolean {
  return samePartitions(summary.partitions, stats.partitions) && sameTotals(summary.totals, stats.totals)
}
