/**
 * The prepared parquet file against DuckDB (an independent reader): the reference schema, the rows, the row groups;
 * and against the engine's own reader (which validate and audit use).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMemorySink } from '../../src/engine/prepare/write/sink.ts'
import { PreparedParquetWriter, type PreparedRow } from '../../src/engine/prepare/write/parquet-file.ts'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { query } from '../helpers/duckdb.ts'

function rows(count: number, seed: number): PreparedRow[] {
  const random = mulberry32(seed)
  return Array.from({ length: count }, (_, i) => {
    // sizes from 1 byte to ~1.3 MB, so that pages split between and around rows
    const size = i === 0 ? 1 : Math.floor(random() * (i % 7 === 0 ? 1_300_000 : 40_000)) + 1
    const audio = new Uint8Array(size)
    for (let k = 0; k < size; k++) audio[k] = Math.floor(random() * 256)
    return { text: `row ${i} ünïcødé 中文`, audio, audioSize: 16000 + i }
  })
}

describe('PreparedParquetWriter', () => {
  it('writes the reference schema, read back by DuckDB row for row', async () => {
    const data = rows(230, 1)
    const sink = createMemorySink()
    const file = await sink.create('x.parquet')
    const writer = new PreparedParquetWriter(file)
    for (let i = 0; i < data.length; i += 100) await writer.writeRowGroup(data.slice(i, i + 100))
    await writer.finish()
    await file.close()
    const dir = mkdtempSync(join(tmpdir(), 'mixscope-pq-'))
    const path = join(dir, 'x.parquet')
    writeFileSync(path, sink.files.get('x.parquet')!)
    const schema = await query(`SELECT name, type FROM parquet_schema('${path}')`)
    expect(schema.map((r) => `${r.name}:${r.type ?? ''}`)).toEqual(['schema:', 'text:BYTE_ARRAY', 'audio_bytes:', 'list:', 'element:INT32', 'audio_size:INT64'])
    const types = await query(`DESCRIBE SELECT * FROM read_parquet('${path}')`)
    expect(types.map((r) => `${r.column_name}:${r.column_type}`)).toEqual(['text:VARCHAR', 'audio_bytes:TINYINT[]', 'audio_size:BIGINT'])
    const groups = await query(`SELECT row_group_id, row_group_num_rows FROM parquet_metadata('${path}') WHERE path_in_schema = 'text' ORDER BY row_group_id`)
    expect(groups.map((g) => g.row_group_num_rows)).toEqual([100, 100, 30])
    const read = await query(`SELECT text, audio_size, len(audio_bytes) AS n FROM read_parquet('${path}')`)
    expect(read.length).toBe(data.length)
    for (const [i, r] of read.entries()) {
      expect(r.text).toBe(data[i].text)
      expect(r.audio_size).toBe(data[i].audioSize)
      expect(r.n).toBe(data[i].audio.length)
    }
    // exact bytes of a few rows (as signed int8, the reference's storage)
    for (const i of [0, 1, 7, 229]) {
      const [r] = await query(`SELECT audio_bytes FROM (SELECT audio_bytes, row_number() OVER () - 1 AS i FROM read_parquet('${path}')) WHERE i = ${i}`)
      const got = (r.audio_bytes as { items: number[] }).items ?? (r.audio_bytes as number[])
      expect(Int8Array.from(got as number[])).toEqual(new Int8Array(data[i].audio.buffer, data[i].audio.byteOffset, data[i].audio.length))
    }
  })
})
