/**
 * The progressive open's row checks with a spill (src/engine/validate/open-progressive.ts `spill`, as the explorer
 * worker passes the OPFS one, worker/browser-spill.ts): on a DuckDB-written dataset with 2,400 null transcripts in 12 files the
 * final validation is the one an open without a spill makes, and DuckDB's count of null rows; the findings went to
 * the spill (bytes appended, then taken, then closed); every snapshot before the end lists at most 1,000 of a kind
 * and counts the rest.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { openProgressive } from '../../src/engine/validate/open-progressive.ts'
import { memoryBuckets, type ByteBuckets } from '../../src/engine/core/byte-buckets.ts'
import type { OpenResult, OpenResultMessage } from '../../src/engine/validate/open-types.ts'
import { query, writeParquet } from '../helpers/duckdb.ts'

describe('the open\'s row-check findings spill', () => {
  let root = ''
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mixscope-open-spill-'))
    for (const language of Array.from({ length: 12 }, (_, i) => `l${String.fromCharCode(97 + i)}a_Latn`)) {
      await writeParquet(join(root, `version=0/corpus=c/split=train/language=${language}/part-0.parquet`), `
        SELECT CASE WHEN i % 3 = 0 THEN NULL ELSE 'row ' || i END AS text, (16000 + i)::BIGINT AS audio_size, '\\x00'::BLOB AS audio_bytes
        FROM range(600) t(i)`, 'ROW_GROUP_SIZE 2048')
    }
  })
  afterAll(async () => { await rm(root, { recursive: true, force: true }) })

  async function open(spill?: () => Promise<ByteBuckets>): Promise<{ final: OpenResultMessage; snapshots: OpenResult[] }> {
    const snapshots: OpenResult[] = []
    const final = await openProgressive(await createFsSource(join(root, 'version=0')), { now: () => 0, keep: () => 1, onSnapshot: (s) => snapshots.push(s), spill })
    return { final, snapshots }
  }

  test('the same validation, DuckDB\'s null rows, held in the spill until the end', async () => {
    const used = { appended: 0, taken: 0, closed: false }
    const spill = async (): Promise<ByteBuckets> => {
      const inner = memoryBuckets()
      return {
        append: async (bucket, bytes) => { used.appended += bytes.length; await inner.append(bucket, bytes) },
        take: async (bucket) => { const bytes = await inner.take(bucket); used.taken += bytes.length; return bytes },
        close: async () => { used.closed = true; await inner.close() },
      }
    }
    const spilled = await open(spill)
    const held = await open()
    expect(spilled.final.validation).toEqual(held.final.validation)
    const [{ n }] = await query(`SELECT count(*) AS n FROM read_parquet('${root}/**/*.parquet') WHERE text IS NULL`)
    expect(n).toBe(2400)
    expect(spilled.final.validation.finding_counts['null-value']).toEqual({ severity: 'error', total: 2400, shown: 1000 })
    expect(spilled.final.validation.findings.filter((f) => f.kind === 'null-value')).toHaveLength(1000)
    expect(used.appended).toBeGreaterThan(2400 * 50)
    expect(used.taken).toBe(used.appended)
    expect(used.closed).toBe(true)
    // some snapshot before the end counted more than it listed
    expect(spilled.snapshots.some((s) => (s.validation.finding_counts['null-value']?.total ?? 0) > 1000)).toBe(true)
    for (const s of spilled.snapshots) {
      const c = s.validation.finding_counts['null-value']
      if (!c) continue
      // each checked file holds 200 null transcripts (DuckDB's count / 12)
      expect(c.total).toBe(200 * s.validation.files_checked)
      expect(c.shown).toBe(Math.min(1000, c.total))
      expect(s.validation.findings.filter((f) => f.kind === 'null-value')).toHaveLength(c.shown)
      expect(s.validation.findings_omitted).toBe(Object.values(s.validation.finding_counts).reduce((k, x) => k + x.total - x.shown, 0))
    }
  })
})
