/**
 * The index's summary of its own numbers (`mixscope.index.summary`, docs/conventions.md "Dataset index"): written by
 * `mixscope index`, readable by DuckDB as ordinary key-value metadata, equal to `stats` of a full read (computed without
 * the index), and refused with a clear message when it does not parse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../../src/cli/main.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { computeStats, statsReport } from '../../src/engine/dataset/stats.ts'
import { indexFileName, readIndex } from '../../src/engine/dataset/index-format.ts'
import { decodeIndexSummary, encodeIndexSummary, indexSummaryKey, summarizeIndexRows } from '../../src/engine/dataset/index-summary.ts'
import { indexRowsOf } from '../../src/engine/dataset-index/build.ts'
import { query } from '../helpers/duckdb.ts'

let dir: string
const quiet = { stdout: () => {}, stderr: () => {} }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-summary-'))
  await cp(join(import.meta.dirname, '../fixtures/parquet'), dir, { recursive: true })
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the index summary', () => {
  it.each(['dataprep', 'broken'])('of %s: in the footer as DuckDB reads it, equal to stats of a full read, key order included', async (fixture) => {
    const root = join(dir, fixture, 'version=0')
    expect(await main(['index', root], quiet)).toBeLessThanOrEqual(1)
    const kv = await query(`SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata('${join(root, indexFileName)}')`)
    const text = kv.find((r) => r.key === indexSummaryKey)?.value
    expect(typeof text).toBe('string')
    const summary = decodeIndexSummary(text as string, indexFileName)
    // a full read that never sees the index, of the files whose numbers the index holds (not those it says stats must
    // read itself: keys held as columns, an audio_size that is not an exact integer column)
    const { rows } = await readIndex(new Uint8Array(await readFile(join(root, indexFileName))), 'index')
    const needsRead = new Set(rows.filter((r) => r.needs_read !== null).map((r) => r.path))
    expect(needsRead.size > 0).toBe(fixture === 'broken')
    const dataset = await openDataset(await createFsSource(root), { useIndex: false })
    await computeStats(dataset) // reads every file's facts
    const plain = statsReport({ ...dataset, files: dataset.files.filter((f) => !needsRead.has(f.path)) }, { partial: true })
    expect(JSON.stringify(summary.partitions)).toBe(JSON.stringify(plain.partitions))
    expect(summary.totals).toEqual(plain.totals)
    expect(summary.files).toEqual({
      parquet: dataset.files.length,
      readable: dataset.files.filter((f) => f.readable).length,
      described: dataset.files.length - needsRead.size,
      bytes: dataset.files.reduce((n, f) => n + f.size, 0),
    })
    // and the encoding gives back what it was given
    expect(decodeIndexSummary(encodeIndexSummary(summary), 'again')).toEqual(summary)
    expect(summarizeIndexRows(indexRowsOf(dataset))).toEqual(summary)
  })

  it('keeps a null key and another hive key as stats has them', () => {
    const summary = {
      partitions: [
        { corpus: 'c', language: null, split: 'train', files: 1, row_groups: 2, rows: 3, samples: 16000, hours: 16000 / 16000 / 3600, version: '0' },
        { corpus: 'c', language: 'en', split: 'train', files: 1, row_groups: 1, rows: 1, samples: 0, hours: 0, version: null },
      ],
      totals: { files: 2, row_groups: 3, rows: 4, samples: 16000, hours: 16000 / 16000 / 3600 },
      files: { parquet: 2, readable: 2, described: 2, bytes: 99 },
    }
    const back = decodeIndexSummary(encodeIndexSummary(summary), 'x')
    expect(JSON.stringify(back)).toBe(JSON.stringify(summary))
  })

  it.each([
    ['not json', /mixscope\.index\.summary is not JSON/],
    ['{"version":2}', /has version 2, expected 1/],
    ['{"version":1,"keys":["corpus"],"values":[["c"]],"partitions":[[0,1,1,1]]}', /partition 0 is \[0,1,1,1\], expected 5 integers/],
    ['{"version":1,"keys":["corpus"],"values":[["c"]],"partitions":[[3,1,1,1,1]]}', /partition 0 has corpus value 3, of 1/],
    ['{"version":1,"keys":["corpus"],"values":[["c"]],"partitions":[],"totals":[1,2]}', /has totals \[1,2\], expected 4 integers/],
    ['{"version":1,"keys":["corpus"],"values":[["c"]],"partitions":[],"totals":[0,0,0,0]}', /has files null, expected parquet, readable, described and bytes/],
  ])('refuses %s, naming what is wrong', (text, message) => {
    expect(() => decodeIndexSummary(text, '_mixscope_index.parquet')).toThrow(message)
  })
})
