/**
 * The dataset index file `_mixscope_index.parquet` (docs/conventions.md "Dataset index"): one row per (file, row
 * group), a single row with a null `row_group` for a file without a readable row group (a TSV, another non-parquet
 * file, an unreadable or empty parquet file), rows in the order of docs/conventions.md "Discovery". A plain parquet
 * file (written with hyparquet-writer, write.ts) that DuckDB, pyarrow or polars query as they would any other; this
 * module describes and reads it and knows nothing of datasets.
 */
import { parquetMetadata, parquetRead } from 'hyparquet'
import { boundedCompressors as compressors } from '../parquet/bounded-compressors.ts'
import { MixscopeError } from '../core/findings.ts'
import { fastStringParsers, releaseStringCache } from '../parquet/strings.ts'

/** The index's file name in the dataset root (the leading `_` keeps the reference from reading it). */
export { indexFileName } from '../source/index-file-name.ts'

/** Key-value metadata key and value that mark the format (docs/conventions.md "Dataset index"). */
export const indexVersionKey = 'mixscope.index.version'
export const indexVersion = '1'

/**
 * One row of the index. Numbers are plain numbers (INT64 columns converted from BigInt; exact below 2^53).
 * The first nine columns are the ones docs/conventions.md "Dataset index" requires; the rest are mixscope's own.
 */
export interface IndexRow {
  /** As in docs/conventions.md "example id": relative, `/`-separated, raw segments. */
  path: string
  /** Bytes. */
  size: number
  /** Last modification in whole ms since the epoch, `null` when the builder could not see it (an HTTP root). */
  mtime_ms: number | null
  /** 0-based row group, `null` for a file without a readable row group. */
  row_group: number | null
  /** Rows of the row group (0 for a parquet file without row groups, `null` for a file that is not readable parquet). */
  rows: number | null
  /** Σ, min and max of the finite, non-null `audio_size` values; `null` when not read or not exact integers. */
  audio_size_sum: number | null
  audio_size_min: number | null
  audio_size_max: number | null
  /** Why the footer could not be read (the `unreadable-parquet` message), `null` when it was read without trouble. */
  error: string | null
  /** Index of the row group's first row in the file. */
  first_row: number | null
  /** Σ `total_compressed_size` of the row group's column chunks (what `--shard` balances). */
  compressed_bytes: number | null
  /** Null `audio_size` values in the row group. */
  audio_size_nulls: number | null
  /** Why the row group's `audio_size` could not be read (the `unreadable-row-group` message), else `null`. */
  read_error: string | null
  /**
   * Why the numbers of this row are not all `stats` needs, so it reads the file itself (split, language or corpus
   * held as columns; an `audio_size` that is not an exact integer column); `null` when they are.
   */
  needs_read: string | null
  /** Partition folder id (every hive key as `key=value`, sorted by key, values decoded); `null` for non-parquet files. */
  partition: string | null
  /** The `corpus`, `split` and `language` folder keys (decoded), `null` when the path has no such folder. */
  corpus: string | null
  split: string | null
  language: string | null
  /** The file's top-level columns as JSON `[[name, type, nullable], …]` (types as `stats` names them), `null` when unknown. */
  columns: string | null
}

export type ColumnKind = 'string' | 'int64' | 'int32'

/** Every column, in file order, with its parquet type and whether it may be null. */
export const indexColumns: readonly { name: keyof IndexRow; kind: ColumnKind; nullable: boolean }[] = [
  { name: 'path', kind: 'string', nullable: false },
  { name: 'size', kind: 'int64', nullable: false },
  { name: 'mtime_ms', kind: 'int64', nullable: true },
  { name: 'row_group', kind: 'int32', nullable: true },
  { name: 'rows', kind: 'int64', nullable: true },
  { name: 'audio_size_sum', kind: 'int64', nullable: true },
  { name: 'audio_size_min', kind: 'int64', nullable: true },
  { name: 'audio_size_max', kind: 'int64', nullable: true },
  { name: 'error', kind: 'string', nullable: true },
  { name: 'first_row', kind: 'int64', nullable: true },
  { name: 'compressed_bytes', kind: 'int64', nullable: true },
  { name: 'audio_size_nulls', kind: 'int64', nullable: true },
  { name: 'read_error', kind: 'string', nullable: true },
  { name: 'needs_read', kind: 'string', nullable: true },
  { name: 'partition', kind: 'string', nullable: true },
  { name: 'corpus', kind: 'string', nullable: true },
  { name: 'split', kind: 'string', nullable: true },
  { name: 'language', kind: 'string', nullable: true },
  { name: 'columns', kind: 'string', nullable: true },
]

/** What `readIndex` returns: the rows and the file's key-value metadata. */
export interface ReadIndex {
  rows: IndexRow[]
  metadata: Record<string, string>
}

/**
 * The columns that repeat what the path says (the partition id and the corpus/split/language folder keys): written for
 * readers of the file (DuckDB, pyarrow), and left unread by an open, which takes the keys from the path as discovery
 * always does (a fifth of the decoding at 100,000 files).
 */
export const pathDerivedColumns: readonly (keyof IndexRow)[] = ['partition', 'corpus', 'split', 'language']

/** Options of `readIndex`. */
export interface ReadIndexOptions {
  /** Do not decode `pathDerivedColumns` (still required to exist); they read as `null`. */
  skipPathDerived?: boolean
  /** Called with the key-value metadata once the footer is read and its version checked, before any row is decoded. */
  onMetadata?: (metadata: Record<string, string>) => void
}

/**
 * Parses index bytes.
 * @param where shown in errors (a path or URL)
 * @throws MixscopeError `bad-index` naming what is wrong: not parquet, another version, a missing column
 */
export async function readIndex(bytes: Uint8Array, where: string, options: ReadIndexOptions = {}): Promise<ReadIndex> {
  const fail = (what: string) => new MixscopeError(`index: ${where} ${what}`, 'bad-index', 'data')
  // a copy unless the bytes own their whole buffer (a Node Buffer's `slice` is a view into a shared pool)
  const buffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? bytes.buffer : Uint8Array.prototype.slice.call(bytes).buffer as ArrayBuffer
  let meta
  try {
    meta = parquetMetadata(buffer)
  } catch (error) {
    throw fail(`is not a readable parquet file (${(error as Error).message})`)
  }
  const metadata: Record<string, string> = {}
  for (const kv of meta.key_value_metadata ?? []) metadata[kv.key] = kv.value ?? ''
  if (metadata[indexVersionKey] !== indexVersion) {
    throw fail(`has ${indexVersionKey} ${JSON.stringify(metadata[indexVersionKey] ?? null)}, expected "${indexVersion}"`)
  }
  const present = new Set(meta.schema.slice(1).map((e) => e.name))
  const missing = indexColumns.filter((c) => !present.has(c.name))
  if (missing.length > 0) throw fail(`lacks column${missing.length > 1 ? 's' : ''} ${missing.map((c) => c.name).join(', ')}`)
  options.onMetadata?.(metadata)
  // a footer's counts are claims: checked against the bytes present before any row is allocated (an index of 1 KB
  // claiming 2·10⁸ rows would otherwise grow to gigabytes). Every row's path is distinct, so a row takes at least one
  // byte of the file however it is encoded.
  const n = Number(meta.num_rows)
  const groupRows = meta.row_groups.reduce((sum, g) => sum + Number(g.num_rows), 0)
  if (!Number.isSafeInteger(n) || n < 0 || n > buffer.byteLength) {
    throw fail(`claims ${meta.num_rows} rows in ${buffer.byteLength} bytes; an index row takes at least one byte`)
  }
  if (groupRows !== n) throw fail(`claims ${meta.num_rows} rows, but its row groups hold ${groupRows}`)
  const read = options.skipPathDerived ? indexColumns.filter((c) => !pathDerivedColumns.includes(c.name)) : indexColumns
  // each column's decoded chunks (hyparquet's arrays, in row order), normalized below in one pass into one array
  const chunks = new Map<string, { rowStart: number; data: ArrayLike<unknown> }[]>(indexColumns.map((c) => [c.name, []]))
  try {
    await parquetRead({
      file: { byteLength: buffer.byteLength, slice: (start: number, end?: number) => buffer.slice(start, end) },
      metadata: meta,
      columns: read.map((c) => c.name),
      parsers: fastStringParsers,
      compressors, // hysnappy (WebAssembly) is faster than hyparquet's own snappy on the index's pages
      onChunk: ({ columnName, columnData, rowStart }) => chunks.get(columnName)?.push({ rowStart, data: columnData }),
    })
  } catch (error) {
    throw fail(`does not decode (${(error as Error).message})`)
  } finally {
    releaseStringCache()
  }
  // checked and normalized column by column (each loop sees one type), then rows made with one literal shape: at
  // 100,000 files, rows built key by key cost the open several hundred ms, mostly in the garbage collector
  const columns = new Map<string, unknown[]>()
  for (const { name, kind, nullable } of indexColumns) {
    const values = new Array<unknown>(n).fill(null)
    let covered = 0
    for (const { rowStart, data } of chunks.get(name)!) {
      const end = Math.min(n, rowStart + data.length)
      for (let i = rowStart; i < end; i++) {
        const v = data[i - rowStart]
        if (v === null || v === undefined) continue
        if (kind === 'string') {
          if (typeof v !== 'string') throw fail(`row ${i} has ${name} of type ${typeof v}, expected a string`)
          values[i] = v
        } else {
          const num = typeof v === 'bigint' ? Number(v) : v
          if (typeof num !== 'number' || !Number.isSafeInteger(num)) throw fail(`row ${i} has ${name} ${String(v)}, expected an integer`)
          values[i] = num
        }
      }
      covered += end - rowStart
    }
    if (!nullable) {
      if (covered < n) throw fail(`row ${covered} has no ${name}`)
      const missing = values.indexOf(null)
      if (missing >= 0) throw fail(`row ${missing} has no ${name}`)
    }
    columns.set(name, values)
  }
  const c = Object.fromEntries(columns) as { [K in keyof IndexRow]: IndexRow[K][] }
  const rows: IndexRow[] = new Array(n)
  for (let i = 0; i < n; i++) {
    rows[i] = {
      path: c.path[i], size: c.size[i], mtime_ms: c.mtime_ms[i], row_group: c.row_group[i], rows: c.rows[i],
      audio_size_sum: c.audio_size_sum[i], audio_size_min: c.audio_size_min[i], audio_size_max: c.audio_size_max[i],
      error: c.error[i], first_row: c.first_row[i], compressed_bytes: c.compressed_bytes[i], audio_size_nulls: c.audio_size_nulls[i],
      read_error: c.read_error[i], needs_read: c.needs_read[i], partition: c.partition[i], corpus: c.corpus[i], split: c.split[i],
      language: c.language[i], columns: c.columns[i],
    }
  }
  return { rows, metadata }
}
