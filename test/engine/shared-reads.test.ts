/**
 * Reads shared between stats and validation at open: the chunk cache serves any range inside a cached one, the
 * parquet reader reads neighbouring chunks (also across row groups) in one request, and `checkDataset` gives the
 * same reports with fewer requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ChunkCache } from '../../src/engine/parquet/chunk-cache.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createCountingSource } from '../../src/engine/source/counting-source.ts'
import { chunkRange } from '../../src/engine/parquet/byte-list-column.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { checkDataset } from '../../src/engine/validate/validate.ts'
import { computeStats } from '../../src/engine/dataset/stats.ts'
import { writeParquet } from '../helpers/duckdb.ts'

describe('ChunkCache ranges', () => {
  it('serves a range inside a cached one as a view, keeps exact keys working, and forgets evicted ranges', () => {
    const cache = new ChunkCache(100)
    const bytes = Uint8Array.from({ length: 40 }, (_, i) => i)
    cache.setRange('a.parquet', 1000, bytes)
    expect([...cache.getRange('a.parquet', 1010, 1015)!]).toEqual([10, 11, 12, 13, 14])
    expect(cache.getRange('a.parquet', 1030, 1041)).toBeUndefined() // runs past the end
    expect(cache.getRange('b.parquet', 1010, 1015)).toBeUndefined()
    expect(cache.get('a.parquet@1000-1040')).toBe(bytes)
    cache.set('b.parquet@0-4', new Uint8Array([9, 9, 9, 9]))
    expect([...cache.getRange('b.parquet', 1, 3)!]).toEqual([9, 9])
    // 40 + 4 + 60 > 100: the least recently used (a, touched before b) goes
    cache.setRange('c.parquet', 0, new Uint8Array(60))
    expect(cache.getRange('a.parquet', 1010, 1015)).toBeUndefined()
    expect(cache.size).toBe(64)
    cache.clear()
    expect([cache.size, cache.getRange('b.parquet', 1, 3)]).toEqual([0, undefined])
  })
})

let dir: string
// 6 row groups of 2,048 rows (DuckDB's smallest); audio chunks of ~2 KB (small: everything merges) or ~100 KB (big:
// only audio_size of one group and text of the next, which touch, are read together)
const GROUPS = 6
const rows = (bytesPerRow: number) => `SELECT 'row ' || i AS text,
  (SELECT list((((j * 31 + i * 7) % 256) - 128)::TINYINT) FROM range(${bytesPerRow}) t(j)) AS audio_bytes,
  (1000 + i)::BIGINT AS audio_size FROM range(${GROUPS * 2048}) r(i)`

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-shared-'))
  await writeParquet(join(dir, 'small/corpus=c/split=train/language=x_Latn/part-0.parquet'), rows(1), 'ROW_GROUP_SIZE 2048, COMPRESSION uncompressed')
  await writeParquet(join(dir, 'big/corpus=c/split=train/language=x_Latn/part-0.parquet'), rows(40), 'ROW_GROUP_SIZE 2048, COMPRESSION uncompressed')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function open(root: string, cacheBytes?: number) {
  const source = createCountingSource(await createFsSource(join(dir, root)))
  const dataset = await openDataset(source, { cacheBytes })
  source.reset()
  return { dataset, source, requests: () => source.counters.requests }
}

describe('checkDataset', () => {
  for (const [root, shared] of [['small', 1], ['big', GROUPS + 1]] as const) {
    it(`${root} audio: same stats and findings as reading apart, in ${shared} request${shared === 1 ? '' : 's'} instead of ${2 * GROUPS} or more`, async () => {
      const together = await open(root)
      expect(together.dataset.files[0].rowGroups).toHaveLength(GROUPS)
      const both = await checkDataset(together.dataset)
      // columns text, audio_bytes, audio_size in each row group; validation skips audio_bytes (no nulls in the footer)
      expect(together.requests()).toBe(shared)
      // a cache too small to hold validation's text chunks until it runs: stats reads audio_size, validation text
      // (and audio_size again where the cache dropped it)
      const apart = await open(root, 150_000)
      const alone = await checkDataset(apart.dataset)
      expect(apart.requests()).toBeGreaterThanOrEqual(2 * GROUPS)
      expect(both).toEqual(alone)
      expect(both.stats).toEqual(await computeStats((await open(root)).dataset))
      expect(both.stats.partitions[0].rows).toBe(GROUPS * 2048)
      // never a byte of audio_bytes when the audio chunks are big (the footer says they hold no nulls)
      if (root === 'big') {
        const file = together.dataset.files[0]
        const audio = together.dataset.parquet.footer(file.path).row_groups.map((g) => chunkRange(g.columns.find((c) => c.meta_data?.path_in_schema[0] === 'audio_bytes')!))
        for (const r of together.source.reads) for (const [a, b] of audio) expect(r.end <= a || r.start >= b, `read ${r.start}-${r.end} overlaps audio ${a}-${b}`).toBe(true)
      }
    })
  }
})

describe('readColumns', () => {
  it('reads touching chunks in one request when the cache can keep them, else each once: never a byte twice', async () => {
    for (const [cacheBytes, requests] of [[undefined, 1], [100_000, 3]] as const) {
      const { dataset, source } = await open('big', cacheBytes)
      const file = dataset.files[0]
      const data = await dataset.parquet.readColumns(file, 2, ['text', 'audio_bytes', 'audio_size'])
      expect(data.audio_size[0]).toBe(1000 + 2 * 2048)
      const reads = source.readsOf(file.path).map((r) => [r.start, r.end]).sort((a, b) => a[0] - b[0])
      expect(reads, `cache ${cacheBytes}`).toHaveLength(requests)
      for (let i = 1; i < reads.length; i++) expect(reads[i][0]).toBeGreaterThanOrEqual(reads[i - 1][1])
    }
  })
})

describe('footer tails', () => {
  it('serve the small column chunks just before the footer: stats after discovery reads only what lies outside them', async () => {
    const demo = join(import.meta.dirname, '../../public/demo/version=0')
    const source = createCountingSource(await createFsSource(demo))
    const dataset = await openDataset(source)
    source.reset()
    const stats = await computeStats(dataset)
    // every tail read is at least 4 KiB: an audio_size chunk inside the last 4 KiB is never read again
    const outside = dataset.files.filter((f) => dataset.parquet.footer(f.path).row_groups.some((g) => {
      const [start] = chunkRange(g.columns.find((c) => c.meta_data?.path_in_schema[0] === 'audio_size')!)
      return start < f.size - 4096
    }))
    expect(outside.length).toBeLessThan(dataset.files.length / 4)
    expect(source.counters.requests).toBeLessThanOrEqual(outside.length)
    expect(new Set(source.reads.map((r) => r.path))).toEqual(new Set(source.reads.map((r) => r.path).filter((p) => outside.some((f) => f.path === p))))
    expect(stats.partitions.reduce((n, p) => n + p.rows, 0)).toBe(dataset.files.reduce((n, f) => n + f.rows, 0))
  })
})
