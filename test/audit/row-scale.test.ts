/**
 * The audit's row checks in bounded memory (src/engine/audit/metadata-pass.ts): on a generated 10^5-row dataset
 * (60 languages, Zipf-like, splits 80/10/10, one row in 23 reading one of 400 shared sentences in varied case and
 * spacing, null and empty transcripts), the `transcript-leakage` rows are exactly DuckDB's held-out rows whose
 * normalized transcript equals a train row's of their language; a tiny row budget spilled to files (many
 * partitions) gives the same document byte for byte as one partition in memory, and leaves no temporary file.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatJson } from '../../src/cli/lib/io.ts'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import type { RowSpill } from '../../src/engine/audit/rows/spill.ts'
import { createFileSpill } from '../../src/engine/node/file-spill.ts'
import { duck, query } from '../helpers/duckdb.ts'
import { openFixture } from './helpers.ts'

const rows = 100_000
let dir: string
let root: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-row-scale-'))
  root = join(dir, 'version=0')
  const u = (salt: number) => `((hash(i * 7919 + ${salt}) % 1000003)::DOUBLE / 1000003.0)`
  const language = `'l' || lpad((floor(exp(${u(1)} * ln(61)))::INTEGER - 1)::VARCHAR, 2, '0') || '_Latn'`
  const split = `CASE WHEN ${u(2)} < 0.8 THEN 'train' WHEN ${u(3)} < 0.5 THEN 'dev' ELSE 'test' END`
  const shared = `['Shared  sentence ', 'shared sentence ', ' SHARED sentence\t'][1 + (i % 3)::INTEGER] || ((i // 23) % 400)`
  const text = `CASE WHEN i % 997 = 5 THEN NULL WHEN i % 991 = 6 THEN '' WHEN i % 983 = 7 THEN '   ' WHEN i % 23 = 0 THEN ${shared} ` +
    `ELSE 'utterance ' || i || ' of ' || (hash(i) % 1000) END`
  const c = await duck()
  await c.run(`COPY (SELECT ['a', 'b'][1 + (i % 2)::INTEGER] AS corpus, ${split} AS split, ${language} AS language, ${text} AS text,
      '\\x00'::BLOB AS audio_bytes, (16000 + hash(i + 8) % 300000)::BIGINT AS audio_size FROM range(${rows}) t(i) ORDER BY corpus, split, language, i)
    TO '${root}' (FORMAT parquet, PARTITION_BY (corpus, split, language), ROW_GROUP_SIZE 500, FILENAME_PATTERN 'part-{i}')`)
}, 120_000)
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

/** A file spill that counts the buckets it was given. */
async function countingSpill(into: string, seen: Set<number>): Promise<RowSpill> {
  const spill = await createFileSpill(into)
  return { ...spill, append: (bucket, bytes) => { seen.add(bucket); return spill.append(bucket, bytes) } }
}

describe('row checks at scale', () => {
  it('finds exactly the held-out rows DuckDB finds sharing a normalized transcript with a train row of their language', async () => {
    const report = await auditDataset(await openFixture(root), { quick: false })
    const normalized = `trim(regexp_replace(lower(nfc_normalize(text)), '\\s+', ' ', 'g'))`
    const truth = await query(`WITH t AS (SELECT filename, file_row_number AS row, split, language, ${normalized} AS n
        FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true, filename = true, file_row_number = true) WHERE text IS NOT NULL AND text <> '')
      SELECT h.filename, h.row FROM t h SEMI JOIN (SELECT DISTINCT language, n FROM t WHERE split = 'train') r ON r.language = h.language AND r.n = h.n
      WHERE h.split <> 'train' AND h.n <> ''`)
    const expected = truth.map((r) => `${String(r.filename).slice(root.length + 1)}:${r.row}`).sort()
    const found = report.findings.filter((f) => f.kind === 'transcript-leakage').map((f) => `${f.path}:${f.row}`).sort()
    expect(expected.length).toBeGreaterThan(100)
    expect(found).toEqual(expected)
    expect(report.totals.rows).toBe(rows)
    // the per-language table counts every held-out row with a transcript, leaked or not
    const heldOut = await query(`SELECT count(*) AS n FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true) WHERE split <> 'train' AND text <> ''`)
    const table = report.tables.leakage
    expect(table.reduce((n, r) => n + Number(r.rows), 0)).toBe(heldOut[0].n)
    expect(table.reduce((n, r) => n + Number(r.leaked_rows), 0)).toBe(expected.length)
  }, 120_000)

  it('a tiny row budget spilled to files gives the same document as one partition in memory', async () => {
    const whole = formatJson(await auditDataset(await openFixture(root), { quick: false }))
    const spillDir = await mkdtemp(join(tmpdir(), 'mixscope-spill-test-'))
    try {
      const buckets = new Set<number>()
      const spilled = await auditDataset(await openFixture(root), { quick: false, rowBudget: 4_000, spill: () => countingSpill(spillDir, buckets) })
      expect(buckets.size).toBeGreaterThan(10)
      expect(formatJson(spilled)).toBe(whole)
      expect(await readdir(spillDir)).toEqual([])
    } finally {
      await rm(spillDir, { recursive: true, force: true })
    }
  }, 120_000)
})
