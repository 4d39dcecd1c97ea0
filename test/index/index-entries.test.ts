import { describe, expect, test } from 'vitest'
import { indexEntries } from '../../src/engine/dataset/index-entries.ts'
import type { IndexRow } from '../../src/engine/dataset/index-format.ts'

const columnsJson = JSON.stringify([['audio_size', 'int64', true], ['text', 'string', true]])

/** One row group of `path`: `rows` rows from `first`, samples `rows × 16000`. */
function row(path: string, rowGroup: number | null, rows: number, first: number, extra: Partial<IndexRow> = {}): IndexRow {
  return {
    path, size: 1000, mtime_ms: null, row_group: rowGroup, rows, audio_size_sum: rows * 16000, audio_size_min: 16000, audio_size_max: 16000,
    error: null, first_row: first, compressed_bytes: 500, audio_size_nulls: 0, read_error: null, needs_read: null, partition: null,
    corpus: null, split: null, language: null, columns: columnsJson, ...extra,
  }
}

const entries = (rows: IndexRow[]) => indexEntries(rows, 'idx')

describe('index rows grouped into files', () => {
  test('row groups of a file become one entry with its facts, in order', () => {
    const got = entries([row('a/x.parquet', 0, 2, 0), row('a/x.parquet', 1, 3, 2), row('b/y.parquet', 0, 1, 0)])
    expect([...got.keys()]).toEqual(['a/x.parquet', 'b/y.parquet'])
    const x = got.get('a/x.parquet')!
    expect(x.rows).toBe(5)
    expect(x.rowGroups).toEqual([{ index: 0, rows: 2, firstRow: 0, compressedBytes: 500 }, { index: 1, rows: 3, firstRow: 2, compressedBytes: 500 }])
    expect(x.facts!.groups.map((g) => g.sum)).toEqual([32000, 48000])
    expect(x.columns!.map((c) => c.name)).toEqual(['audio_size', 'text'])
  })

  test('an unreadable file and a file that stats must read keep no facts', () => {
    const got = entries([
      row('bad.parquet', null, 0, 0, { rows: null, first_row: null, error: 'not parquet', columns: null, audio_size_sum: null }),
      row('keys.parquet', 0, 2, 0, { needs_read: 'language is a column' }),
    ])
    expect(got.get('bad.parquet')).toMatchObject({ error: 'not parquet', facts: null, rowGroups: [], rows: 0 })
    expect(got.get('keys.parquet')).toMatchObject({ needsRead: 'language is a column', facts: null, rows: 2 })
  })

  test.each([
    ['row groups out of order', [row('x.parquet', 0, 2, 0), row('x.parquet', 2, 2, 2)], 'row 1: x.parquet row group 2 follows row group 0'],
    ['a file that starts past row group 0', [row('x.parquet', 1, 2, 0)], 'row 0: x.parquet starts at row group 1, expected 0'],
    ['a file that comes back after another', [row('x.parquet', 0, 2, 0), row('y.parquet', 0, 2, 0), row('x.parquet', 1, 2, 2)], 'row 2: x.parquet appears again after other files'],
    ['a size that changes', [row('x.parquet', 0, 2, 0), row('x.parquet', 1, 2, 2, { size: 5 })], 'row 1: x.parquet has size 5 here and 1000 above'],
    ['a first row that does not follow on', [row('x.parquet', 0, 2, 0), row('x.parquet', 1, 2, 3)], 'row 1: x.parquet row group 1 starts at row 3, expected 2'],
    ['other columns in a later row group', [row('x.parquet', 0, 2, 0), row('x.parquet', 1, 2, 2, { columns: '[]' })], 'row 1: x.parquet row group 1 has other columns than row group 0'],
    ['columns that are not the JSON triples', [row('x.parquet', 0, 2, 0, { columns: '{"a":1}' })], 'row 0: x.parquet has columns'],
  ])('refuses %s, naming the row', (_what, rows, message) => {
    expect(() => entries(rows)).toThrow(message)
  })
})
