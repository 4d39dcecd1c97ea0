import { describe, expect, test } from 'vitest'
import { parquetMetadata } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { indexColumns, indexVersion, indexVersionKey, readIndex, type IndexRow } from '../../src/engine/dataset/index-format.ts'
import { writeIndex } from '../../src/engine/dataset-index/write.ts'

/** Rows with a null in some nullable columns (error, mtime_ms, row_group, …) and none in others. */
const rows: IndexRow[] = [
  {
    path: 'corpus=a/split=train/language=eng_Latn/part-0.parquet', size: 1000, mtime_ms: null, row_group: 0, rows: 3, audio_size_sum: 48000,
    audio_size_min: 16000, audio_size_max: 16000, error: null, first_row: 0, compressed_bytes: 500, audio_size_nulls: 0, read_error: null,
    needs_read: null, partition: 'corpus=a/language=eng_Latn/split=train', corpus: 'a', split: 'train', language: 'eng_Latn', columns: '[]',
  },
  {
    path: 'corpus=a/split=train/language=eng_Latn/part-1.parquet', size: 10, mtime_ms: null, row_group: null, rows: null, audio_size_sum: null,
    audio_size_min: null, audio_size_max: null, error: 'parquet: not a parquet file', first_row: null, compressed_bytes: null, audio_size_nulls: null,
    read_error: null, needs_read: null, partition: 'corpus=a/language=eng_Latn/split=train', corpus: 'a', split: 'train', language: 'eng_Latn', columns: null,
  },
  {
    path: 'language_distribution_0.tsv', size: 80, mtime_ms: null, row_group: null, rows: null, audio_size_sum: null, audio_size_min: null,
    audio_size_max: null, error: null, first_row: null, compressed_bytes: null, audio_size_nulls: null, read_error: null, needs_read: null,
    partition: null, corpus: null, split: null, language: null, columns: null,
  },
]

const repetition = (bytes: Uint8Array) => Object.fromEntries(parquetMetadata(bytes.slice().buffer).schema.slice(1).map((e) => [e.name, e.repetition_type]))

describe('the index file', () => {
  test('a column with no null is written REQUIRED, one with a null OPTIONAL; the rows read back as written', async () => {
    const bytes = writeIndex(rows)
    expect(repetition(bytes)).toMatchObject({ path: 'REQUIRED', size: 'REQUIRED', mtime_ms: 'OPTIONAL', row_group: 'OPTIONAL', error: 'OPTIONAL', partition: 'OPTIONAL' })
    const noNulls = writeIndex([rows[0]].map((r) => ({ ...r, mtime_ms: 7 })))
    expect(repetition(noNulls)).toMatchObject({ mtime_ms: 'REQUIRED', row_group: 'REQUIRED', error: 'OPTIONAL', read_error: 'OPTIONAL' })
    expect((await readIndex(bytes, 'idx')).rows).toEqual(rows)
  })

  test('an index with every column OPTIONAL (as mixscope wrote before) reads the same rows', async () => {
    const columnData = indexColumns.map(({ name, kind }) => ({
      name, nullable: true, type: ({ string: 'STRING', int64: 'INT64', int32: 'INT32' } as const)[kind],
      data: rows.map((r) => r[name] === null ? null : kind === 'int64' ? BigInt(r[name] as number) : r[name]),
    }))
    const bytes = new Uint8Array(parquetWriteBuffer({ columnData, kvMetadata: [{ key: indexVersionKey, value: indexVersion }] }))
    expect(Object.values(repetition(bytes)).every((r) => r === 'OPTIONAL')).toBe(true)
    expect((await readIndex(bytes, 'idx')).rows).toEqual(rows)
  })

  /** Index bytes from hand-made columns (every column OPTIONAL unless told), for the refusals below. */
  const handMade = (edit: (name: string, data: unknown[]) => { data: unknown[]; type?: 'STRING' | 'INT64' | 'INT32' } | null) => {
    const columnData = indexColumns.flatMap(({ name, kind }) => {
      const data = rows.map((r) => r[name] === null ? null : kind === 'int64' ? BigInt(r[name] as number) : r[name])
      const type = ({ string: 'STRING', int64: 'INT64', int32: 'INT32' } as const)[kind]
      const edited = edit(name, data)
      return edited ? [{ name, nullable: true, type: edited.type ?? type, data: edited.data }] : []
    })
    return new Uint8Array(parquetWriteBuffer({ columnData, kvMetadata: [{ key: indexVersionKey, value: indexVersion }] }))
  }

  test('reading refuses a null where none may be, a value of the wrong type and a missing column, naming row and column', async () => {
    const nullPath = handMade((name, data) => ({ data: name === 'path' ? data.map((v, i) => (i === 1 ? null : v)) : data }))
    await expect(readIndex(nullPath, 'idx')).rejects.toThrow('index: idx row 1 has no path')
    const textSize = handMade((name, data) => (name === 'size' ? { data: data.map(String), type: 'STRING' } : { data }))
    await expect(readIndex(textSize, 'idx')).rejects.toThrow('index: idx row 0 has size 1000, expected an integer')
    const textPath = handMade((name, data) => (name === 'path' ? { data: data.map((_, i) => BigInt(i)), type: 'INT64' } : { data }))
    await expect(readIndex(textPath, 'idx')).rejects.toThrow('index: idx row 0 has path of type bigint, expected a string')
    const noSize = handMade((name, data) => (name === 'size' ? null : { data }))
    await expect(readIndex(noSize, 'idx')).rejects.toThrow('index: idx lacks column size')
  })

  test('a null in a column that may not hold one is refused, naming the row', () => {
    expect(() => writeIndex([{ ...rows[0], path: null as unknown as string }])).toThrow(/row 0 .* has no path/)
  })
})
