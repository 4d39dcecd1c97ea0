/**
 * Row-scale benchmark datasets: `<MIXSCOPE_BENCH_DATA or bench/.cache>/rows-<rows>/version=0` with 10⁶, 10⁷ or 10⁸
 * rows of tiny audio payloads, the shape of Omnilingual's labelled corpus at the row level: 1,600 languages drawn
 * Zipf-skewed (the head language holds ~13 % of the rows, the tail a few rows each), 4 corpora, splits 90 / 5 / 5 %
 * train / dev / test, 5–15 s per utterance (`audio_size` 80,000–240,000 samples), unique transcripts except one row
 * in 50,000 that reads one of 100 shared sentences (`shared sentence number K`: the same sentence in other languages
 * or splits, rarely a leak) and one planted leak pair per 100,000 rows (a train row and a held-out row of the same
 * language whose transcripts differ only in case and spaces): the leakage the audit must find, with DuckDB's answer
 * as ground truth. `audio_bytes` is a
 * 76-byte WAV of 16 silent samples (the metadata passes never decode it). `language_distribution_0.tsv` beside the
 * root holds the exact train hours per (corpus, language), as the dataprep writes it.
 *
 * Written by DuckDB in one `COPY … PARTITION_BY (corpus, split, language)` (`part-N.parquet` per partition folder,
 * rows in id order, row groups of at least 100 rows as DuckDB rounds them); every column is a function of the row id `i` through
 * DuckDB's `hash`, so a size is the same on every machine running the pinned DuckDB. Built once: a marker records the
 * result and later calls return it. 10⁷ rows take a few minutes and ~0.8 GB on two cores; 10⁸ about ten times that.
 * Run: `npx tsx bench/make-rows.ts 1000000 10000000`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { languageCount } from './make-scale.ts'

/** The row counts `npm run bench -- rows` measures by default (10⁸ when `MIXSCOPE_BENCH_ROWS` names it). */
export const rowSizes = [1_000_000, 10_000_000] as const

/** What `ensureRowsDataset` returns. */
export interface RowsDataset {
  /** Absolute path of the root (`…/rows-<rows>/version=0`). */
  root: string
  rows: number
  files: number
  /** Bytes of the parquet files. */
  bytes: number
  /** Hours of audio in all (`sum(audio_size) / 16000 / 3600`). */
  /** Hours of train audio (the TSV's sum). */
  hours: number
}

/**
 * Where the datasets live: `MIXSCOPE_BENCH_DATA` (outside the repository), else `bench/.cache`; `rows-v2-<rows>`
 * since the planted leak pairs (a `rows-<rows>` folder holds the first generator's rows and is not read).
 */
export function rowsDir(rows: number): string {
  return join(process.env.MIXSCOPE_BENCH_DATA ?? join(import.meta.dirname, '.cache'), `rows-v2-${rows}`)
}

/** One row in this many reads a shared sentence. */
export const sharedEvery = 50_000
/** Distinct shared sentences. */
export const sharedSentences = 100

/** `aaa_Latn`, `aab_Latn`, …: 1,600 distinct Latin-script language-like codes (the transcripts are Latin). */
export function rowsLanguage(rank: number): string {
  const a = 'abcdefghijklmnopqrstuvwxyz'
  return `${a[Math.floor(rank / 676) % 26]}${a[Math.floor(rank / 26) % 26]}${a[rank % 26]}_Latn`
}

/** 16 silent samples as a RIFF/WAVE file (PCM, mono, 16 kHz, 16-bit), in hex. */
const wavHex = (() => {
  const b = Buffer.alloc(44 + 32)
  b.write('RIFF', 0); b.writeUInt32LE(36 + 32, 4); b.write('WAVE', 8); b.write('fmt ', 12)
  b.writeUInt32LE(16, 16); b.writeUInt16LE(1, 20); b.writeUInt16LE(1, 22); b.writeUInt32LE(16_000, 24)
  b.writeUInt32LE(32_000, 28); b.writeUInt16LE(2, 32); b.writeUInt16LE(16, 34); b.write('data', 36); b.writeUInt32LE(32, 40)
  return b.toString('hex')
})()

/** A uniform draw in [0, 1) from row id `id` (SQL) and a salt, as DuckDB SQL. */
const uniform = (salt: number, id = 'i') => `((hash((${id}) * 7919 + ${salt}) % 1000000007)::DOUBLE / 1000000007.0)`

/** One planted leak pair per this many rows (10 at 10⁶, 100 at 10⁷, 1,000 at 10⁸). */
export const plantEvery = 100_000
/** The pair's rows: `i % plantEvery` is this for the train row and one more for its held-out copy. */
const plantOffset = 11

/**
 * The generated table over `range(rows) t(i)`, as SQL: the language's rank r in 0..1599 with P(r) ∝ ln((r+2)/(r+1))
 * (Zipf with exponent 1 through the inverse CDF `floor(exp(u · ln 1601)) − 1`), the language code from a lookup
 * table `langs(rank, language)`. Planted leaks: rows `k · plantEvery + 11` (train) and `+ 12` (dev for even k, test
 * for odd) share a language (drawn from the first one's id) and read `Planted leak k` and `  PLANTED   leak k `, equal
 * once normalized (lower case, whitespace runs collapsed, trimmed). Sorted on (corpus, split, language, id) with only
 * the keys and `audio_size` carried; the transcript and the audio bytes are computed after the sort.
 */
export function rowsSql(rows: number): string {
  const within = `i % ${plantEvery}`
  const planted = `(${within} IN (${plantOffset}, ${plantOffset + 1}))`
  const rankId = `CASE WHEN ${planted} THEN i - ${within} + ${plantOffset} ELSE i END`
  const rank = `least(${languageCount - 1}, floor(exp(${uniform(1, rankId)} * ln(${languageCount + 1})))::INTEGER - 1)`
  const split = `CASE WHEN ${within} = ${plantOffset} THEN 'train' WHEN ${within} = ${plantOffset + 1} THEN ` +
    `(CASE WHEN (i // ${plantEvery}) % 2 = 0 THEN 'dev' ELSE 'test' END) ` +
    `WHEN ${uniform(2)} < 0.9 THEN 'train' WHEN ${uniform(3)} < 0.5 THEN 'dev' ELSE 'test' END`
  const corpus = `['mls', 'commonvoice', 'fleurs', 'bible'][1 + (hash(i * 104729 + 4) % 4)::INTEGER]`
  const text = `CASE WHEN ${within} = ${plantOffset} THEN 'Planted leak ' || (i // ${plantEvery}) ` +
    `WHEN ${within} = ${plantOffset + 1} THEN '  PLANTED   leak ' || (i // ${plantEvery}) || ' ' ` +
    `WHEN i % ${sharedEvery} = 7 THEN 'shared sentence number ' || ((i // ${sharedEvery}) % ${sharedSentences}) ` +
    `ELSE 'utterance ' || i || ' reads ' || ['the', 'a', 'one', 'every'][1 + (hash(i + 5) % 4)::INTEGER] || ' ' || ` +
    `['river', 'market', 'teacher', 'harvest', 'window', 'letter'][1 + (hash(i + 6) % 6)::INTEGER] || ' of ' || (hash(i + 7) % 100000) END`
  // RIFF/WAVE, PCM mono 16 kHz 16-bit, 32 bytes of silence
  const wav = `from_hex('${wavHex}')`
  const keys = `SELECT i, ${corpus} AS corpus, ${split} AS split, langs.language AS language, (80000 + hash(i + 8) % 160001)::BIGINT AS audio_size ` +
    `FROM range(${rows}) t(i) JOIN langs ON langs.rank = ${rank}`
  return `SELECT corpus, split, language, ${text} AS text, ${wav} AS audio_bytes, audio_size ` +
    `FROM (${keys} ORDER BY corpus, split, language, i)`
}

async function build(rows: number): Promise<RowsDataset> {
  const started = Date.now()
  const dir = rowsDir(rows)
  const staging = `${dir}.partial`
  rmSync(staging, { recursive: true, force: true })
  const root = join(staging, 'version=0')
  mkdirSync(root, { recursive: true })
  const db = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: '4GB', preserve_insertion_order: 'true', temp_directory: join(staging, 'duckdb.tmp') })
  const conn = await db.connect()
  await conn.run(`CREATE TABLE langs AS SELECT * FROM (VALUES ${Array.from({ length: languageCount }, (_, r) => `(${r}, '${rowsLanguage(r)}')`).join(', ')}) v(rank, language)`)
  await conn.run(`COPY (${rowsSql(rows)}) ` +
    `TO '${root}' (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (corpus, split, language), ROW_GROUP_SIZE 100, FILENAME_PATTERN 'part-{i}', OVERWRITE_OR_IGNORE)`)
  const hours = await conn.runAndReadAll(`SELECT corpus, language, sum(audio_size) / 16000 / 3600 AS hours, count(*) AS n FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true) WHERE split = 'train' GROUP BY ALL ORDER BY ALL`)
  const lines = hours.getRowObjects().map((r) => `${r.corpus}\t${r.language}\t${Number(r.hours)}`)
  writeFileSync(join(staging, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\n' + lines.join('\n') + '\n')
  const files = await conn.runAndReadAll(`SELECT count(*) AS files, sum(size) AS bytes FROM (SELECT DISTINCT file_name, 0 AS size FROM parquet_metadata('${root}/**/*.parquet'))`)
  const f = files.getRowObjects()[0]
  const bytes = (await conn.runAndReadAll(`SELECT sum(total_compressed_size) AS b FROM parquet_metadata('${root}/**/*.parquet')`)).getRowObjects()[0]
  const result = {
    rows,
    files: Number(f.files),
    bytes: Number(bytes.b),
    hours: hours.getRowObjects().reduce((t, r) => t + Number(r.hours), 0),
    seconds: (Date.now() - started) / 1000,
  }
  conn.closeSync()
  rmSync(join(staging, 'duckdb.tmp'), { recursive: true, force: true })
  writeFileSync(join(staging, '.complete.json'), JSON.stringify(result) + '\n')
  rmSync(dir, { recursive: true, force: true })
  renameSync(staging, dir)
  return { root: join(dir, 'version=0'), ...result }
}

/** Builds the dataset of `rows` rows unless its marker says it is complete; returns where it is and its size. */
export async function ensureRowsDataset(rows: number): Promise<RowsDataset> {
  const marker = join(rowsDir(rows), '.complete.json')
  if (existsSync(marker)) {
    const m = JSON.parse(readFileSync(marker, 'utf8')) as Omit<RowsDataset, 'root'>
    return { root: join(rowsDir(rows), 'version=0'), rows: m.rows, files: m.files, bytes: m.bytes, hours: m.hours }
  }
  process.stderr.write(`make-rows: writing ${rows} rows into ${rowsDir(rows)} (once)…\n`)
  return build(rows)
}

if (import.meta.filename === process.argv[1]) {
  for (const arg of process.argv.slice(2).length > 0 ? process.argv.slice(2) : rowSizes.map(String)) {
    const started = Date.now()
    const d = await ensureRowsDataset(Number(arg))
    console.log(`make-rows: ${d.rows} rows, ${d.files} files, ${d.hours.toFixed(0)} h, ${(d.bytes / 1e6).toFixed(1)} MB at ${d.root} ` +
      `(${((Date.now() - started) / 1000).toFixed(1)} s)`)
  }
}
