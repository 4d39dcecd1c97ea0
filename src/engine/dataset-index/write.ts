/**
 * Writing the dataset index (docs/conventions.md "Dataset index") with hyparquet-writer: the rows as parquet, and the
 * summary of their numbers in the footer. A module of its own, so an open, which only reads the index, does not load
 * the writer.
 */
import { parquetWriteBuffer } from 'hyparquet-writer'
import type { BasicType } from 'hyparquet-writer/src/types.js'
import { MixscopeError } from '../core/findings.ts'
import { indexColumns, indexVersion, indexVersionKey, type ColumnKind, type IndexRow } from '../dataset/index-format.ts'
import { encodeIndexSummary, indexSummaryKey, summarizeIndexRows } from '../dataset/index-summary.ts'

const basicType: Record<ColumnKind, BasicType> = { string: 'STRING', int64: 'INT64', int32: 'INT32' }

/** Options of `writeIndex`. */
export interface WriteIndexOptions {
  /** More key-value metadata (e.g. a shard's `mixscope.index.shard`), after the version. */
  metadata?: Record<string, string>
  /** Rows per row group of the index file (default 100,000). */
  rowGroupSize?: number
}

/**
 * Serializes index rows (in the order given: the caller's dataset order) as parquet bytes. Deterministic: the same
 * rows give the same bytes.
 * @throws MixscopeError `bad-index-row` when a value does not fit its column
 */
export function writeIndex(rows: readonly IndexRow[], options: WriteIndexOptions = {}): Uint8Array {
  const columnData = indexColumns.map(({ name, kind, nullable }) => {
    const data = rows.map((row, i) => {
      const value = row[name]
      if (value === null || value === undefined) {
        if (!nullable) throw new MixscopeError(`index: row ${i} (${row.path}) has no ${name}`, 'bad-index-row', 'data')
        return null
      }
      if (kind === 'string') return String(value)
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
        throw new MixscopeError(`index: row ${i} (${row.path}) has ${name} ${JSON.stringify(value)}, expected an integer`, 'bad-index-row', 'data')
      }
      return kind === 'int64' ? BigInt(value) : value
    })
    // a column without a null is written REQUIRED: readers then skip its definition levels (hyparquet rebuilds an
    // OPTIONAL column value by value, a third of decoding the index at 100,000 files); `nullable` says what may be null
    return { name, data, type: basicType[kind], nullable: nullable && data.includes(null) }
  })
  const buffer = parquetWriteBuffer({
    columnData,
    kvMetadata: [{ key: indexVersionKey, value: indexVersion }, ...Object.entries(options.metadata ?? {}).map(([key, value]) => ({ key, value }))],
    rowGroupSize: options.rowGroupSize ?? 100_000,
    createdBy: 'mixscope index (hyparquet-writer)',
  })
  return new Uint8Array(buffer)
}

/**
 * `writeIndex` with the summary of the rows in the metadata: what every writer of a dataset's index (the CLI, the
 * browser, `merge`) calls, so the same rows give the same bytes whichever wrote them.
 */
export function writeDatasetIndex(rows: readonly IndexRow[], options: WriteIndexOptions = {}): Uint8Array {
  return writeIndex(rows, { ...options, metadata: { [indexSummaryKey]: encodeIndexSummary(summarizeIndexRows(rows)), ...options.metadata } })
}
