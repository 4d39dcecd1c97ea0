/**
 * The dataset-level checks run on rows held as columns (src/engine/audit/rows/row-table.ts), in the merge and in the
 * unsharded audit. What that could get wrong, on a dataset made for it: sums of a non-integer `audio_size` whose
 * value depends on the order they are added in, null `audio_size` cells, rows without a corpus or language key,
 * a split value with `_`, one language spread over files interleaved with others, a train transcript held by several
 * rows (the "and N more train rows" count), files cut by shard boundaries. The merged document must be the unsharded
 * one byte for byte for 1–6 shards, and the unsharded one must agree with DuckDB's rows on rows and hours per partition and split.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatJson } from '../../src/cli/lib/io.ts'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import { mergeAuditParts } from '../../src/engine/audit/partial/merge.ts'
import { auditShard } from '../../src/engine/audit/partial/shard.ts'
import type { AuditPart } from '../../src/engine/audit/partial/types.ts'
import { parsePart, stringifyPart } from '../../src/engine/shard/part.ts'
import { query, writeParquet } from '../helpers/duckdb.ts'
import { openFixture } from '../audit/helpers.ts'

let dir: string
let root: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-columns-'))
  root = join(dir, 'version=0')
  // audio_size as DOUBLE with fractions: 0.1-steps do not add up the same in every order
  const size = (k: number) => `CASE WHEN i % 7 = 3 THEN NULL ELSE 16000.1 + ((i * ${k}) % 13) * 8000.3 END`
  const text = (language: string) => `CASE WHEN i % 5 = 0 THEN 'same words ${language}' WHEN i % 4 = 1 THEN '' ELSE 'row ' || i || ' of ${language}' END`
  for (const [corpus, languages] of [['a', ['eng_Latn', 'fra_Latn']], ['b', ['fra_Latn', 'eng_Latn']]] as const) {
    for (const language of languages) {
      for (const split of ['train', 'dev', 'dev_extra']) {
        for (let f = 0; f < 2; f++) {
          await writeParquet(join(root, `corpus=${corpus}`, `split=${split}`, `language=${language}`, `part-${f}.parquet`),
            `SELECT ${text(language)} AS text, '\\x00'::BLOB AS audio_bytes, ${size(f + 3)}::DOUBLE AS audio_size FROM range(${7 + 3 * f}) t(i)`, 'ROW_GROUP_SIZE 3')
        }
      }
    }
  }
  // rows without a language key, and without a corpus key
  await writeParquet(join(root, 'corpus=a/split=train/part-0.parquet'), `SELECT 'no language ' || i AS text, '\\x00'::BLOB AS audio_bytes, ${size(5)}::DOUBLE AS audio_size FROM range(8) t(i)`, 'ROW_GROUP_SIZE 3')
  await writeParquet(join(root, 'split=dev/language=eng_Latn/part-0.parquet'), `SELECT 'same words eng_Latn' AS text, '\\x00'::BLOB AS audio_bytes, ${size(2)}::DOUBLE AS audio_size FROM range(5) t(i)`, 'ROW_GROUP_SIZE 2')
})
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

describe('checks on columns', () => {
  it('the non-integer sums really depend on the order of addition (else this dataset proves nothing about it)', async () => {
    const values = (await query(`SELECT audio_size FROM read_parquet('${root}/**/*.parquet') WHERE audio_size IS NOT NULL`)).map((r) => Number(r.audio_size))
    const forward = values.reduce((a, b) => a + b, 0)
    const sorted = [...values].sort((a, b) => b - a).reduce((a, b) => a + b, 0)
    expect(forward).not.toBe(sorted)
  })

  it('merged = unsharded, byte for byte, for 1 to 6 shards; rows and hours per partition and split as summed from the rows DuckDB reads, in dataset order', async () => {
    const whole = await auditDataset(await openFixture(root), { quick: false })
    const text = formatJson(whole)
    for (let n = 1; n <= 6; n++) {
      const parts = []
      for (let i = n - 1; i >= 0; i--) {
        const part = await auditShard(await openFixture(root), { index: i, count: n }, { quick: false })
        parts.push({ name: `part-${i}.json`, header: parsePart(`part-${i}.json`, stringifyPart(part)) as AuditPart })
      }
      expect(formatJson(await mergeAuditParts(parts)), `${n} shards`).toBe(text)
    }
    // what the dataset was made to contain
    expect(whole.summary['transcript-leakage']?.count).toBeGreaterThan(0)
    expect(whole.findings.some((f) => f.kind === 'transcript-leakage' && / and [2-9] more train rows /.test(f.message))).toBe(true)
    expect(whole.summary['unselectable-split']?.count).toBe(1)
    expect(whole.summary['empty-text']?.count).toBeGreaterThan(0)
    // rows and hours per (corpus, language, split) of the keyed rows from DuckDB's rows, added in dataset order
    // (path bytes, then row) as the reference's sums are: exact, so a sum in another order shows
    const key = (k: string) => `regexp_extract(filename, '/${k}=([^/]+)/', 1)`
    const rows = await query(`SELECT ${key('corpus')} AS corpus, ${key('language')} AS language, ${key('split')} AS split, audio_size
      FROM read_parquet('${root}/**/*.parquet', filename = true, file_row_number = true) ORDER BY filename, file_row_number`)
    const cells = new Map<string, { corpus: unknown; language: unknown; split: unknown; rows: number; samples: number }>()
    for (const r of rows) {
      if (r.corpus === '' || r.language === '') continue
      const id = `${r.corpus} ${r.language} ${r.split}`
      let c = cells.get(id)
      if (!c) cells.set(id, c = { corpus: r.corpus, language: r.language, split: r.split, rows: 0, samples: 0 })
      c.rows++
      c.samples += r.audio_size === null ? 0 : Number(r.audio_size)
    }
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1)
    const ours = (whole.tables.splits ?? []).map((r) => ({ id: `${r.corpus} ${r.language} ${r.split}`, rows: r.rows, hours: r.hours })).sort(byId)
    const theirs = [...cells].map(([id, c]) => ({ id, rows: c.rows, hours: c.samples / 16000 / 3600 })).sort(byId)
    expect(ours).toEqual(theirs)
  }, 120_000)
})
