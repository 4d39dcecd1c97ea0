/**
 * Parquet decode benchmark: the `list<int8>` fast path (src/engine/parquet/byte-list-column.ts) against hyparquet's
 * generic reader (`parquetRead`, which assembles nested lists value by value into JS arrays) on the same column
 * chunks, in memory (no I/O), one thread. `audio_bytes` as the dataprep writes it (random bytes, so compression does
 * not shrink them) under each codec and both data page versions, and the flat INT64 `audio_size` column that stats
 * reads per row group. Figures: ns per decoded byte (per value for `audio_size`) and the ratio to hyparquet.
 * Files are written once by DuckDB into `bench/.cache/parquet-bench`.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { parquetMetadata, parquetRead, type FileMetaData } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import {
  chunkRange,
  decodeByteListChunk,
  decodeFlatIntChunk,
  flatIntLevels,
  listLevels,
  UnsupportedPageError,
} from '../src/engine/node.ts'
import type { BenchRow } from './table.ts'

const dir = join(import.meta.dirname, '.cache', 'parquet-bench')
const rows = 96
const rowsPerGroup = 16
/** Bytes per row: a few seconds of 16 kHz FLAC. */
const rowBytes = 32_000

const variants = [
  { codec: 'uncompressed', pages: 'v1' },
  { codec: 'snappy', pages: 'v1' },
  { codec: 'zstd', pages: 'v1' },
  { codec: 'zstd', pages: 'v2' },
] as const

const fileOf = (v: (typeof variants)[number]) => join(dir, `audio-${v.codec}-${v.pages}.parquet`)

async function ensureFiles(): Promise<void> {
  if (variants.every((v) => existsSync(fileOf(v)))) return
  mkdirSync(dir, { recursive: true })
  const connection = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect()
  await connection.run('SELECT setseed(0.25)')
  for (const v of variants) {
    const sql = `SELECT i AS id, list_transform(range(${rowBytes} + (i * 37) % 997), x -> (floor(random() * 256) - 128)::TINYINT) AS audio_bytes, ` +
      `(i * 7919 % 100000)::BIGINT AS audio_size FROM range(${rows}) t(i) ORDER BY i`
    await connection.run(`COPY (${sql}) TO '${fileOf(v)}' (FORMAT parquet, COMPRESSION ${v.codec}, ROW_GROUP_SIZE ${rowsPerGroup}` +
      `${v.pages === 'v2' ? ', PARQUET_VERSION v2' : ''})`)
  }
}

/** Best of `runs` timings of `fn` in ms, after one warm-up run. */
async function best(fn: () => unknown, runs = 7): Promise<number> {
  await fn()
  let min = Infinity
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now()
    await fn()
    min = Math.min(min, performance.now() - t0)
  }
  return min
}

function chunkOf(metadata: FileMetaData, group: number, column: string) {
  const chunk = metadata.row_groups[group].columns.find((c) => c.meta_data?.path_in_schema[0] === column)
  if (!chunk) throw new Error(`bench: no ${column} chunk in row group ${group}`)
  return chunk
}

/** Every row group of `column` through the fast path. */
function fastColumn(bytes: Uint8Array, metadata: FileMetaData, column: string): unknown[] {
  const out: unknown[] = []
  const levels = listLevels(metadata, column)
  const flat = flatIntLevels(metadata, column)
  metadata.row_groups.forEach((g, i) => {
    const chunk = chunkOf(metadata, i, column)
    const [start, end] = chunkRange(chunk)
    const slice = bytes.subarray(start, end)
    const n = Number(g.num_rows)
    out.push(...(levels ? decodeByteListChunk(slice, chunk, levels, n) : decodeFlatIntChunk(slice, chunk, flat!, n)))
  })
  return out
}

/** `column` through hyparquet's generic reader. */
async function hyparquetColumn(buffer: ArrayBuffer, metadata: FileMetaData, column: string): Promise<unknown[]> {
  let out: unknown[] = []
  await parquetRead({ file: buffer, metadata, columns: [column], compressors, utf8: false, onComplete: (data) => { out = (data as unknown[][]).map((r) => r[0]) } })
  return out
}

const asBytes = (v: unknown): Uint8Array => (v instanceof Uint8Array ? v : Uint8Array.from(v as number[], (x) => x & 0xff))

export async function runParquetBench(): Promise<BenchRow[]> {
  await ensureFiles()
  const out: BenchRow[] = []
  for (const v of variants) {
    const bytes = new Uint8Array(readFileSync(fileOf(v)))
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
    const metadata = parquetMetadata(buffer)
    const generic = await hyparquetColumn(buffer, metadata, 'audio_bytes')
    let fast: Uint8Array[]
    try {
      fast = fastColumn(bytes, metadata, 'audio_bytes') as Uint8Array[]
    } catch (error) {
      if (!(error instanceof UnsupportedPageError)) throw error
      // the reader falls back to hyparquet for such chunks
      out.push({ benchmark: `parquet: audio_bytes list<int8>, ${v.codec}, pages ${v.pages}`, rows: generic.length, 'same values': `fast path: ${error.message}` })
      continue
    }
    const decoded = fast.reduce((s, r) => s + r.length, 0)
    const same = generic.length === fast.length && generic.every((r, i) => { const a = asBytes(r), b = fast[i]; return a.length === b.length && a.every((x, k) => x === b[k]) })
    const fastMs = await best(() => fastColumn(bytes, metadata, 'audio_bytes'))
    const genericMs = await best(() => hyparquetColumn(buffer, metadata, 'audio_bytes'), 3)
    out.push({
      benchmark: `parquet: audio_bytes list<int8>, ${v.codec}, pages ${v.pages}`, rows: fast.length, 'MB decoded': decoded / 1e6,
      'fast ns/byte': fastMs * 1e6 / decoded, 'hyparquet ns/byte': genericMs * 1e6 / decoded, 'x hyparquet': fastMs / genericMs,
      'same values': same ? 'yes' : 'NO',
    })
  }
  // the flat INT64 column stats reads (one chunk per row group): many small chunks, so per-call overhead counts
  const bytes = new Uint8Array(readFileSync(fileOf(variants[2])))
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  const metadata = parquetMetadata(buffer)
  const fast = fastColumn(bytes, metadata, 'audio_size')
  const generic = (await hyparquetColumn(buffer, metadata, 'audio_size')).map((x) => Number(x))
  const fastMs = await best(() => { for (let k = 0; k < 100; k++) fastColumn(bytes, metadata, 'audio_size') }) / 100
  const genericMs = await best(async () => { for (let k = 0; k < 100; k++) await hyparquetColumn(buffer, metadata, 'audio_size') }) / 100
  out.push({
    benchmark: 'parquet: audio_size INT64, zstd, per row group', rows: fast.length,
    'fast ns/value': fastMs * 1e6 / fast.length, 'hyparquet ns/value': genericMs * 1e6 / fast.length, 'x hyparquet': fastMs / genericMs,
    'same values': JSON.stringify(generic) === JSON.stringify(fast) ? 'yes' : 'NO',
  })
  return out
}
