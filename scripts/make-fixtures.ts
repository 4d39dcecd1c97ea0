/**
 * Builds test/fixtures/parquet: tiny hive-partitioned datasets for engine tests, each with a golden
 * `<name>.golden.json` (expected `stats`, derived with DuckDB by scripts/demo-duckdb-stats.ts), and the
 * `broken` dataset with `broken.expected.json` (the problems a validator should find).
 *
 * Run: `npx tsx scripts/make-fixtures.ts`. Deterministic (fixed seed, DuckDB on one thread).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Field, Int64, Int8, LargeList, Schema, Table, Utf8, tableToIPC } from 'apache-arrow'
import type { DuckDBConnection } from '@duckdb/node-api'
import { duckdbGolden } from './demo-duckdb-stats.ts'
import { openDuckDb, writeParquet } from './demo-parquet.ts'
import type { Column, WriteOptions } from './demo-parquet.ts'
import { mulberry32 as makeRng } from '../src/engine/random/mulberry32.ts'

const fixturesDir = join(import.meta.dirname, '..', 'test', 'fixtures', 'parquet')

const rng = makeRng(7)

/** A tiny real WAV: 16 kHz mono 16-bit, `samples` samples of a sine. */
function tinyWav(samples: number): Uint8Array {
  const out = new Uint8Array(44 + samples * 2)
  const view = new DataView(out.buffer)
  const ascii = (offset: number, s: string): void => { for (let i = 0; i < s.length; i++) out[offset + i] = s.charCodeAt(i) }
  ascii(0, 'RIFF'); view.setUint32(4, 36 + samples * 2, true); ascii(8, 'WAVE')
  ascii(12, 'fmt '); view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true)
  view.setUint32(24, 16000, true); view.setUint32(28, 32000, true); view.setUint16(32, 2, true); view.setUint16(34, 16, true)
  ascii(36, 'data'); view.setUint32(40, samples * 2, true)
  const freq = 200 + Math.floor(rng() * 800)
  for (let i = 0; i < samples; i++) view.setInt16(44 + i * 2, Math.round(8000 * Math.sin((2 * Math.PI * freq * i) / 16000)), true)
  return out
}

const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel']

/** Standard rows: text, audio (tiny WAV, payload type chosen), audio_size = the WAV's samples (as declared, not decoded). */
function speechColumns(rows: number, audioType: 'TINYINT[]' | 'BLOB', repeatedText = false): Column[] {
  const sizes = Array.from({ length: rows }, () => 8 + Math.floor(rng() * 40))
  return [
    { name: 'text', type: 'VARCHAR', values: sizes.map((_, i) => (repeatedText ? words[i % 3] : `${words[i % words.length]} ${i}`)) },
    { name: 'audio_bytes', type: audioType, values: sizes.map((n) => tinyWav(n)) },
    // declared length at 16 kHz; bigger than the tiny payload on purpose so hours are not all ~0
    { name: 'audio_size', type: 'BIGINT', values: sizes.map((n) => n * 1000) },
  ]
}

async function write(conn: DuckDBConnection, path: string, columns: Column[], options: WriteOptions): Promise<void> {
  await writeParquet(conn, join(fixturesDir, path), columns, options)
}

function writeText(path: string, text: string | Uint8Array): void {
  mkdirSync(dirname(join(fixturesDir, path)), { recursive: true })
  writeFileSync(join(fixturesDir, path), text)
}

/** `dataprep`: the layout the dataprep writes (corpus/split/language), list<int8>, several row groups, TSV. */
async function makeDataprep(conn: DuckDBConnection): Promise<void> {
  const base = 'dataprep/version=0'
  const plan: [string, string, string, number[]][] = [
    ['mls', 'train', 'eng_Latn', [25, 7]],
    ['mls', 'train', 'fra_Latn', [12]],
    ['mls', 'dev', 'eng_Latn', [7]],
    ['fleurs', 'train', 'swh_Latn', [10, 10, 3]],
    ['fleurs', 'test', 'swh_Latn', [4]],
  ]
  for (const [corpus, split, language, files] of plan) {
    for (const [i, rows] of files.entries()) {
      await write(conn, `${base}/corpus=${corpus}/split=${split}/language=${language}/part-${i}.parquet`,
        speechColumns(rows, 'TINYINT[]'), { rowGroupSize: 10, compression: 'snappy' })
    }
  }
  const golden = await duckdbGolden(conn, join(fixturesDir, base), base)
  const hours = new Map<string, number>()
  for (const p of golden.partitions) hours.set(`${p.corpus}\t${p.language}`, (hours.get(`${p.corpus}\t${p.language}`) ?? 0) + (p.samples as number))
  writeText('dataprep/language_distribution_0.tsv', 'corpus\tlanguage\thours\n' +
    [...hours].map(([k, s]) => `${k}\t${s / 16000 / 3600}`).join('\n') + '\n')
}

/** `key-order`: language=/corpus=/split= folders, binary audio, dictionary strings, one compression codec per file. */
async function makeKeyOrder(conn: DuckDBConnection): Promise<void> {
  const files: [string, string][] = [
    ['language=en/corpus=a/split=train/part-0.parquet', 'uncompressed'],
    ['language=en/corpus=a/split=train/part-1.parquet', 'snappy'],
    ['language=en/corpus=a/split=train/part-2.parquet', 'gzip'],
    ['language=en/corpus=a/split=train/part-3.parquet', 'zstd'],
    ['language=fr/corpus=a/split=train/part-0.parquet', 'brotli'],
    ['language=fr/corpus=read%20speech/split=dev/part-0.parquet', 'lz4'],
    ['language=fr/corpus=read%20speech/split=dev/part-1.parquet', 'lz4_raw'],
  ]
  for (const [path, compression] of files) {
    await write(conn, `key-order/${path}`, speechColumns(14, 'BLOB', true), { rowGroupSize: 5, compression })
  }
  // DuckDB dictionary-encodes strings only in bigger column chunks
  await write(conn, 'key-order/language=en/corpus=a/split=train/part-4.parquet', speechColumns(240, 'BLOB', true), { rowGroupSize: 120 })
}

/** `versions`: a root above version=0 and version=1 (the reference merges them). */
async function makeVersions(conn: DuckDBConnection): Promise<void> {
  for (const [version, rows] of [['0', [11, 4]], ['1', [9]]] as const) {
    for (const [i, n] of rows.entries()) {
      await write(conn, `versions/version=${version}/corpus=mls/split=train/language=eng_Latn/part-${i}.parquet`,
        speechColumns(n, 'TINYINT[]'), { rowGroupSize: 4 })
    }
  }
  await write(conn, 'versions/version=1/corpus=mls/split=dev/language=deu_Latn/part-0.parquet', speechColumns(3, 'TINYINT[]'), { rowGroupSize: 4 })
}

/** The Arrow IPC schema message pyarrow stores as `ARROW:schema` (base64), with audio_bytes as large_list<int8>. */
function largeListArrowSchema(): string {
  const schema = new Schema([
    new Field('text', new Utf8(), true),
    new Field('audio_bytes', new LargeList(new Field('element', new Int8(), true)), true),
    new Field('audio_size', new Int64(), true),
  ])
  const stream = tableToIPC(new Table(schema), 'stream')
  return Buffer.from(stream.subarray(0, stream.length - 8)).toString('base64') // drop the end-of-stream marker
}

/** `large-list`: audio_bytes stored like list<int8> but typed large_list<int8> by the ARROW:schema footer entry. */
async function makeLargeList(conn: DuckDBConnection): Promise<void> {
  await write(conn, 'large-list/version=0/corpus=c/split=train/language=eng_Latn/part-0.parquet', speechColumns(8, 'TINYINT[]'),
    { rowGroupSize: 5, kvMetadata: { 'ARROW:schema': largeListArrowSchema() } })
}

/** `broken`: every problem in one dataset; see test/fixtures/README.md and broken.expected.json. */
async function makeBroken(conn: DuckDBConnection): Promise<void> {
  const base = 'broken/version=0'
  const train = `${base}/corpus=c/split=train`
  const good = speechColumns(6, 'TINYINT[]')
  good[0].values[1] = null // null text
  good[1].values[2] = null // null audio
  good[1].values[3] = new Uint8Array(0) // empty audio_bytes
  await write(conn, `${train}/language=ok_Latn/part-0.parquet`, good, { rowGroupSize: 3 })
  await write(conn, `${train}/language=ok_Latn/part-1.parquet`, speechColumns(20, 'TINYINT[]'), { rowGroupSize: 10 })
  const whole = readFileSync(join(fixturesDir, `${train}/language=ok_Latn/part-1.parquet`))
  writeText(`${train}/language=ok_Latn/part-1.parquet`, whole.subarray(0, Math.floor(whole.length / 2)))
  await write(conn, `${train}/language=ok_Latn/part-2.parquet`, speechColumns(4, 'TINYINT[]'), { rowGroupSize: 4 })
  const footless = readFileSync(join(fixturesDir, `${train}/language=ok_Latn/part-2.parquet`))
  footless.fill(0, footless.length - 4)
  writeText(`${train}/language=ok_Latn/part-2.parquet`, footless)
  writeText(`${train}/language=ok_Latn/notes.txt`, 'Notes from the annotators: re-check the dev split.\n')
  const mismatch = speechColumns(4, 'TINYINT[]')
  mismatch.push({ name: 'language', type: 'VARCHAR', values: mismatch[0].values.map(() => 'other_Latn') })
  await write(conn, `${train}/language=mismatch_Latn/part-0.parquet`, mismatch, { rowGroupSize: 4 })
  await write(conn, `${base}/corpus=c/split=dev/language=ok_Latn/part-0.parquet`, speechColumns(3, 'TINYINT[]').slice(0, 2), { rowGroupSize: 3 })
  const stringSize = speechColumns(3, 'TINYINT[]')
  stringSize[2] = { name: 'audio_size', type: 'VARCHAR', values: stringSize[2].values.map(String) }
  await write(conn, `${base}/corpus=c/split=dev/language=str_Latn/part-0.parquet`, stringSize, { rowGroupSize: 3 })
  await write(conn, `${base}/corpus=c/split=test/language=ok_Latn/part-0.parquet`, speechColumns(0, 'TINYINT[]'), { rowGroupSize: 3 })
  const flat = speechColumns(5, 'TINYINT[]')
  for (const [name, value] of [['corpus', 'c'], ['split', 'train'], ['language', 'flat_Latn']]) {
    flat.push({ name, type: 'VARCHAR', values: flat[0].values.map(() => value) })
  }
  await write(conn, `${base}/flat/part-0.parquet`, flat, { rowGroupSize: 5 })
  writeText(`${base}/_SUCCESS`, '')
  await write(conn, `${base}/.hidden/x.parquet`, speechColumns(2, 'TINYINT[]'), { rowGroupSize: 2 })
  writeText('broken/language_distribution_0.tsv', 'corpus\tlanguage\thours\nc\tok_Latn\t1.5\nc\tnodata_Latn\t0.25\nc\tflat_Latn\t0.00001\n')
  const expected = [
    { path: 'corpus=c/split=train/language=ok_Latn/part-0.parquet', row: 1, problem: 'text is null' },
    { path: 'corpus=c/split=train/language=ok_Latn/part-0.parquet', row: 2, problem: 'audio_bytes is null' },
    { path: 'corpus=c/split=train/language=ok_Latn/part-0.parquet', row: 3, problem: 'audio_bytes is empty (0 bytes)' },
    { path: 'corpus=c/split=train/language=ok_Latn/part-1.parquet', row: null, problem: 'truncated parquet: cut in the middle, no footer (unreadable)' },
    { path: 'corpus=c/split=train/language=ok_Latn/part-2.parquet', row: null, problem: 'no PAR1 footer magic: last 4 bytes are 00 00 00 00 (unreadable)' },
    { path: 'corpus=c/split=train/language=ok_Latn/notes.txt', row: null, problem: 'non-parquet file under the root (the reference fails on it)' },
    { path: 'corpus=c/split=train/language=mismatch_Latn/part-0.parquet', row: null, problem: 'column language = "other_Latn" disagrees with folder key language=mismatch_Latn (folder wins)' },
    { path: 'corpus=c/split=dev/language=ok_Latn/part-0.parquet', row: null, problem: 'column audio_size missing' },
    { path: 'corpus=c/split=dev/language=str_Latn/part-0.parquet', row: null, problem: 'audio_size is a string column (BYTE_ARRAY/UTF8), expected int64' },
    { path: 'corpus=c/split=test/language=ok_Latn/part-0.parquet', row: null, problem: 'parquet file with zero rows (and zero row groups)' },
    { path: 'flat/part-0.parquet', row: null, problem: 'corpus, split and language only as columns, not folder keys (training needs them as folder keys)' },
    { path: '_SUCCESS', row: null, problem: 'ignored file (leading _), info only' },
    { path: '.hidden/x.parquet', row: null, problem: 'ignored file (leading .), info only' },
    { path: '../language_distribution_0.tsv', row: null, problem: 'TSV lacks partitions present in the data: c/mismatch_Latn, c/str_Latn' },
    { path: '../language_distribution_0.tsv', row: null, problem: 'TSV row c/nodata_Latn has no data under the root' },
    { path: '../language_distribution_0.tsv', row: null, problem: 'TSV row c/ok_Latn says 1.5 hours, data says otherwise' },
    { path: '../language_distribution_0.tsv', row: null, problem: 'TSV row c/flat_Latn says 0.00001 hours, data says otherwise (its data is only column-keyed)' },
  ]
  writeText('broken.expected.json', JSON.stringify(expected, null, 2) + '\n')
}

async function main(): Promise<void> {
  rmSync(fixturesDir, { recursive: true, force: true })
  const conn = await openDuckDb(1)
  await makeDataprep(conn)
  await makeKeyOrder(conn)
  await makeVersions(conn)
  await makeLargeList(conn)
  await makeBroken(conn)
  // a fresh instance: DuckDB caches footers of files it wrote, which would hide the corrupted ones
  const statsConn = await openDuckDb(1)
  for (const [name, root] of fixtureRoots) {
    const golden = await duckdbGolden(statsConn, join(fixturesDir, root), root)
    writeText(`${name}.golden.json`, JSON.stringify(golden, null, 2) + '\n')
  }
  console.log(`make-fixtures: wrote ${fixtureRoots.length} datasets to ${fixturesDir}`)
}

/** Fixture name → dataset root (relative to test/fixtures/parquet) the golden describes. */
export const fixtureRoots: [string, string][] = [
  ['dataprep', 'dataprep/version=0'],
  ['key-order', 'key-order'],
  ['versions', 'versions'],
  ['large-list', 'large-list/version=0'],
  ['broken', 'broken/version=0'],
]

if (import.meta.filename === process.argv[1]) await main()
