import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { toText } from '../../src/engine/parquet/reader.ts'
import { TextCells } from '../../src/engine/parquet/text-column.ts'
import { writeParquet } from '../helpers/duckdb.ts'

describe('readTextColumn: a string column decoded row by row gives what the generic reader gives', () => {
  let dir: string
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'mixscope-text-')) })
  afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

  // unique strings (PLAIN), few distinct ones (dictionary), nulls, non-ASCII; v1 and v2 pages; zstd, snappy, none
  const selects = {
    plain: `SELECT CASE WHEN i % 7 = 3 THEN NULL ELSE 'utterance ' || i || ' – Ünïcödé ' || repeat('ab', i % 5) END AS text, i AS n FROM range(300) t(i)`,
    dictionary: `SELECT CASE WHEN i % 11 = 0 THEN NULL ELSE ['één', 'two', 'три', ''][1 + i % 4] END AS text, i AS n FROM range(300) t(i)`,
  }
  for (const [name, select] of Object.entries(selects)) {
    for (const options of ['ROW_GROUP_SIZE 100, COMPRESSION zstd', 'ROW_GROUP_SIZE 128, COMPRESSION snappy, PARQUET_VERSION v2', 'COMPRESSION uncompressed']) {
      it(`${name}, ${options}`, async () => {
        const root = join(dir, `${name}-${options.replace(/\W+/g, '-')}`)
        await writeParquet(join(root, 'part-0.parquet'), select, options)
        const dataset = await openDataset(await createFsSource(root))
        const file = dataset.files[0]
        let fast = 0
        for (const g of file.rowGroups) {
          const cells = await dataset.parquet.readTextColumn(file, g.index, 'text')
          const generic = (await dataset.parquet.readColumns(file, g.index, ['text'])).text
          if (cells instanceof TextCells) fast++
          const got = cells instanceof TextCells ? Array.from({ length: cells.length }, (_, i) => cells.get(i)) : Array.from(cells as ArrayLike<unknown>, toText)
          expect(got).toEqual(Array.from(generic, toText))
          if (cells instanceof TextCells) expect(Array.from({ length: cells.length }, (_, i) => cells.isNull(i))).toEqual(got.map((t) => t === null))
        }
        // (DuckDB's v2 pages hold unique strings as DELTA_LENGTH_BYTE_ARRAY, which goes to the generic reader)
        expect(fast).toBe(name === 'plain' && options.includes('v2') ? 0 : file.rowGroups.length)
      })
    }
  }
})
