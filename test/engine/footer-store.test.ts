/**
 * Footers at bounded memory: the store keeps every file's footer bytes in slabs up to a byte budget and a few parsed
 * footers; a footer it dropped is read again from the source (one tail read), never lost or wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FooterStore } from '../../src/engine/parquet/footer-store.ts'
import { readFooter, FooterSizer } from '../../src/engine/parquet/footer.ts'
import { ParquetReader } from '../../src/engine/parquet/reader.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createCountingSource } from '../../src/engine/source/counting-source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { query, writeParquet } from '../helpers/duckdb.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-footers-'))
  for (let i = 0; i < 12; i++) {
    await writeParquet(join(dir, `corpus=c/split=train/language=l${i}_Latn/part-0.parquet`),
      `SELECT 't' || j AS text, (${i} * 100 + j)::BIGINT AS audio_size FROM range(${3 + i}) r(j)`)
  }
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('FooterStore', () => {
  it('parses footers back from their bytes, keeps at most parsedLimit parsed, drops the oldest slab past the budget', async () => {
    const source = await createFsSource(dir)
    const listed = (await source.list()).sort((a, b) => (a.path < b.path ? -1 : 1))
    const store = new FooterStore(4 * 1024 * 1024 + 1, 2)
    const footers = []
    for (const f of listed) {
      const read = await readFooter(source, f.path, f.size, new FooterSizer())
      footers.push(read)
      store.put(f.path, read.bytes, read.metadata)
    }
    expect(store.parsedCount).toBe(2)
    // parsed again from the slab: file l<i> has 3 + i rows
    for (const f of listed) expect(Number(store.get(f.path)!.num_rows)).toBe(3 + Number(/l(\d+)_Latn/.exec(f.path)![1]))
    expect(store.bytes).toBe(4 * 1024 * 1024)
    // a budget of one slab: a second slab drops the first, and its footers with it
    const small = new FooterStore(footers[0].bytes.length + 5, 1)
    small.put('a', footers[0].bytes)
    expect(small.has('a')).toBe(true)
    small.put('b', new Uint8Array(10))
    expect(small.has('a')).toBe(false)
  })

  it('a dataset whose footers were all dropped reads each one again when a row group is read', async () => {
    const source = createCountingSource(await createFsSource(dir))
    const dataset = await openDataset(source)
    const tiny = new ParquetReader(source, dataset.parquet.cache, new FooterStore(1, 1)) // keeps nearly nothing
    source.reset()
    const expected = await query(`SELECT sum(audio_size) AS s FROM read_parquet('${dir}/**/*.parquet')`)
    let sum = 0
    for (const f of dataset.files) {
      const data = await tiny.readColumns(f, 0, ['audio_size'])
      for (let i = 0; i < f.rows; i++) sum += data.audio_size[i] as number
    }
    expect(sum).toBe(expected[0].s)
    expect(source.counters.requests).toBeGreaterThanOrEqual(dataset.files.length - 2) // footer tails again (the chunk cache holds some)
  })
})
