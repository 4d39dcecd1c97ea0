/** DuckDB as an independent parquet writer and reader for engine tests. */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'

let connection: Promise<DuckDBConnection> | null = null

/** A shared in-memory DuckDB connection. */
export function duck(): Promise<DuckDBConnection> {
  connection ??= DuckDBInstance.create(':memory:', { threads: '1' }).then((db) => db.connect())
  return connection
}

/** Writes the rows of `select` to `path` as parquet (`options` e.g. `ROW_GROUP_SIZE 10, COMPRESSION zstd`). */
export async function writeParquet(path: string, select: string, options = ''): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const c = await duck()
  await c.run(`COPY (${select}) TO '${path.replaceAll("'", "''")}' (FORMAT parquet${options ? `, ${options}` : ''})`)
}

/** Rows of a query as plain objects (BIGINT → Number). */
export async function query(sql: string): Promise<Record<string, unknown>[]> {
  const c = await duck()
  const reader = await c.runAndReadAll(sql)
  return reader.getRowObjectsJS().map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])))
}
