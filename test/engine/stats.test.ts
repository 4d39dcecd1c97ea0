import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createCountingSource } from '../../src/engine/source/counting-source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { computeStats, hoursOf } from '../../src/engine/dataset/stats.ts'
import { validateDataset } from '../../src/engine/validate/validate.ts'
import { statsTsv } from '../../src/cli/commands/stats.ts'
import { compareUtf8 } from '../../src/engine/core/findings.ts'
import { query, writeParquet } from '../helpers/duckdb.ts'

let parent: string
let root: string

// 3 corpora × languages × splits with unequal sizes; incompressible ~12 KB audio payloads so byte ratios mean something
const tableSql = `SELECT 'text ' || i AS text,
  (SELECT list(((hash(i * 100003 + j) % 256)::INTEGER - 128)::TINYINT) FROM range(12000 + (i % 7) * 500) t(j)) AS audio_bytes,
  (16000 + i * 97)::BIGINT AS audio_size,
  ['mls', 'fleurs', 'cv'][1 + i % 3] AS corpus,
  CASE WHEN i % 5 = 0 THEN 'dev' ELSE 'train' END AS split,
  ['eng_Latn', 'fra_Latn', 'hin_Deva', 'rus_Cyrl'][1 + (i // 3) % 4] AS language
  FROM range(600) r(i) WHERE NOT (i % 3 = 2 AND (i // 3) % 4 = 3)`

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'mixscope-stats-'))
  root = join(parent, 'version=0')
  await writeParquet(root, tableSql, 'PARTITION_BY (corpus, split, language), COMPRESSION snappy')
  await writeFile(join(parent, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\nmls\teng_Latn\t0.5\nfleurs\tswh_Latn\t1\n')
})
afterAll(async () => {
  await rm(parent, { recursive: true, force: true })
})

describe('stats', () => {
  it('matches DuckDB per partition folder and in total', async () => {
    const ds = await openDataset(await createFsSource(root))
    const report = await computeStats(ds)
    const expected = await query(`SELECT corpus, language, split, count(DISTINCT filename) AS files, count(*) AS rows, sum(audio_size) AS samples
      FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true, filename = true) GROUP BY ALL`)
    const key = (p: { corpus: unknown; language: unknown; split: unknown }) => `${p.corpus}/${p.language}/${p.split}`
    const want = new Map(expected.map((e) => [key(e as never), e]))
    expect(report.partitions.length).toBe(expected.length)
    for (const p of report.partitions) {
      const e = want.get(key(p))!
      expect(p.rows, key(p)).toBe(e.rows)
      expect(p.samples, key(p)).toBe(e.samples)
      expect(p.files).toBe(e.files)
      expect(p.hours).toBe(hoursOf(e.samples as number))
      expect(p.row_groups).toBeGreaterThanOrEqual(1)
    }
    expect(report.totals.rows).toBe(expected.reduce((n, e) => n + (e.rows as number), 0))
    expect(report.totals.samples).toBe(expected.reduce((n, e) => n + (e.samples as number), 0))
    // partitions follow the sorted file list (docs/conventions.md: this order defines everything downstream)
    const folders = report.partitions.map((p) => `corpus=${p.corpus}/split=${p.split}/language=${p.language}`)
    expect(folders).toEqual([...folders].sort(compareUtf8))
  })
  it('compares with the TSV beside version=0', async () => {
    const ds = await openDataset(await createFsSource(root))
    const report = await computeStats(ds)
    expect(report.summary!.path).toBe('../language_distribution_0.tsv')
    const kinds = report.findings.map((f) => f.kind)
    expect(kinds).toContain('tsv-hours-mismatch') // mls/eng_Latn 0.5 h is wrong
    expect(kinds).toContain('tsv-row-without-data') // fleurs/swh_Latn
    expect(report.findings.filter((f) => f.kind === 'missing-from-tsv')).toHaveLength(10) // 11 pairs, 1 listed
  })
  it('reads only footers and audio_size chunks: under 2% of the bytes, one footer request per file', async () => {
    const source = createCountingSource(await createFsSource(root))
    const ds = await openDataset(source)
    const afterFooters = source.counters.requests
    const report = await computeStats(ds)
    const totalBytes = ds.files.reduce((n, f) => n + f.size, 0)
    expect(afterFooters).toBeLessThanOrEqual(ds.files.length + 2) // + TSV lookups
    const groups = ds.files.reduce((n, f) => n + f.rowGroups.length, 0)
    expect(source.counters.requests - afterFooters).toBeLessThanOrEqual(groups)
    expect(source.counters.bytes / totalBytes).toBeLessThan(0.02)
    expect(report.totals.rows).toBeGreaterThan(0)
  })
  it('writes the TSV sorted by corpus then language over all splits, full precision', async () => {
    const ds = await openDataset(await createFsSource(root))
    const report = await computeStats(ds)
    const lines = statsTsv(report).trim().split('\n')
    expect(lines[0]).toBe('corpus\tlanguage\thours')
    const rows = lines.slice(1).map((l) => l.split('\t'))
    expect(rows.map((r) => `${r[0]} ${r[1]}`)).toEqual(rows.map((r) => `${r[0]} ${r[1]}`).sort(compareUtf8))
    const expected = await query(`SELECT corpus, language, sum(audio_size) AS samples FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true) GROUP BY ALL`)
    for (const [corpus, language, hours] of rows) {
      const e = expected.find((x) => x.corpus === corpus && x.language === language)!
      expect(Number(hours)).toBe((e.samples as number) / 16000 / 3600)
    }
  })
})

describe('validate', () => {
  it('is clean apart from TSV findings on good data, and counts rows', async () => {
    const ds = await openDataset(await createFsSource(root))
    const report = await validateDataset(ds, { deep: false })
    expect(report.rows_checked).toBe(ds.files.reduce((n, f) => n + f.rows, 0))
    expect(report.findings.filter((f) => !f.kind.startsWith('tsv-') && f.kind !== 'missing-from-tsv')).toEqual([])
  })
  it('finds nulls, empty audio, bad types, and keys only as columns in one pass', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mixscope-broken-'))
    try {
      await writeParquet(join(dir, 'corpus=a/split=train/language=eng_Latn/part-0.parquet'),
        `SELECT * FROM (VALUES ('ok', [1, 2]::TINYINT[], 10::BIGINT), (NULL, [1]::TINYINT[], 10::BIGINT), ('e', []::TINYINT[], 5::BIGINT), ('n', NULL, NULL)) t(text, audio_bytes, audio_size)`)
      await writeParquet(join(dir, 'corpus=a/split=train/language=fra_Latn/part-0.parquet'),
        `SELECT 'x' AS text, [1]::TINYINT[] AS audio_bytes, '12' AS audio_size, 'dev' AS split`)
      await writeParquet(join(dir, 'corpus=b/part-0.parquet'),
        `SELECT 'x' AS text, [1]::TINYINT[] AS audio_bytes, 7::BIGINT AS audio_size, 'train' AS split, 'deu_Latn' AS language`)
      await writeFile(join(dir, 'corpus=b/broken.parquet'), 'PAR1 this is not really parquet')
      const ds = await openDataset(await createFsSource(dir))
      const report = await validateDataset(ds)
      const got = report.findings.map((f) => `${f.kind}@${f.path}:${f.row}`)
      expect(got).toEqual(expect.arrayContaining([
        'null-value@corpus=a/split=train/language=eng_Latn/part-0.parquet:1',
        'null-value@corpus=a/split=train/language=eng_Latn/part-0.parquet:3',
        'empty-audio@corpus=a/split=train/language=eng_Latn/part-0.parquet:2',
        'column-type@corpus=a/split=train/language=fra_Latn/part-0.parquet:null',
        'key-column-mismatch@corpus=a/split=train/language=fra_Latn/part-0.parquet:0',
        'key-only-in-column@corpus=b/part-0.parquet:null',
        'unreadable-parquet@corpus=b/broken.parquet:null',
      ]))
      expect(report.findings.find((f) => f.kind === 'column-type')!.message).toContain('audio_size is string')
      // the good partitions are still counted
      const stats = await computeStats(ds)
      expect(stats.partitions.map((p) => `${p.corpus}/${p.split}/${p.language}:${p.rows}`)).toEqual([
        'a/train/eng_Latn:4', 'a/train/fra_Latn:1', 'b/train/deu_Latn:1'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
