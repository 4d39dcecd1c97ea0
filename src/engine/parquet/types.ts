/**
 * What the parquet stage knows of a file: its row groups and columns as mixscope classifies them, and the few fields
 * of a dataset file (src/engine/dataset/dataset.ts `DatasetFile`) a reader needs. Types only.
 */

/** One parquet row group (a *fragment*, the reference's unit of shuffling and sharding). */
export interface RowGroupInfo {
  /** 0-based index within the file. */
  index: number
  /** Rows in this row group. */
  rows: number
  /** Index of its first row within the file (rows count across row groups). */
  firstRow: number
  /** Σ `total_compressed_size` of its column chunks, in bytes (what sharding balances); absent when unknown. */
  compressedBytes?: number
}

/** One column of a parquet file's schema, as mixscope classifies it. */
export interface ColumnInfo {
  name: string
  /** Readable type, e.g. `binary`, `list<int8>`, `large_list<int8>`, `string`, `int64`, `int32`. */
  type: string
  /** Whether the schema allows nulls. */
  nullable: boolean
}

/** The fields of a dataset file that reading it needs (a `DatasetFile` is one). */
export interface ParquetFileRef {
  /** Path relative to the dataset root. */
  path: string
  /** Size in bytes. */
  size: number
  /** Row groups from the footer; empty when the footer could not be read. */
  rowGroups: RowGroupInfo[]
  /** Whether the footer parsed. */
  readable: boolean
}
