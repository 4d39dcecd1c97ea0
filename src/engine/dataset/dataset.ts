/**
 * The dataset model: what discovery finds under a root, before any row is read.
 * Produced by `openDataset` (src/engine/dataset/open.ts); consumed by stats, validate, the pipeline and the UI.
 */
import type { Finding } from '../core/findings.ts'
import type { DatasetSource, SourceFile } from '../source/source.ts'
import type { ColumnInfo, ParquetFileRef, RowGroupInfo } from '../parquet/types.ts'

export type { ColumnInfo, RowGroupInfo }

/** A parquet file found by discovery. */
export interface DatasetFile extends ParquetFileRef {
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
  /** Why the footer did not parse (the `unreadable-parquet` message); absent when it did. */
  error?: string
  /** Last modification from the listing (whole ms since the epoch), when the source sees it. */
  mtimeMs?: number
  /**
   * What its `audio_size` column holds, per row group, once read (by `computeStats`, by an open that reads facts) or
   * taken from a fresh dataset index; absent until then.
   */
  facts?: FileFacts
}

/** What one row group's `audio_size` column holds (docs/conventions.md "Dataset index": its numbers). */
export interface RowGroupFacts {
  /** Rows of the row group. */
  rows: number
  /** Σ of the finite, non-null values (stored samples at 16 kHz). */
  sum: number
  /** Smallest and largest finite value; `null` when there is none. */
  min: number | null
  max: number | null
  /** Null values. */
  nulls: number
  /** Why the row group could not be read (then the numbers above are 0 / null), or `null`. */
  error: string | null
  /**
   * Rows and samples per partition folder, only for a file whose split/language/corpus are columns rather than folder
   * keys (its rows then fall into several partitions); absent otherwise.
   */
  byKeys?: { keys: Record<string, string>; rows: number; samples: number }[]
}

/** The `audio_size` facts of one file: one entry per row group, in order. */
export interface FileFacts {
  groups: RowGroupFacts[]
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
  /** Every listed file that is neither ignored nor parquet (the TSV at the root, stray files), in path order. */
  otherFiles: SourceFile[]
  /** The stats TSV, or `null` when none was found. */
  summary: SummaryTsv | null
  /** Findings from discovery and footers (unreadable files, key problems, stray files, versions merged). */
  findings: Finding[]
}

/**
 * The first numbers of a dataset, from its file listing and its stats TSV alone, before any parquet byte is read
 * (the progressive open shows them, labelled as estimates): per partition folder the files and their bytes, which
 * the listing gives exactly, and hours from the TSV, which gives them per (corpus, language) over all splits, shared
 * out over that pair's partition folders in proportion to their bytes.
 */
export interface DatasetEstimate {
  partitions: PartitionEstimate[]
  /** Parquet files and their bytes in all. */
  files: number
  bytes: number
  /** Where the hours come from: the TSV's path, or `null` (no TSV: no hours). */
  hoursFrom: string | null
}

/** One partition folder as the listing and the TSV see it. */
export interface PartitionEstimate {
  corpus: string | null
  language: string | null
  split: string | null
  /** Every other hive key (e.g. `version`), by name. */
  [key: string]: string | number | null
  files: number
  bytes: number
  /** TSV hours of (corpus, language) × this folder's share of the pair's bytes; `null` without a TSV row. */
  hours: number | null
}

/** Progress of a long engine operation. */
export interface Progress {
  phase: 'listing' | 'footers' | 'stats' | 'validate' | 'audit' | 'deep' | 'index' | 'plan' | 'warm-up' | 'decode' | 'features' | 'prepare'
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
