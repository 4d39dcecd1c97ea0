/**
 * Parquet writing with DuckDB (`@duckdb/node-api`), an independent writer from mixscope's reader.
 * Used by the demo dataset, the test fixtures and the synthetic benchmark.
 *
 * DuckDB's writer flushes a row group once it has buffered ROW_GROUP_SIZE rows, but only at chunk boundaries;
 * feeding it one `UNION ALL` branch per row group on a single thread makes the groups exact.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DuckDBInstance, LIST, TINYINT, listValue } from '@duckdb/node-api'
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api'

/** A column's DuckDB type, as written. */
export type ColumnType = 'VARCHAR' | 'BIGINT' | 'INTEGER' | 'BLOB' | 'TINYINT[]'

/** One column: name, type, one value per row (`null` = SQL NULL). */
export interface Column {
  name: string
  type: ColumnType
  values: (string | number | bigint | Uint8Array | null)[]
}

/** Parquet writer options. */
export interface WriteOptions {
  /** Rows per row group (the last group holds the rest). */
  rowGroupSize: number
  /** DuckDB COMPRESSION value: uncompressed, snappy, gzip, zstd, brotli, lz4, lz4_raw. */
  compression?: string
  /** Footer key-value metadata (e.g. `ARROW:schema`). */
  kvMetadata?: Record<string, string>
}

/** Opens a single-threaded in-memory DuckDB (single thread keeps output and row groups reproducible). */
export async function openDuckDb(threads = 1): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) })
  return instance.connect()
}

function appendValue(appender: DuckDBAppender, column: Column, value: Column['values'][number]): void {
  if (value === null) return appender.appendNull()
  switch (column.type) {
    case 'VARCHAR': return appender.appendVarchar(String(value))
    case 'BIGINT': return appender.appendBigInt(BigInt(value as number | bigint))
    case 'INTEGER': return appender.appendInteger(Number(value))
    case 'BLOB': return appender.appendBlob(value as Uint8Array)
    case 'TINYINT[]': {
      const signed = new Int8Array((value as Uint8Array).buffer, (value as Uint8Array).byteOffset, (value as Uint8Array).byteLength)
      return appender.appendList(listValue(Array.from(signed)), LIST(TINYINT))
    }
  }
}

const sqlString = (s: string): string => `'${s.replaceAll("'", "''")}'`
const sqlName = (s: string): string => `"${s.replaceAll('"', '""')}"`

/**
 * Writes `columns` (all the same length) to the parquet file `path` with exact row groups of `rowGroupSize` rows.
 * Creates parent folders. Throws when DuckDB's row groups come out differently.
 */
export async function writeParquet(conn: DuckDBConnection, path: string, columns: Column[], options: WriteOptions): Promise<void> {
  const rows = columns[0]?.values.length ?? 0
  for (const c of columns) {
    if (c.values.length !== rows) throw new Error(`parquet-write: column "${c.name}" has ${c.values.length} values, expected ${rows}`)
  }
  mkdirSync(dirname(path), { recursive: true })
  await conn.run('DROP TABLE IF EXISTS staging')
  await conn.run(`CREATE TABLE staging (__i INTEGER, ${columns.map((c) => `${sqlName(c.name)} ${c.type}`).join(', ')})`)
  const appender = await conn.createAppender('staging')
  for (let r = 0; r < rows; r++) {
    appender.appendInteger(r)
    for (const c of columns) appendValue(appender, c, c.values[r])
    appender.endRow()
  }
  appender.flushSync()
  appender.closeSync()
  const select = columns.map((c) => sqlName(c.name)).join(', ')
  const branches: string[] = []
  for (let start = 0; start < Math.max(rows, 1); start += options.rowGroupSize) {
    branches.push(`(SELECT ${select} FROM staging WHERE __i >= ${start} AND __i < ${start + options.rowGroupSize} ORDER BY __i)`)
  }
  const kv = options.kvMetadata
    ? `, KV_METADATA {${Object.entries(options.kvMetadata).map(([k, v]) => `${sqlString(k)}: ${sqlString(v)}`).join(', ')}}`
    : ''
  await conn.run(`COPY (${branches.join(' UNION ALL ')}) TO ${sqlString(path)} ` +
    `(FORMAT parquet, COMPRESSION ${options.compression ?? 'snappy'}, ROW_GROUP_SIZE ${options.rowGroupSize}${kv})`)
  const groups = await rowGroupSizes(conn, path)
  const expected = expectedGroups(rows, options.rowGroupSize)
  if (groups.join(',') !== expected.join(',')) {
    throw new Error(`parquet-write: "${path}" has row groups [${groups}], expected [${expected}]`)
  }
}

/** Row counts of a file's row groups, in order (DuckDB `parquet_metadata`). */
export async function rowGroupSizes(conn: DuckDBConnection, path: string): Promise<number[]> {
  const result = await conn.runAndReadAll(
    `SELECT row_group_id, any_value(row_group_num_rows) FROM parquet_metadata(${sqlString(path)}) GROUP BY ALL ORDER BY 1`)
  return result.getRows().map((r) => Number(r[1]))
}

/** Row group sizes DuckDB should produce for `rows` rows. */
export function expectedGroups(rows: number, size: number): number[] {
  const out: number[] = []
  for (let left = rows; left > 0; left -= size) out.push(Math.min(size, left))
  return out
}
