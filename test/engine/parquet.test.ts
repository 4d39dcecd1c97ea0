import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { readFileSync } from 'node:fs'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createCountingSource } from '../../src/engine/source/counting-source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { audioBytesOf } from '../../src/engine/parquet/audio-bytes.ts'
import { chunkRange, decodeByteListChunk, decodeFlatIntChunk, flatIntLevels, listLevels } from '../../src/engine/parquet/byte-list-column.ts'
import { writeParquet } from '../helpers/duckdb.ts'

let dir: string

// rows with audio of varying length, including a null and an empty list
const rowsSql = (n: number) => `SELECT 'row ' || i AS text,
  CASE WHEN i = 3 THEN NULL WHEN i = 4 THEN []::TINYINT[]
       ELSE (SELECT list((((j * 31 + i * 7) % 256) - 128)::TINYINT) FROM range(100 + i * 37) t(j)) END AS audio_bytes,
  (1000 + i)::BIGINT AS audio_size FROM range(${n}) r(i)`

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-parquet-'))
  for (const codec of ['uncompressed', 'snappy', 'gzip', 'zstd', 'brotli', 'lz4', 'lz4_raw']) {
    await writeParquet(join(dir, `codec=${codec}/v1.parquet`), rowsSql(30), `COMPRESSION ${codec}, ROW_GROUP_SIZE 10`)
  }
  await writeParquet(join(dir, 'codec=zstd-v2/v2.parquet'), rowsSql(30), 'COMPRESSION zstd, PARQUET_VERSION v2')
  // few distinct byte values: DuckDB picks dictionary encoding
  await writeParquet(join(dir, 'codec=dict/dict.parquet'),
    `SELECT 'r' AS text, (SELECT list(((j % 3) - 1)::TINYINT) FROM range(5000) t(j)) AS audio_bytes, 5000::BIGINT AS audio_size FROM range(12)`, 'ROW_GROUP_SIZE 4')
  await writeParquet(join(dir, 'codec=binary/bin.parquet'),
    `SELECT 'r' || i AS text, ('\\x00\\xFF' || i::VARCHAR)::BLOB AS audio_bytes, i::BIGINT AS audio_size FROM range(5) r(i)`)
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** The reference: hyparquet's generic reader, bytes reinterpreted as uint8. */
async function referenceAudio(path: string): Promise<(number[] | null)[]> {
  const buf = readFileSync(path)
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)
  const rows = await parquetReadObjects({ file: { byteLength: ab.byteLength, slice: (s, e) => ab.slice(s, e) }, columns: ['audio_bytes'], compressors, utf8: false })
  return rows.map((r) => {
    const v = r.audio_bytes
    if (v === null || v === undefined) return null
    return Array.from(v as ArrayLike<number>, (x) => x & 0xff)
  })
}

describe('audio_bytes reading', () => {
  it('gives each row\'s bytes identical to the generic reader for every codec, page version and encoding', async () => {
    const ds = await openDataset(await createFsSource(dir))
    expect(ds.files.length).toBe(10)
    for (const file of ds.files) {
      const expected = await referenceAudio(join(dir, file.path))
      const got: (number[] | null)[] = []
      for (const g of file.rowGroups) {
        const data = await ds.parquet.readColumns(file, g.index, ['audio_bytes'])
        for (let i = 0; i < g.rows; i++) {
          const bytes = audioBytesOf(data.audio_bytes[i])
          expect(bytes === null || bytes instanceof Uint8Array, file.path).toBe(true)
          got.push(bytes && Array.from(bytes))
        }
      }
      expect(got, file.path).toEqual(expected)
    }
  })
  it('the fast path itself (no fallback) decodes every list<int8> and INT64 chunk: codecs, pages v1 and v2 (DELTA_BINARY_PACKED), dictionary', async () => {
    const ds = await openDataset(await createFsSource(dir))
    for (const file of ds.files.filter((f) => !f.path.startsWith('codec=binary'))) {
      const bytes = new Uint8Array(readFileSync(join(dir, file.path)))
      const metadata = ds.parquet.footer(file.path)
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
      const reference = await parquetReadObjects({ file: buffer, columns: ['audio_bytes', 'audio_size'], compressors, utf8: false })
      const audio: (number[] | null)[] = []
      const sizes: (number | null)[] = []
      for (const g of metadata.row_groups) {
        const chunk = (name: string) => g.columns.find((c) => c.meta_data?.path_in_schema[0] === name)!
        const [a0, a1] = chunkRange(chunk('audio_bytes'))
        for (const row of decodeByteListChunk(bytes.subarray(a0, a1), chunk('audio_bytes'), listLevels(metadata, 'audio_bytes')!, Number(g.num_rows))) audio.push(row && Array.from(row))
        const [s0, s1] = chunkRange(chunk('audio_size'))
        sizes.push(...decodeFlatIntChunk(bytes.subarray(s0, s1), chunk('audio_size'), flatIntLevels(metadata, 'audio_size')!, Number(g.num_rows)))
      }
      expect(audio, file.path).toEqual(reference.map((r) => (r.audio_bytes == null ? null : Array.from(r.audio_bytes as ArrayLike<number>, (x) => x & 0xff))))
      expect(sizes, file.path).toEqual(reference.map((r) => Number(r.audio_size)))
    }
  })
  it('keeps null and empty rows apart', async () => {
    const ds = await openDataset(await createFsSource(dir))
    const file = ds.files.find((f) => f.path.startsWith('codec=snappy'))!
    const data = await ds.parquet.readColumns(file, 0, ['audio_bytes', 'text', 'audio_size'])
    expect(data.audio_bytes[3]).toBeNull()
    expect((data.audio_bytes[4] as Uint8Array).length).toBe(0)
    expect(data.text[2]).toBe('row 2')
    expect(data.audio_size[2]).toBe(1002)
  })
  it('describes list<int8> and binary columns', async () => {
    const ds = await openDataset(await createFsSource(dir))
    const types = Object.fromEntries(ds.files.map((f) => [f.path.split('/')[0], f.columns.find((c) => c.name === 'audio_bytes')!.type]))
    expect(types['codec=binary']).toBe('binary')
    expect(types['codec=zstd']).toBe('list<int8>')
    expect(ds.files[0].columns.find((c) => c.name === 'audio_size')!.type).toBe('int64')
    expect(ds.files[0].columns.find((c) => c.name === 'text')!.type).toBe('string')
  })
  it('serves re-reads of recently read row groups from the chunk cache', async () => {
    const source = createCountingSource(await createFsSource(dir))
    const ds = await openDataset(source)
    const file = ds.files.find((f) => f.path.startsWith('codec=gzip'))!
    await ds.parquet.readColumns(file, 0, ['audio_bytes', 'text'])
    const after = source.counters.requests
    expect(after).toBeGreaterThan(0)
    const again = await ds.parquet.readColumns(file, 0, ['audio_bytes', 'text'])
    expect(source.counters.requests).toBe(after)
    expect((again.audio_bytes[0] as Uint8Array).length).toBeGreaterThan(0)
    const other = ds.files.find((f) => f.path.startsWith('codec=snappy'))!
    await ds.parquet.readColumns(other, 0, ['audio_bytes'])
    expect(source.counters.requests).toBeGreaterThan(after)
  })
})
