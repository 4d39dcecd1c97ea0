/**
 * Golden `stats` for a fixture dataset, computed independently of mixscope's reader: files are listed and their
 * hive keys parsed here, every number comes from DuckDB (`parquet_metadata`, `read_parquet`).
 *
 * Rules (docs/conventions.md): paths with a component starting with `.` or `_` are ignored; only `*.parquet` files count;
 * files DuckDB cannot open are left out ("readable files only"); `corpus`/`split`/`language` missing as folder
 * keys are taken from a single-valued column of that name when the file has one; samples = Σ audio_size
 * where audio_size is an integer column (else 0); hours = samples / 16000 / 3600.
 */
import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'

/** One partition folder of the golden. */
export type GoldenPartition = Record<string, string | number | null>

/** The golden document (`<name>.golden.json`). */
export interface Golden {
  /** Dataset root, relative to test/fixtures/parquet. */
  root: string
  partitions: GoldenPartition[]
  totals: { files: number; row_groups: number; rows: number; samples: number; hours: number }
}

const utf8 = new TextEncoder()
/** Compares strings by their UTF-8 bytes. */
export function compareUtf8Bytes(a: string, b: string): number {
  const x = utf8.encode(a)
  const y = utf8.encode(b)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i]
  return x.length - y.length
}

/** Every file under `root`, `/`-separated relative paths, ignored ones dropped. */
export function listDatasetFiles(root: string): string[] {
  const out: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue
      const full = join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else out.push(relative(root, full).split(sep).join('/'))
    }
  }
  walk(root)
  return out.sort(compareUtf8Bytes)
}

/** Hive keys of a relative path's folders, values URI-decoded. */
export function hiveKeys(path: string): Record<string, string> {
  const keys: Record<string, string> = {}
  for (const segment of path.split('/').slice(0, -1)) {
    const eq = segment.indexOf('=')
    if (eq > 0) keys[segment.slice(0, eq)] = decodeURIComponent(segment.slice(eq + 1))
  }
  return keys
}

const q = (s: string): string => `'${s.replaceAll("'", "''")}'`

interface FileStats { keys: Record<string, string | null>; rowGroups: number; rows: number; samples: number }

async function fileStats(conn: DuckDBConnection, root: string, path: string): Promise<FileStats | null> {
  const full = q(join(root, path))
  let meta
  try {
    meta = (await conn.runAndReadAll(`SELECT num_rows, num_row_groups FROM parquet_file_metadata(${full})`)).getRows()[0]
  } catch {
    return null
  }
  const columns = (await conn.runAndReadAll(`SELECT name, type FROM parquet_schema(${full})`)).getRows()
  const types = new Map(columns.map((c) => [String(c[0]), String(c[1])]))
  const keys: Record<string, string | null> = hiveKeys(path)
  for (const name of ['corpus', 'split', 'language']) {
    if (name in keys) continue
    keys[name] = null
    if (!types.has(name)) continue
    const values = (await conn.runAndReadAll(`SELECT DISTINCT "${name}"::VARCHAR FROM read_parquet(${full}, hive_partitioning = false)`)).getRows()
    if (values.length === 1) keys[name] = values[0][0] === null ? null : String(values[0][0])
  }
  let samples = 0
  if (['INT64', 'INT32'].includes(types.get('audio_size') ?? '')) {
    const sum = (await conn.runAndReadAll(`SELECT coalesce(sum(audio_size), 0) FROM read_parquet(${full}, hive_partitioning = false)`)).getRows()[0][0]
    samples = Number(sum)
  }
  return { keys, rowGroups: Number(meta[1]), rows: Number(meta[0]), samples }
}

/** Computes the golden stats of the dataset at `root` (absolute), labelled `label`. */
export async function duckdbGolden(conn: DuckDBConnection, root: string, label: string): Promise<Golden> {
  const stats: FileStats[] = []
  for (const path of listDatasetFiles(root).filter((p) => p.endsWith('.parquet'))) {
    const s = await fileStats(conn, root, path)
    if (s) stats.push(s)
  }
  const keyNames = [...new Set(['corpus', 'language', 'split', ...stats.flatMap((s) => Object.keys(s.keys))])].sort(compareUtf8Bytes)
  const byPath = new Map<string, GoldenPartition>()
  for (const s of stats) {
    const sortPath = keyNames.map((k) => `${k}=${s.keys[k] ?? ''}`).join('/')
    let p = byPath.get(sortPath)
    if (!p) {
      p = Object.fromEntries(keyNames.map((k) => [k, s.keys[k] ?? null]))
      Object.assign(p, { files: 0, row_groups: 0, rows: 0, samples: 0, hours: 0 })
      byPath.set(sortPath, p)
    }
    p.files = (p.files as number) + 1
    p.row_groups = (p.row_groups as number) + s.rowGroups
    p.rows = (p.rows as number) + s.rows
    p.samples = (p.samples as number) + s.samples
    p.hours = (p.samples as number) / 16000 / 3600
  }
  // partitions in order of their first file in UTF-8 path order (docs/conventions.md: the file order defines everything downstream)
  const partitions = [...byPath.values()]
  const sum = (k: string): number => partitions.reduce((t, p) => t + (p[k] as number), 0)
  const samples = sum('samples')
  return {
    root: label,
    partitions,
    totals: { files: sum('files'), row_groups: sum('row_groups'), rows: sum('rows'), samples, hours: samples / 16000 / 3600 },
  }
}
