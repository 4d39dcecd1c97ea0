/**
 * The cheap audio check's findings in bounded memory (src/engine/audit/quick-audio.ts `QuickFindings`): on a
 * DuckDB-written dataset with thousands of undecodable rows, a check holding 10 full items gives, through
 * `forEachQuickItem`, exactly the items of a check holding all of them, and their rows are DuckDB's (null or
 * non-audio bytes); the audit's report lists every one of them (no cap) and counts them; the Examples' flags of rows
 * past the held ones have the held ones' kinds and severities.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { forEachQuickItem, quickAudioCheck, quickRowFindings } from '../../src/engine/audit/quick-audio.ts'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import type { AuditItem } from '../../src/engine/audit/rows/types.ts'
import { query, writeParquet } from '../helpers/duckdb.ts'

/** A 16 kHz mono 16-bit WAV of `n` samples (header written here, by RIFF's layout). */
function wav(n: number): string {
  const data = n * 2
  const b = Buffer.alloc(44 + data)
  b.write('RIFF', 0); b.writeUInt32LE(36 + data, 4); b.write('WAVE', 8); b.write('fmt ', 12); b.writeUInt32LE(16, 16)
  b.writeUInt16LE(1, 20); b.writeUInt16LE(1, 22); b.writeUInt32LE(16000, 24); b.writeUInt32LE(32000, 28); b.writeUInt16LE(2, 32); b.writeUInt16LE(16, 34)
  b.write('data', 36); b.writeUInt32LE(data, 40)
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(1000 * Math.sin(i / 5)), 44 + 2 * i)
  return b.toString('hex')
}

describe('the cheap audio check holds its findings in bounded memory', () => {
  let root = ''
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mixscope-quick-bounded-'))
    for (const language of ['aaa_Latn', 'bbb_Latn', 'ccc_Latn']) {
      await writeParquet(join(root, `version=0/corpus=c/split=train/language=${language}/part-0.parquet`), `
        SELECT 'row ' || i AS text, (16000 + i)::BIGINT AS audio_size,
          CASE WHEN i % 4 = 0 THEN from_hex('${wav(64)}') WHEN i % 4 = 1 THEN NULL ELSE ('x' || i)::BLOB END AS audio_bytes
        FROM range(1500) t(i)`, 'ROW_GROUP_SIZE 2048')
    }
  })
  afterAll(async () => { await rm(root, { recursive: true, force: true }) })

  test('10 held items and positions give every item of the whole list, DuckDB\'s rows, the same report', async () => {
    const dataset = await openDataset(await createFsSource(join(root, 'version=0')))
    const all = async (held: number) => {
      const result = await quickAudioCheck(dataset, { heldItems: held })
      const items: AuditItem[] = []
      await forEachQuickItem(dataset, result, (item) => { items.push(item) })
      return { result, items }
    }
    const bounded = await all(10)
    const whole = await all(Infinity)
    expect(bounded.result.findings.first).toHaveLength(10)
    expect(whole.result.findings.first).toHaveLength(whole.items.length)
    expect(bounded.items).toEqual(whole.items)
    expect(bounded.result.findings.counts).toEqual(whole.result.findings.counts)
    const want = await query(`SELECT filename, file_row_number, audio_size FROM read_parquet('${root}/**/*.parquet', filename = true, file_row_number = true)
      WHERE audio_bytes IS NULL OR audio_bytes <> from_hex('${wav(64)}') ORDER BY filename, file_row_number`)
    const idOf = (r: Record<string, unknown>) => `${String(r.filename).slice(root.length + '/version=0/'.length)}:${r.file_row_number}`
    expect(want.length).toBe(3 * 1125)
    expect(bounded.items.map((i) => `${i.finding.path}:${i.finding.row}`)).toEqual(want.map(idOf))
    expect(bounded.items.every((i) => i.finding.kind === 'undecodable-audio')).toBe(true)
    expect(bounded.result.findings.counts).toEqual({ 'undecodable-audio': { rows: want.length, samples: want.reduce((n, r) => n + Number(r.audio_size), 0) } })
    // the Examples' flags: the same rows, kinds and severities
    const flags = quickRowFindings(bounded.result).map(({ finding: f }) => [`${f.path}:${f.row}`, f.kind, f.severity])
    expect(flags).toEqual(whole.items.map(({ finding: f }) => [`${f.path}:${f.row}`, f.kind, f.severity]))
    // the audit (its check cached per dataset, default 1,000 held) lists and counts every one
    const report = await auditDataset(dataset, { quick: true, maxFindingsPerKind: Infinity })
    const listed = report.findings.filter((f) => f.kind === 'undecodable-audio')
    expect(listed.map((f) => `${f.path}:${f.row}`)).toEqual(want.map(idOf))
    expect(listed.map((f) => f.message)).toEqual(whole.items.map((i) => i.finding.message))
    expect(report.finding_counts['undecodable-audio'].total).toBe(want.length)
  })
})
