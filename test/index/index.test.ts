/**
 * The dataset index (docs/conventions.md "Dataset index"): the file DuckDB reads back (columns, types, metadata,
 * order, per-row-group numbers computed by DuckDB from the data itself), `stats --json` from it byte-identical to a
 * full read (fixtures with every kind of problem, keys held as columns), stale and bad indexes, validate reading the
 * data itself, an HTTP root served with an index and no manifest, and slices of units (what `--shard` builds).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cp, mkdtemp, readFile, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../../src/cli/main.ts'
import { compareUtf8 } from '../../src/engine/core/findings.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createCountingSource } from '../../src/engine/source/counting-source.ts'
import { createHttpSource } from '../../src/engine/source/http-source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { computeStats } from '../../src/engine/dataset/stats.ts'
import { buildIndexRows, indexRowsOf, indexUnits } from '../../src/engine/dataset-index/build.ts'
import { indexFileName, readIndex } from '../../src/engine/dataset/index-format.ts'
import { writeDatasetIndex, writeIndex } from '../../src/engine/dataset-index/write.ts'
import { query, writeParquet } from '../helpers/duckdb.ts'
import { startStaticServer } from '../helpers/static-server.ts'

const fixtures = join(import.meta.dirname, '../fixtures/parquet')
let dir: string

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await main(args, { stdout: (t) => { stdout += t }, stderr: (t) => { stderr += t } })
  return { code, stdout, stderr }
}

/** A copy of fixture `name` (its folder), so the test may write an index into it. */
async function copy(name: string): Promise<string> {
  const to = join(dir, `${name}-${Math.random().toString(36).slice(2)}`)
  await cp(join(fixtures, name), to, { recursive: true })
  return to
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-index-'))
  // keys held as columns (no corpus/split folders): stats must read such a file itself (needs_read)
  await writeParquet(join(dir, 'columns/version=0/language=eng_Latn/part-0.parquet'),
    `SELECT 't' || i AS text, [1, 2]::TINYINT[] AS audio_bytes, (1000 + i)::BIGINT AS audio_size, ['a', 'b'][1 + i % 2] AS corpus, ` +
    `['train', 'dev'][1 + (i // 2) % 2] AS split FROM range(7) r(i)`)
  await writeParquet(join(dir, 'columns/version=0/language=fra_Latn/part-0.parquet'),
    `SELECT 't' || i AS text, [3]::TINYINT[] AS audio_bytes, CASE WHEN i = 1 THEN NULL ELSE (2000 + i)::BIGINT END AS audio_size, ` +
    `'a' AS corpus, 'train' AS split FROM range(5) r(i)`)
}, 60_000)
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('mixscope index', () => {
  it('writes a parquet file DuckDB reads: the required columns and types, the version, rows in UTF-8 path order', async () => {
    const top = await copy('dataprep')
    const root = join(top, 'version=0')
    const run = await cli(['index', root])
    expect(run.code, run.stderr).toBe(0)
    const index = join(root, indexFileName)
    const types = Object.fromEntries((await query(`DESCRIBE SELECT * FROM '${index}'`)).map((r) => [r.column_name, r.column_type]))
    expect(types).toMatchObject({
      path: 'VARCHAR', size: 'BIGINT', mtime_ms: 'BIGINT', row_group: 'INTEGER', rows: 'BIGINT',
      audio_size_sum: 'BIGINT', audio_size_min: 'BIGINT', audio_size_max: 'BIGINT', error: 'VARCHAR',
    })
    const kv = await query(`SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata('${index}')`)
    expect(kv).toContainEqual({ key: 'mixscope.index.version', value: '1' })
    const rows = await query(`SELECT * FROM '${index}'`)
    const order = rows.map((r) => `${r.path}#${String(r.row_group).padStart(4, '0')}`)
    expect(order).toEqual([...order].sort(compareUtf8))
    // sizes and mtimes as the file system gives them
    for (const r of rows) {
      const info = await stat(join(root, r.path as string))
      expect([r.size, r.mtime_ms]).toEqual([info.size, Math.floor(info.mtimeMs)])
    }
  })

  it('holds, per row group, the rows, first row, Σ/min/max and nulls of audio_size that DuckDB computes from the data', async () => {
    const top = await copy('dataprep')
    const root = join(top, 'version=0')
    const glob = `${root}/**/*.parquet` // before the index exists: DuckDB's glob would read it as data
    const expected = await query(`
      WITH rg AS (SELECT DISTINCT file_name, row_group_id, row_group_num_rows FROM parquet_metadata('${glob}')),
      rgr AS (SELECT *, sum(row_group_num_rows) OVER (PARTITION BY file_name ORDER BY row_group_id) - row_group_num_rows AS first_row FROM rg),
      d AS (SELECT filename, file_row_number, audio_size FROM read_parquet('${glob}', filename = true, file_row_number = true))
      SELECT replace(r.file_name, '${root}/', '') AS path, r.row_group_id::INTEGER AS row_group, r.row_group_num_rows AS rows, r.first_row,
        sum(d.audio_size) AS audio_size_sum, min(d.audio_size) AS audio_size_min, max(d.audio_size) AS audio_size_max,
        count(*) - count(d.audio_size) AS audio_size_nulls
      FROM rgr r JOIN d ON d.filename = r.file_name AND d.file_row_number >= r.first_row AND d.file_row_number < r.first_row + r.row_group_num_rows
      GROUP BY ALL ORDER BY path, row_group`)
    expect((await cli(['index', root])).code).toBe(0)
    const got = await query(`SELECT path, row_group, rows, first_row, audio_size_sum, audio_size_min, audio_size_max, audio_size_nulls
      FROM '${join(root, indexFileName)}' WHERE row_group IS NOT NULL ORDER BY path, row_group`)
    expect(expected.length).toBeGreaterThan(10)
    expect(expected.some((e) => (e.row_group as number) > 0)).toBe(true)
    expect(got).toEqual(expected)
  })

  for (const name of ['dataprep/version=0', 'key-order', 'versions', 'large-list/version=0', 'broken/version=0', 'columns']) {
    it(`stats --json from the index is byte-identical to a full read: ${name}`, async () => {
      const [fixture, sub] = name.split('/')
      const top = name === 'columns' ? join(dir, 'columns') : await copy(fixture)
      const root = sub ? join(top, sub) : name === 'columns' ? join(top, 'version=0') : top
      const full = await cli(['stats', root, '--json'])
      const indexed = await cli(['index', root])
      expect(indexed.code).toBeLessThan(2)
      const source = createCountingSource(await createFsSource(root))
      const dataset = await openDataset(source, { facts: true })
      // every parquet file described by the index; no footer read, no audio_size read (except keys held as columns)
      expect(dataset.described).toMatchObject({ fromIndex: dataset.files.length, read: 0, index: indexFileName })
      // (except files whose numbers stats must read itself: keys held as columns, audio_size not an integer column)
      const { rows } = await readIndex(new Uint8Array(await readFile(join(root, indexFileName))), 'index')
      const mustRead = new Set(rows.filter((r) => r.needs_read !== null).map((r) => r.path))
      expect(source.reads.filter((r) => r.path.endsWith('.parquet') && r.path !== indexFileName && !mustRead.has(r.path))).toEqual([])
      if (name === 'columns') expect(mustRead.size).toBe(2)
      const fromIndex = await cli(['stats', root, '--json'])
      expect(fromIndex.code).toBe(full.code)
      expect(fromIndex.stdout).toBe(full.stdout)
      await unlink(join(root, indexFileName))
    })
  }

  it('records keys held as columns as needs_read, and unreadable files with their footer error', async () => {
    const root = join(dir, 'columns/version=0')
    expect((await cli(['index', root])).code).toBe(1) // written; the keys held as columns are error findings
    const { rows } = await readIndex(new Uint8Array(await readFile(join(root, indexFileName))), 'index')
    expect(rows.every((r) => r.needs_read?.startsWith('split, corpus are columns, not folder keys'))).toBe(true)
    await unlink(join(root, indexFileName))
    const broken = join(await copy('broken'), 'version=0')
    await cli(['index', broken])
    const b = (await readIndex(new Uint8Array(await readFile(join(broken, indexFileName))), 'index')).rows
    const truncated = b.find((r) => r.path.endsWith('ok_Latn/part-1.parquet'))!
    expect(truncated).toMatchObject({ row_group: null, rows: null, columns: null })
    expect(truncated.error).toMatch(/^parquet: corpus=c\/split=train\/language=ok_Latn\/part-1.parquet: /)
    expect(b.find((r) => r.path.endsWith('notes.txt'))).toMatchObject({ row_group: null, rows: null, error: null, partition: null })
    expect(b.find((r) => r.path === 'corpus=c/split=test/language=ok_Latn/part-0.parquet')).toMatchObject({ row_group: null, rows: 0, error: null })
    expect(b.find((r) => r.path === 'corpus=c/split=dev/language=ok_Latn/part-0.parquet')).toMatchObject({ audio_size_sum: null, needs_read: null })
    expect(b.find((r) => r.path === 'corpus=c/split=dev/language=str_Latn/part-0.parquet')?.needs_read).toBe('audio_size is string, not an integer column')
  })

  it('a stale index: changed, touched, added and removed files are read again and each is a stale-index warning', async () => {
    const root = join(await copy('dataprep'), 'version=0')
    await cli(['index', root])
    const before = await computeStats(await openDataset(await createFsSource(root), { useIndex: false }))
    const files = (await openDataset(await createFsSource(root), { useIndex: false })).files.map((f) => f.path)
    const [changed, touched, removed] = [files[0], files[1], files[2]]
    // same bytes under another name: the added file; another file's bytes in place of the changed one
    await cp(join(root, files[3]), join(root, files[3].replace('.parquet', '-new.parquet')))
    await cp(join(root, files[4]), join(root, changed))
    await utimes(join(root, touched), new Date(), new Date(Date.now() + 5000))
    await rename(join(root, removed), join(root, removed.replace(/part-\d+\.parquet$/, '_moved.parquet')))
    const dataset = await openDataset(await createFsSource(root), { facts: true })
    const stale = dataset.findings.filter((f) => f.kind === 'stale-index')
    expect(stale.map((f) => f.path).sort(compareUtf8)).toEqual([changed, touched, removed, files[3].replace('.parquet', '-new.parquet')].sort(compareUtf8))
    expect(stale.every((f) => f.severity === 'warning')).toBe(true)
    expect(dataset.described.read).toBe(3)
    const fresh = await computeStats(await openDataset(await createFsSource(root), { useIndex: false }))
    const indexed = await computeStats(dataset)
    expect(indexed.partitions).toEqual(fresh.partitions)
    expect(indexed.totals).toEqual(fresh.totals)
    expect(indexed.findings.filter((f) => f.kind !== 'stale-index')).toEqual(fresh.findings)
    expect(fresh.totals).not.toEqual(before.totals)
  })

  it('a damaged index is a bad-index warning and the data is read', async () => {
    const root = join(await copy('dataprep'), 'version=0')
    const full = await computeStats(await openDataset(await createFsSource(root), { facts: true }))
    await writeFile(join(root, indexFileName), 'not parquet at all')
    const dataset = await openDataset(await createFsSource(root), { facts: true })
    expect(dataset.findings.filter((f) => f.kind === 'bad-index').map((f) => [f.severity, f.path])).toEqual([['warning', indexFileName]])
    expect(dataset.described.fromIndex).toBe(0)
    const stats = await computeStats(dataset)
    expect(stats.partitions).toEqual(full.partitions)
  })

  it('stats trust a fresh index; validate never uses it (docs/conventions.md "Dataset index")', async () => {
    const root = join(await copy('dataprep'), 'version=0')
    const validateBefore = await cli(['validate', root, '--json'])
    await cli(['index', root])
    // a hand-made index that calls one readable file unreadable: stats believe it, validate reads the file itself
    const { rows } = await readIndex(new Uint8Array(await readFile(join(root, indexFileName))), 'index')
    const victim = rows[0].path
    const doctored = rows.filter((r) => r.path !== victim || r.row_group === 0).map((r) => (r.path === victim
      ? { ...r, row_group: null, rows: null, first_row: null, error: 'planted', audio_size_sum: null, audio_size_min: null, audio_size_max: null, columns: null }
      : r))
    await writeFile(join(root, indexFileName), writeIndex(doctored))
    const stats = JSON.parse((await cli(['stats', root, '--json'])).stdout)
    expect(stats.findings).toContainEqual(expect.objectContaining({ kind: 'unreadable-parquet', path: victim, message: 'planted' }))
    const validateAfter = await cli(['validate', root, '--json'])
    expect(validateAfter.stdout).toBe(validateBefore.stdout)
  })

  it('rerunning index reuses what the index still describes and writes the same bytes', async () => {
    const root = join(await copy('dataprep'), 'version=0')
    await cli(['index', root])
    const first = await readFile(join(root, indexFileName))
    const again = await cli(['index', root])
    expect(again.stderr).toMatch(/\(\d+ from the previous index, 0 read\)/)
    expect(await readFile(join(root, indexFileName))).toEqual(first)
    const full = await cli(['index', root, '--full'])
    expect(full.stderr).toMatch(/\(0 from the previous index, \d+ read\)/)
    expect(await readFile(join(root, indexFileName))).toEqual(first)
  })

  it('slices of units (what a shard builds) concatenate to the whole index, byte for byte', async () => {
    const root = join(await copy('broken'), 'version=0')
    const dataset = await openDataset(await createFsSource(root), { useIndex: false })
    const units = indexUnits(dataset)
    expect(units.length).toBeGreaterThan(dataset.files.length)
    const cuts = [0, 3, 7, units.length]
    const parts = []
    for (let i = 0; i + 1 < cuts.length; i++) parts.push(...await buildIndexRows(dataset, { units: units.slice(cuts[i], cuts[i + 1]) }))
    expect(parts).toEqual(indexRowsOf(dataset))
    await cli(['index', root])
    expect(writeDatasetIndex(parts)).toEqual(new Uint8Array(await readFile(join(root, indexFileName))))
  })
})

describe('an HTTP root with an index', () => {
  it('needs no manifest: the index (one request) and the TSV beside the root, then stats equal to a full local read', async () => {
    const top = await copy('dataprep')
    const root = join(top, 'version=0')
    await cli(['index', root])
    const server = await startStaticServer({ root: top })
    try {
      const source = createCountingSource(createHttpSource(`${server.url}version=0/`))
      const dataset = await openDataset(source, { facts: true })
      const stats = await computeStats(dataset)
      expect(source.counters.requests).toBe(2) // the index, then language_distribution_0.tsv beside the root
      expect(server.requests).toBe(2)
      const local = await computeStats(await openDataset(await createFsSource(root), { useIndex: false }))
      expect(stats.partitions).toEqual(local.partitions)
      expect(stats.totals).toEqual(local.totals)
    } finally {
      await server.close()
    }
  })

  it('with neither an index nor a manifest, says how to make one', async () => {
    const top = await copy('dataprep')
    const server = await startStaticServer({ root: top })
    try {
      const run = await cli(['stats', `${server.url}version=0/`])
      expect(run.code).toBe(2)
      expect(run.stderr).toMatch(/neither .*version=0\/_mixscope_index.parquet nor _manifest.json found \(404\)/)
      expect(run.stderr).toMatch(/mixscope index <folder>/)
    } finally {
      await server.close()
    }
  })
})
