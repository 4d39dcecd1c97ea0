/**
 * The dataset model: what discovery finds under a root, before any row is read.
 * Produced by `openDataset` (src/engine/discovery/open.ts); consumed by stats, validate, the pipeline and the UI.
 */
import type { Finding } from './findings.ts'
import type { DatasetSource } from './source/source.ts'

/** One parquet row group (a *fragment*, the reference's unit of shuffling and sharding). */
export interface RowGroupInfo {
  /** 0-based index within the file. */
  index: number
  /** Rows in this row group. */
  rows: number
  /** Index of its first row within the file (rows count across row groups). */
  firstRow: number
}

/** One column of a parquet file's schema, as mixscope classifies it. */
export interface ColumnInfo {
  name: string
  /** Readable type, e.g. `binary`, `list<int8>`, `large_list<int8>`, `string`, `int64`, `int32`. */
  type: string
  /** Whether the schema allows nulls. */
  nullable: boolean
}

/** A parquet file found by discovery. */
export interface DatasetFile {
  /** Path relative to the root (example ids use it verbatim). */
  path: string
  /** Size in bytes. */
  size: number
  /** Hive keys from `key=value` folder segments, URI-decoded; a deeper segment wins on repeats. */
  keys: Record<string, string>
  /** Id of the partition folder: the sorted `key=value` list of all its hive keys (decoded), joined by `/`. */
  partition: string
  /** Row groups from the footer; empty when the footer could not be read. */
  rowGroups: RowGroupInfo[]
  /** Total rows from the footer (0 when unreadable). */
  rows: number
  /** Columns from the footer (top-level), empty when unreadable. */
  columns: ColumnInfo[]
  /** Whether the footer parsed. */
  readable: boolean
}

/** A `language_distribution_*.tsv` as read (docs/conventions.md "Stats TSV"). */
export interface SummaryTsv {
  /** Where it was found: a path relative to the root (`../name.tsv` for the parent), a URL, or the user's path. */
  path: string
  rows: SummaryRow[]
}

/** One TSV row. `hours` is NaN when the cell is not a number. */
export interface SummaryRow {
  corpus: string
  language: string
  hours: number
}

/** Everything discovery knows about a dataset. */
export interface Dataset {
  /** The root as the user named it. */
  root: string
  source: DatasetSource
  /** Parquet files in UTF-8 byte order of their paths (the order that defines everything downstream). */
  files: DatasetFile[]
  /** Files ignored because a component below the root starts with `.` or `_`. */
  ignored: string[]
  /** Non-parquet files that are not ignored and not the TSV at the root. */
  stray: string[]
  /** The stats TSV, or `null` when none was found. */
  summary: SummaryTsv | null
  /** Findings from discovery and footers (unreadable files, key problems, stray files, versions merged). */
  findings: Finding[]
}

/** Progress of a long engine operation. */
export interface Progress {
  phase: 'listing' | 'footers' | 'stats' | 'validate' | 'audit' | 'deep' | 'index' | 'plan' | 'decode' | 'features' | 'prepare'
  /** Units done (files, row groups, rows: depends on phase). */
  done: number
  /** Units in all, or `null` when unknown yet. */
  total: number | null
  /** Source counters at this point. */
  requests: number
  bytes: number
}

/** Options shared by long engine operations. */
export interface RunOptions {
  signal?: AbortSignal
  onProgress?: (progress: Progress) => void
}
