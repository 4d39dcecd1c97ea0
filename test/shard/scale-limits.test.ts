/**
 * Sizes a real corpus reaches and a small fixture does not: one language with 150,000 rows, every one of them
 * flagged (empty transcript), is more than a JavaScript call takes as spread arguments. The audit and the merge of
 * its shards must neither overflow the stack nor lose a finding.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatJson } from '../../src/cli/lib/io.ts'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import { mergeAuditParts } from '../../src/engine/audit/partial/merge.ts'
import { auditShard } from '../../src/engine/audit/partial/shard.ts'
import { parsePart, stringifyPart } from '../../src/engine/shard/part.ts'
import type { AuditPart } from '../../src/engine/audit/partial/types.ts'
import { writeParquet } from '../helpers/duckdb.ts'
import { openFixture } from '../audit/helpers.ts'

const rows = 150_000
let dir: string
let root: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-scale-'))
  root = join(dir, 'version=0')
  // half the rows with an empty transcript (a finding each), the rest rated: 75,000 rates in one language
  await writeParquet(join(root, 'corpus=a/split=train/language=eng_Latn/part-0.parquet'),
    `SELECT CASE WHEN i % 2 = 0 THEN '' ELSE 'word ' || i END AS text, '\\x00'::BLOB AS audio_bytes, (16000 + i)::BIGINT AS audio_size FROM range(${rows}) t(i)`,
    'ROW_GROUP_SIZE 10000')
  await writeParquet(join(root, 'corpus=a/split=dev/language=eng_Latn/part-0.parquet'),
    `SELECT 'word ' || i AS text, '\\x00'::BLOB AS audio_bytes, 16000::BIGINT AS audio_size FROM range(${rows}) t(i)`, 'ROW_GROUP_SIZE 10000')
})
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

describe('audit at scale', () => {
  it('audits and merges 300,000 rows with 150,000+ findings in one language', async () => {
    const whole = await auditDataset(await openFixture(root))
    expect(whole.summary['empty-text'].count).toBe(rows / 2)
    expect(whole.summary['transcript-leakage'].count).toBe(rows / 2)
    const parts = []
    for (let i = 0; i < 3; i++) {
      const part = await auditShard(await openFixture(root), { index: i, count: 3 })
      parts.push({ name: `p${i}`, header: parsePart(`p${i}`, stringifyPart(part)) as AuditPart })
    }
    expect(formatJson(await mergeAuditParts(parts))).toBe(formatJson(whole))
  }, 120_000)
})
