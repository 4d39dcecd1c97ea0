/**
 * `npm run bench -- rows`: the CLI at row scale. For 10⁶ and 10⁷ rows (`MIXSCOPE_BENCH_ROWS=1e6,1e7,1e8` adds 10⁸
 * when the disk has room) it runs `stats`, `index`, `validate`, `audit --no-audio-check`, `batches --max-batches 5`
 * on the row-scale dataset of that size (bench/make-rows.ts: 1,600 Zipf languages, tiny audio, planted leak pairs)
 * the Examples view's streamed transcript search (bench/text-scan-run.ts, its match count against DuckDB's `LIKE`)
 * and `prepare --dry-run` on a NeMo manifest of that size (bench/prepare-plan.bench.ts), each as a child under GNU
 * time (`/usr/bin/time -v`: wall seconds, peak RSS), with ns per row and DuckDB's time for the equivalent
 * aggregation on the same files in the same run (1 thread, as the commands compute on one): rows and Σ audio_size
 * per partition (stats), the footers' row groups (index), per file rows, nulls and empty audio (validate), rows per
 * split × language × normalized-transcript hash (audit; its leakage rows must equal DuckDB's, column `check`), rows
 * and Σ duration per corpus × split × language of the manifest (prepare); the leakage truth (a string join, the
 * slowest query) runs up to `MIXSCOPE_BENCH_ROWS_TRUTH` rows (default 10⁷); `MIXSCOPE_BENCH_ROWS_COMMANDS` (a comma list
 * of stats, index, validate, audit, search, batches, prepare) measures only those. `batches` has no DuckDB
 * counterpart; its targets are absolute. Targets (`target`): peak RSS ≤ 2 GB for every command (batches, the search and prepare ≤ 1 GB),
 * batches ≤ 10 s up to 10⁷ rows (the issue's size for it: at 10⁸ the generated row groups hold 3.5× the rows on
 * average, 1,585 against 454, and each partition drawn reads its first row group), the audit ≤ 2× DuckDB's grouping; at 10⁸, ns/row within 1.5×
 * of 10⁶ (column `vs 10⁶`).
 * Datasets are built on first use into `$MIXSCOPE_BENCH_DATA`, else `bench/.cache`.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { duckdbLeakage, leakageRows, normalizedSql } from './audit-rows.ts'
import { ensureRowsDataset, rowsDir, rowSizes } from './make-rows.ts'
import { ensureManifest } from './prepare-plan.bench.ts'
import type { BenchRow } from './table.ts'

const bin = join(import.meta.dirname, '..', 'bin', 'mixscope.js')
/** The CLI's loader hooks (tsx and `?raw` WGSL imports), for a TypeScript child that imports the engine. */
const loaders = join(import.meta.dirname, '..', 'src', 'cli', 'lib', 'loaders.mjs')
const gnuTime = '/usr/bin/time'

/** One command's run: wall seconds, peak RSS, exit code and where its stdout went. */
interface Timed { seconds: number; rssMB: number; status: number | null; signal: string | null; stdout: string; stderr: string }

/** `mixscope <args>` under GNU time, stdout into `out` (a file, since an audit's JSON outgrows a pipe buffer). */
function timed(args: string[], out: string): Timed {
  return timedNode([bin, ...args], out)
}

/** `node <args>` under GNU time, stdout into `out`. */
function timedNode(args: string[], out: string): Timed {
  const r = spawnSync('/bin/sh', ['-c', `exec "$@" > '${out}'`, 'sh', gnuTime, '-v', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 })
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr)
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)
  const exit = /Exit status: (\d+)/.exec(r.stderr)
  const killed = /Command terminated by signal (\d+)/.exec(r.stderr)
  return {
    seconds: wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : NaN,
    rssMB: kb ? Number(kb[1]) / 1024 : NaN,
    status: exit ? Number(exit[1]) : r.status, signal: killed ? `signal ${killed[1]}` : null, stdout: out,
    stderr: r.stderr.split('\n').filter((l) => !/^\t/.test(l) && !l.startsWith('Command exited')).join('\n').slice(-1500),
  }
}

/** Seconds DuckDB (one thread) takes for `sql`, and its first row. */
async function duck(sql: string): Promise<{ seconds: number; row: Record<string, unknown> }> {
  const db = await DuckDBInstance.create(':memory:', { threads: '1' })
  const c = await db.connect()
  const started = performance.now()
  const rows = (await c.runAndReadAll(sql)).getRowObjectsJS()
  const seconds = (performance.now() - started) / 1000
  c.closeSync()
  return { seconds, row: rows[0] ?? {} }
}

/** The sizes to measure, and why any asked for is skipped. */
function sizesWanted(): { sizes: number[]; skipped: string[] } {
  const asked = process.env.MIXSCOPE_BENCH_ROWS?.split(',').map(Number) ?? [...rowSizes]
  const skipped: string[] = []
  if (!process.env.MIXSCOPE_BENCH_ROWS) skipped.push('10⁸ rows not asked for (MIXSCOPE_BENCH_ROWS=1e6,1e7,1e8 measures it)')
  const sizes = asked.filter((n) => {
    if (!Number.isInteger(n) || n <= 0) throw new Error(`bench rows: MIXSCOPE_BENCH_ROWS holds ${n}, not a row count`)
    // per row: ~15 bytes of parquet, ~170 bytes of NeMo manifest, ~60 bytes of DuckDB's sort spill while building
    const need = existsSync(join(rowsDir(n), '.complete.json')) ? n * 170 : n * 250
    const dir = process.env.MIXSCOPE_BENCH_DATA ?? join(import.meta.dirname, '.cache')
    const free = (() => { try { const s = statfsSync(existsSync(dir) ? dir : import.meta.dirname); return s.bavail * s.bsize } catch { return Infinity } })()
    if (n > 10_000_000 && free < need * 1.2) {
      skipped.push(`${n} rows skipped: ${(free / 1e9).toFixed(0)} GB free, ~${(need * 1.2 / 1e9).toFixed(0)} GB needed`)
      return false
    }
    return true
  })
  return { sizes, skipped }
}

export async function runRowsBench(): Promise<BenchRow[]> {
  if (!existsSync(gnuTime)) throw new Error(`bench rows: needs GNU time at ${gnuTime} (Debian: apt-get install time)`)
  const { sizes, skipped } = sizesWanted()
  const rows: BenchRow[] = []
  const perRow = new Map<string, number>()
  // MIXSCOPE_BENCH_ROWS_COMMANDS=audit,stats,… measures only those (stats, index, validate, audit, search, batches, prepare)
  const only = process.env.MIXSCOPE_BENCH_ROWS_COMMANDS?.split(',').map((c) => c.trim()).filter(Boolean)
  const known = ['stats', 'index', 'validate', 'audit', 'search', 'batches', 'prepare']
  for (const c of only ?? []) if (!known.includes(c)) throw new Error(`bench rows: MIXSCOPE_BENCH_ROWS_COMMANDS names ${c}, not one of ${known.join(', ')}`)
  const wanted = (command: string) => !only || only.includes(command)
  const tmp = mkdtempSync(join(tmpdir(), 'mixscope-bench-rows-'))
  try {
    for (const n of sizes) {
      const data = await ensureRowsDataset(n)
      const manifest = await ensureManifest(n)
      const { root } = data
      const files = `read_parquet('${root}/**/*.parquet', hive_partitioning = true)`
      const out = join(tmp, 'out')
      const step = (label: string) => process.stderr.write(`bench rows: ${n} rows, ${label}…\n`)
      const add = (command: string, t: Timed, duckdbS: number | undefined, target: string, check = '') => {
        const failed = t.signal ?? (t.status !== 0 && t.status !== 1 ? `exit ${t.status}` : null)
        const ns = (t.seconds * 1e9) / n
        if (n === 1_000_000) perRow.set(command, ns)
        const base = perRow.get(command)
        const scales = base === undefined || n < 100_000_000 || ns <= 1.5 * base
        rows.push({
          benchmark: command, rows: n, 'wall s': t.seconds, 'peak RSS MB': Math.round(t.rssMB), 'ns/row': Math.round(ns),
          'vs 10⁶': base !== undefined && n !== 1_000_000 ? ns / base : '',
          'DuckDB s': duckdbS ?? '', 'ratio': duckdbS ? t.seconds / duckdbS : '',
          target: failed ? `FAILED (${failed})` : scales ? target : `${target}, ns/row MISSED`, check,
        })
        if (failed) process.stderr.write(`bench rows: ${command} at ${n} rows failed (${failed}):\n${t.stderr}\n`)
      }
      const within = (t: Timed, mb: number, extra = true) => (t.rssMB <= mb && extra ? 'met' : 'MISSED')

      if (wanted('stats')) {
        step('stats')
        const stats = timed(['stats', root, '--json'], out)
        const statsDuck = await duck(`SELECT count(*) AS groups FROM (SELECT corpus, split, language, count(*), sum(audio_size) FROM ${files} GROUP BY ALL)`)
        add('stats', stats, statsDuck.seconds, within(stats, 2048))
      }
      if (wanted('index')) {
        step('index')
        const index = timed(['index', root, '--out', join(tmp, 'index.parquet'), '--json'], out)
        rmSync(join(tmp, 'index.parquet'), { force: true })
        const indexDuck = await duck(`SELECT count(*) AS row_groups, sum(row_group_num_rows) AS rows FROM parquet_metadata('${root}/**/*.parquet') WHERE path_in_schema = 'audio_size'`)
        add('index', index, indexDuck.seconds, within(index, 2048))
      }
      if (wanted('validate')) {
        step('validate')
        const validate = timed(['validate', root, '--json'], out)
        const validateDuck = await duck(`SELECT count(*) AS files FROM (SELECT filename, count(*), count(*) FILTER (audio_bytes IS NULL OR octet_length(audio_bytes) = 0), ` +
          `count(*) FILTER (text IS NULL), count(*) FILTER (audio_size IS NULL) FROM read_parquet('${root}/**/*.parquet', filename = true) GROUP BY ALL)`)
        add('validate', validate, validateDuck.seconds, within(validate, 2048))
      }
      if (wanted('audit')) {
        step('audit --no-audio-check')
        // every finding to a file: the --json report lists at most 1,000 of a kind (10⁸ rows have more leakage rows)
        const findings = join(tmp, 'findings.jsonl')
        const audit = timed(['audit', root, '--no-audio-check', '--json', '--findings', findings], out)
        const grouping = await duck(`SELECT count(*) AS groups FROM (SELECT split, language, hash(${normalizedSql}) AS h, count(*) AS n FROM ${files} GROUP BY ALL)`)
        let check = ''
        const truthMax = Number(process.env.MIXSCOPE_BENCH_ROWS_TRUTH ?? 10_000_000)
        if (n > truthMax) check = `leakage truth skipped above ${truthMax} rows (MIXSCOPE_BENCH_ROWS_TRUTH)`
        else if (existsSync(out) && audit.status !== null && audit.status <= 1) {
          const ours = await leakageRows(findings)
          step('DuckDB leakage')
          const truth = await duckdbLeakage(root, 1)
          const same = truth.ids.length === ours.length && truth.ids.every((id, i) => id === ours[i])
          check = `leakage ${ours.length} ${same ? '=' : '≠'} DuckDB ${truth.ids.length} (${truth.seconds.toFixed(0)} s)`
        }
        rmSync(findings, { force: true })
        add('audit --no-audio-check', audit, grouping.seconds, within(audit, 2048, audit.seconds <= 2 * grouping.seconds), check)
      }
      if (wanted('search')) {
        step('text search (streamed)')
        // the Examples view's search above 2·10⁶ rows: one word in 1 of 6 rows (past the 10⁶ listed positions at 10⁷)
        const search = timedNode(['--import', loaders, join(import.meta.dirname, 'text-scan-run.ts'), root, 'harvest'], out)
        const found = existsSync(out) && search.status === 0 ? JSON.parse(readFileSync(out, 'utf8')) as { matches: number; listed: number } : null
        const searchDuck = await duck(`SELECT count(*) AS n FROM ${files} WHERE lower(text) LIKE '%harvest%'`)
        add('text search (streamed)', search, searchDuck.seconds, within(search, 1024),
          found ? `${found.matches} ${found.matches === Number(searchDuck.row.n) ? '=' : '≠'} DuckDB ${Number(searchDuck.row.n)}, ${found.listed} listed` : '')
      }
      if (wanted('batches')) {
        step('batches --max-batches 5')
        const batches = timed(['batches', root, '--split', 'train', '--preset', 'ctc-finetune', '--max-batches', '5', '--jsonl'], out)
        const planned = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean).length : 0
        add('batches --max-batches 5', batches, undefined, within(batches, 1024, n > 10_000_000 || batches.seconds <= 10), `${planned} batches`)
      }
      if (wanted('prepare')) {
        step('prepare --dry-run')
        const prepare = timed(['prepare', manifest, '--dry-run', '--json'], out)
        const plannedRows = existsSync(out) && prepare.status === 0 ? (JSON.parse(readFileSync(out, 'utf8')) as { plan: { input_rows: number } }).plan.input_rows : 0
        const prepareDuck = await duck(`SELECT count(*) AS groups FROM (SELECT corpus, split, lang, count(*), sum(duration) FROM read_json('${manifest}', format = 'newline_delimited') GROUP BY ALL)`)
        add('prepare --dry-run', prepare, prepareDuck.seconds, within(prepare, 1024), `${plannedRows} rows planned`)
      }
      rmSync(out, { force: true })
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
  for (const s of skipped) rows.push({ benchmark: s })
  return rows
}
