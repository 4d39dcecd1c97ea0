/**
 * Whitespace-only transcripts: `blank-text`, against Python's `str.isspace()` (python3, the reference's own notion of
 * whitespace) and DuckDB-written parquet, in the whole audit and in merged shard parts.
 */
import { execFileSync } from 'node:child_process'
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
import { isBlank, measuredBlank, measuredChars, textMeasure } from '../../src/engine/text/unicode.ts'
import { writeParquet } from '../helpers/duckdb.ts'
import { openFixture, where } from './helpers.ts'

/** Python's answer for every code point: the ones `chr(c).isspace()` holds for. */
function pythonSpaces(): Set<number> {
  const out = execFileSync('python3', ['-c', 'import sys; print(" ".join(str(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()))'])
  return new Set(out.toString().trim().split(' ').map(Number))
}

// transcripts: blank ones of several kinds of space, and lookalikes that are not blank
const texts = [
  'hello world', ' ', '   ', '\t\n', '\u00a0', '\u3000\u3000', '\u2009 \u202f', '', '\u200b', ' a ', '\ufeff', '\u180e', 'x',
  'ok then', '\x1c', '  .  ', 'more words here', 'and more', 'still speaking', 'the end',
]

let dir: string
let root: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-blank-'))
  root = join(dir, 'version=0')
  const values = texts.map((t, i) => `(${i}, '${t.replaceAll("'", "''")}')`).join(', ')
  // 3 s of stored audio a row (48,000 samples), two row groups, so that two shards each see some
  await writeParquet(join(root, 'corpus=c/split=train/language=eng_Latn/part-0.parquet'),
    `SELECT ''::BLOB AS audio_bytes, 48000::BIGINT AS audio_size, text FROM (VALUES ${values}) t(i, text) ORDER BY i`, 'ROW_GROUP_SIZE 10')
})
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

describe('blank transcripts', () => {
  it('isBlank is Python\'s str.isspace() on every code point', () => {
    const spaces = pythonSpaces()
    const mismatched: number[] = []
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue
      if (isBlank(String.fromCodePoint(c)) !== spaces.has(c)) mismatched.push(c)
    }
    expect(mismatched).toEqual([])
    expect(isBlank('')).toBe(false)
  })

  it('textMeasure keeps the code points of a blank transcript and marks it', () => {
    for (const t of ['\u3000\u3000', ' ', 'a b', '', '😀 ']) {
      const m = textMeasure(t)
      expect(measuredChars(m)).toBe(Array.from(t).length)
      expect(measuredBlank(m)).toBe(t.length > 0 && t.trim() === '' && t !== '\ufeff')
    }
    expect(textMeasure(null)).toBe(-1)
    expect(measuredChars(-1)).toBe(-1)
  })

  it('the audit reports exactly the rows Python calls blank, as blank-text and nothing else of the text checks', async () => {
    const report = await auditDataset(await openFixture(root), {})
    const spaces = pythonSpaces()
    const expected = texts.flatMap((t, i) => (t.length > 0 && Array.from(t).every((c) => spaces.has(c.codePointAt(0)!)) ? [i] : []))
    expect(expected).toEqual([1, 2, 3, 4, 5, 6, 14])
    const path = 'corpus=c/split=train/language=eng_Latn/part-0.parquet'
    expect(where(report.findings, 'blank-text').sort()).toEqual(expected.map((i) => `${path}:${i}`).sort())
    expect(where(report.findings, 'empty-text')).toEqual([`${path}:7`])
    // a blank row is not rated, so never a speaking-rate outlier on its whitespace
    const rated = where(report.findings, 'speaking-rate-outlier')
    for (const i of expected) expect(rated).not.toContain(`${path}:${i}`)
    const blank = report.findings.find((f) => f.kind === 'blank-text' && f.row === 5)!
    expect(blank.message).toContain('only whitespace (2 characters)')
    expect(blank.message).toContain('3.00 s of audio')
    expect(report.summary['blank-text']).toMatchObject({ severity: 'warning', count: 7 })
  })

  it('merged shard parts give the same report as the whole audit', async () => {
    const whole = formatJson(await auditDataset(await openFixture(root), {}))
    const parts = []
    for (let i = 1; i >= 0; i--) {
      const part = await auditShard(await openFixture(root), { index: i, count: 2 }, {})
      parts.push({ name: `part-${i}.json`, header: parsePart(`part-${i}.json`, stringifyPart(part)) as AuditPart })
    }
    const merged = await mergeAuditParts(parts)
    expect(where(merged.findings, 'blank-text')).toHaveLength(7)
    expect(formatJson(merged)).toBe(whole)
  })
})
