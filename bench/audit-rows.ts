/**
 * The metadata audit at row scale: `mixscope audit <root> --no-audio-check --json` on the row-scale datasets
 * (bench/make-rows.ts), its wall time and peak RSS (GNU time, the child's own), against DuckDB on the same files:
 * the audit's grouping (split × language × normalized-transcript hash) and the leakage it must find (held-out rows
 * whose normalized transcript equals a train row's of the same language), which must be exactly the audit's
 * `transcript-leakage` rows (all of them, from `--findings`). Run: `npx tsx bench/audit-rows.ts 1000000 10000000`
 * (`MIXSCOPE_BENCH_DUCKDB_THREADS=2`: DuckDB with 2 threads only; default 1 and 2).
 */
import { execFileSync } from 'node:child_process'
import { createReadStream, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { DuckDBInstance } from '@duckdb/node-api'
import { ensureRowsDataset } from './make-rows.ts'
import { formatTable, type BenchRow } from './table.ts'

/** The leakage check's normalization (src/engine/audit/checks/leakage.ts) in DuckDB SQL: NFC, lower case, whitespace runs as one space, trimmed. */
export const normalizedSql = `trim(regexp_replace(lower(nfc_normalize(text)), '\\s+', ' ', 'g'))`

/** The rows of `root` with their file (relative to the root), row and hive keys, as DuckDB reads them. */
export function rowsSqlOf(root: string): string {
  return `read_parquet('${root}/**/*.parquet', hive_partitioning = true, filename = true, file_row_number = true)`
}

/**
 * The held-out rows whose normalized transcript equals a train row's of their language, as example ids
 * `<file>:<row>` sorted, and the seconds DuckDB took.
 */
export async function duckdbLeakage(root: string, threads: number): Promise<{ ids: string[]; seconds: number }> {
  const db = await DuckDBInstance.create(':memory:', { threads: String(threads) })
  const c = await db.connect()
  const started = performance.now()
  const rows = (await c.runAndReadAll(`WITH t AS (SELECT filename, file_row_number AS row, split, language, ${normalizedSql} AS n
      FROM ${rowsSqlOf(root)} WHERE text IS NOT NULL AND text <> '')
    SELECT h.filename, h.row FROM t h SEMI JOIN (SELECT DISTINCT language, n FROM t WHERE split = 'train') r
      ON r.language = h.language AND r.n = h.n
    WHERE h.split <> 'train' AND h.n <> ''`)).getRowObjectsJS()
  const seconds = (performance.now() - started) / 1000
  c.closeSync()
  const ids = rows.map((r) => `${String(r.filename).slice(root.length + 1)}:${Number(r.row)}`).sort()
  return { ids, seconds }
}

/** Seconds DuckDB takes for the audit's grouping: rows per split × language × hash of the normalized transcript. */
async function duckdbGrouping(root: string, threads: number): Promise<{ groups: number; seconds: number }> {
  const db = await DuckDBInstance.create(':memory:', { threads: String(threads) })
  const c = await db.connect()
  const started = performance.now()
  const r = (await c.runAndReadAll(`SELECT count(*) AS groups FROM (SELECT split, language, hash(${normalizedSql}) AS h, count(*) AS n
    FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true) GROUP BY ALL)`)).getRowObjectsJS()
  const seconds = (performance.now() - started) / 1000
  c.closeSync()
  return { groups: Number(r[0].groups), seconds }
}

/**
 * The `transcript-leakage` rows (`path:row`, sorted) of an audit's `--findings` file (JSON Lines), read line by line:
 * the file may hold millions of findings, so it is never read whole.
 */
export async function leakageRows(findingsFile: string): Promise<string[]> {
  const leakage: string[] = []
  for await (const line of createInterface({ input: createReadStream(findingsFile), crlfDelay: Infinity })) {
    if (!line.includes('"transcript-leakage"')) continue
    const f = JSON.parse(line) as { kind: string; path: string; row: number | null }
    if (f.kind === 'transcript-leakage') leakage.push(`${f.path}:${f.row}`)
  }
  return leakage.sort()
}

/**
 * Runs the CLI's metadata audit on `root` under GNU time: its `transcript-leakage` rows from every finding
 * (`--findings`: the `--json` report lists at most 1,000 of a kind, and 10⁸ rows have more leakage rows than that),
 * wall seconds and peak RSS (MB).
 */
async function auditCli(root: string): Promise<{ leakage: string[]; seconds: number; rssMb: number }> {
  const all = join(tmpdir(), `mixscope-audit-rows-${process.pid}.jsonl`)
  const timing = join(tmpdir(), `mixscope-audit-rows-${process.pid}.time`)
  const bin = join(import.meta.dirname, '..', 'bin', 'mixscope.js')
  try {
    execFileSync('/bin/sh', ['-c', `/usr/bin/time -f '%e %M' -o '${timing}' '${process.execPath}' '${bin}' audit '${root}' --no-audio-check --json --findings '${all}' > /dev/null`], { stdio: 'inherit' })
    const [seconds, kb] = readFileSync(timing, 'utf8').trim().split(/\s+/).slice(-2).map(Number)
    return { leakage: await leakageRows(all), seconds, rssMb: kb / 1024 }
  } finally {
    rmSync(all, { force: true })
    rmSync(timing, { force: true })
  }
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number)
  const rows: BenchRow[] = []
  for (const n of sizes.length > 0 ? sizes : [1_000_000]) {
    const { root } = await ensureRowsDataset(n)
    const audit = await auditCli(root)
    const ours = audit.leakage
    for (const threads of (process.env.MIXSCOPE_BENCH_DUCKDB_THREADS ?? '1,2').split(',').map(Number)) {
      const truth = await duckdbLeakage(root, threads)
      const grouping = await duckdbGrouping(root, threads)
      const same = truth.ids.length === ours.length && truth.ids.every((id, i) => id === ours[i])
      rows.push({
        benchmark: `audit --no-audio-check, ${n} rows`, audit_s: audit.seconds, peak_rss_mb: audit.rssMb, duckdb_threads: threads,
        duckdb_grouping_s: grouping.seconds, duckdb_leakage_s: truth.seconds, groups: grouping.groups,
        leakage_audit: ours.length, leakage_duckdb: truth.ids.length, same: same ? 'yes' : 'NO',
      })
    }
  }
  process.stdout.write(formatTable(rows) + '\n')
}

if (import.meta.filename === process.argv[1]) await main()
