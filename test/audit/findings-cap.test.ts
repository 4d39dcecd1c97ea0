/**
 * Findings past a cap per kind (docs/conventions.md "Findings and exit codes"): the collector's counts are exact, its
 * first N of a kind are the whole list's first N, the full stream equals the uncapped list, and it holds the
 * findings in its buckets, not in memory; `audit` / `validate` with `--max-findings-per-kind` and `--findings` give
 * the uncapped run's findings in the file, its first N in `--json`, and still exit 1 on an error they leave out.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { capFindings, FindingsCollector, type FindingItem } from '../../src/engine/core/findings-sink.ts'
import { memoryBuckets, type ByteBuckets } from '../../src/engine/core/byte-buckets.ts'
import { finding, sortFindings, uniqueFindings, type Finding } from '../../src/engine/core/findings.ts'
import { flaggedRowsJsonl } from '../../src/engine/audit/flagged.ts'
import { capAuditReport, parseSavedAudit } from '../../src/engine/audit/saved.ts'
import { createFileSpill } from '../../src/engine/node/file-spill.ts'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { runCli } from '../helpers/run-cli.ts'
import { writeParquet } from '../helpers/duckdb.ts'
import { auditFixture } from './helpers.ts'

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'mixscope-cap-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

/** `n` findings of a few kinds over a few files, in a shuffled order, with some exact duplicates. */
function someFindings(n: number, seed: number): Finding[] {
  const random = mulberry32(seed)
  const kinds = [['empty-text', 'warning'], ['null-value', 'error'], ['fast-speech', 'warning'], ['odd-thing', 'info']] as const
  const out: Finding[] = []
  for (let i = 0; i < n; i++) {
    const [kind, severity] = kinds[Math.floor(random() * (i % 7 === 0 ? 1 : kinds.length))]
    const path = random() < 0.05 ? '' : `corpus=a/split=train/language=l${Math.floor(random() * 5)}/part-${Math.floor(random() * 3)}.parquet`
    const row = path === '' ? null : Math.floor(random() * 500)
    out.push(finding(severity, kind, path, `${kind} at ${path}:${row}`, { row, row_group: row === null ? null : Math.floor(row / 100) }))
    if (random() < 0.1) out.push({ ...out[out.length - 1] })
  }
  return out
}

const item = (f: Finding): FindingItem => ({ finding: f, rows: 1, samples: 16000, corpus: 'a', language: 'l' })

/** Buckets that count what they hold (bytes appended and not yet taken). */
function countingBuckets(inner: ByteBuckets): ByteBuckets & { held: () => number } {
  let held = 0
  return {
    held: () => held,
    async append(bucket, bytes) { held += bytes.byteLength; await inner.append(bucket, bytes) },
    async take(bucket) { const bytes = await inner.take(bucket); held -= bytes.byteLength; return bytes },
    close: () => inner.close(),
  }
}

describe('FindingsCollector', () => {
  it('counts every kind exactly and keeps the whole list\'s first N of each kind, in memory and in buckets', async () => {
    const findings = someFindings(5000, 7)
    const whole = sortFindings(uniqueFindings(findings))
    for (const buckets of [undefined, memoryBuckets(), await createFileSpill(dir, { maxOpen: 2 })]) {
      for (const max of [0, 1, 3, 40, Infinity]) {
        const collector = new FindingsCollector({ maxPerKind: max, buckets, bufferChars: 1000 })
        for (const f of findings) collector.add(item(f))
        await collector.drain()
        const streamed: Finding[] = []
        const items: FindingItem[] = []
        const got = await collector.finish({ onFindings: (batch) => { streamed.push(...batch) }, onItem: (i) => items.push(i) })
        // the stream: the uncapped list, in order; every item (duplicates too) seen once
        expect(streamed).toEqual(whole)
        expect(items.length).toBe(findings.length)
        const kinds = [...new Set(whole.map((f) => f.kind))].sort()
        expect(Object.keys(got.counts)).toEqual(kinds)
        let omitted = 0
        for (const kind of kinds) {
          const all = whole.filter((f) => f.kind === kind)
          const shown = got.findings.filter((f) => f.kind === kind)
          expect(got.counts[kind].total).toBe(all.length)
          expect(shown).toEqual(all.slice(0, max))
          expect(got.counts[kind].shown).toBe(shown.length)
          expect(shown.length).toBeLessThanOrEqual(max)
          omitted += all.length - shown.length
        }
        expect(got.omitted).toBe(omitted)
        expect(got.findings).toEqual(sortFindings(got.findings))
        expect(capFindings(findings, max)).toEqual(got)
      }
      await buckets?.close()
    }
  })

  it('with buckets, holds the findings in them until finish, not in memory; finish takes them all back', async () => {
    const buckets = countingBuckets(memoryBuckets())
    const collector = new FindingsCollector({ maxPerKind: 2, buckets, bufferChars: 4096 })
    const findings = someFindings(3000, 11)
    let most = 0
    for (const [i, f] of findings.entries()) {
      collector.add(item(f))
      if (i % 50 === 0) await collector.drain()
      most = Math.max(most, collector.buffered)
    }
    await collector.drain(true)
    // what waits in memory is at most the buffer (plus one drain's worth of lines): the rest is in the buckets
    expect(most).toBeLessThan(4096 + 50 * 200)
    expect(collector.buffered).toBe(0)
    expect(buckets.held()).toBeGreaterThan(findings.length * 50)
    const got = await collector.finish()
    expect(buckets.held()).toBe(0)
    for (const c of Object.values(got.counts)) expect(c.shown).toBeLessThanOrEqual(2)
    expect(got.findings.length).toBeLessThanOrEqual(2 * Object.keys(got.counts).length)
    expect(() => collector.add(item(findings[0]))).toThrow(/after finish/)
  })
})

describe('audit and validate past the cap', () => {
  it('audit --max-findings-per-kind 2: exact counts, the uncapped first 2, every finding and flagged row in the files, exit 1 on left-out errors', async () => {
    const root = auditFixture('meta')
    const full = await runCli(['audit', root, '--json', '--max-findings-per-kind', '0'])
    const whole = JSON.parse(full.stdout)
    expect(whole.findings_omitted).toBe(0)
    expect(whole.options.max_findings_per_kind).toBeNull()
    const findingsFile = join(dir, 'audit', 'findings.jsonl')
    const flaggedFile = join(dir, 'audit', 'flagged.jsonl')
    const capped = await runCli(['audit', root, '--json', '--max-findings-per-kind', '2', '--findings', findingsFile, '--flagged', flaggedFile])
    // undecodable-audio errors (136 of them, the cheap audio check's) are mostly left out of the list: still exit 1
    expect(capped.code).toBe(1)
    const report = JSON.parse(capped.stdout)
    expect(report.options.max_findings_per_kind).toBe(2)
    expect(report.finding_counts['undecodable-audio']).toEqual({ severity: 'error', total: 136, shown: 2 })
    let omitted = 0
    for (const [kind, c] of Object.entries(report.finding_counts) as [string, { total: number; shown: number }][]) {
      const all = whole.findings.filter((f: Finding) => f.kind === kind)
      expect(c.total).toBe(all.length)
      expect(report.findings.filter((f: Finding) => f.kind === kind)).toEqual(all.slice(0, 2))
      omitted += c.total - c.shown
    }
    expect(report.findings_omitted).toBe(omitted)
    expect(omitted).toBeGreaterThan(100)
    // everything else is the uncapped document's
    for (const key of ['summary', 'totals', 'tables', 'config_findings']) expect(report[key]).toEqual(whole[key])
    const lines = (await readFile(findingsFile, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(lines).toEqual(whole.findings)
    expect(await readFile(flaggedFile, 'utf8')).toBe(flaggedRowsJsonl(whole.findings))
    // the files were written through a temporary that is gone
    expect((await readdir(join(dir, 'audit'))).sort()).toEqual(['findings.jsonl', 'flagged.jsonl'])

    const text = await runCli(['audit', root, '--max-findings-per-kind', '2', '--findings', findingsFile])
    expect(text.code).toBe(1)
    expect(text.stdout).toContain(`… and 134 more undecodable-audio findings (in ${findingsFile})`)
    expect((await runCli(['audit', root, '--max-findings-per-kind', '-1'])).code).toBe(2)
  })

  it('a saved uncapped result gets its counts, and the explorer\'s copy the first findings of each kind with the true totals', async () => {
    const whole = (await runCli(['audit', auditFixture('meta'), '--json', '--max-findings-per-kind', '0'])).stdout
    const old = JSON.parse(whole)
    // a document written before the counts existed
    delete old.finding_counts
    delete old.findings_omitted
    delete old.options.max_findings_per_kind
    const saved = parseSavedAudit(JSON.stringify(old), 'audit.json').report
    expect(saved.finding_counts).toEqual(JSON.parse(whole).finding_counts)
    expect(saved.findings_omitted).toBe(0)
    const shown = capAuditReport(saved, 5)
    expect(shown.finding_counts['undecodable-audio']).toEqual({ severity: 'error', total: 136, shown: 5 })
    expect(shown.findings_omitted).toBe(131)
    expect(shown.options.max_findings_per_kind).toBe(5)
    expect(shown.findings.filter((f) => f.kind === 'undecodable-audio')).toEqual(saved.findings.filter((f) => f.kind === 'undecodable-audio').slice(0, 5))
    expect(shown.summary).toEqual(saved.summary)
    expect(capAuditReport(saved)).toBe(saved)
  })

  it('validate --max-findings-per-kind 3: counts, first 3, the file equal to the uncapped list, exit 1', async () => {
    const root = join(dir, 'nulls')
    // 2 files × 40 rows: every other text null (null-value, error), every third audio_size negative (bad-audio-size)
    for (const part of [0, 1]) {
      await writeParquet(join(root, 'corpus=a/split=train/language=eng_Latn', `part-${part}.parquet`),
        `SELECT CASE WHEN i % 2 = 0 THEN NULL ELSE 'hello' END AS text, CASE WHEN i % 3 = 0 THEN -1 ELSE 16000 END::BIGINT AS audio_size, 'x'::BLOB AS audio_bytes FROM range(40) t(i)`,
        'ROW_GROUP_SIZE 16')
    }
    const whole = JSON.parse((await runCli(['validate', root, '--json', '--max-findings-per-kind', '0'])).stdout)
    expect(whole.finding_counts['null-value'].total).toBe(40)
    const file = join(dir, 'validate.jsonl')
    const run = await runCli(['validate', root, '--json', '--max-findings-per-kind', '3', '--findings', file])
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout)
    expect(report.finding_counts['null-value']).toEqual({ severity: 'error', total: 40, shown: 3 })
    expect(report.finding_counts['bad-audio-size']).toEqual({ severity: 'error', total: 28, shown: 3 })
    for (const kind of Object.keys(whole.finding_counts)) {
      expect(report.findings.filter((f: Finding) => f.kind === kind)).toEqual(whole.findings.filter((f: Finding) => f.kind === kind).slice(0, 3))
    }
    expect((await readFile(file, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(whole.findings)
    const text = await runCli(['validate', root, '--max-findings-per-kind', '3'])
    expect(text.stdout).toContain('… and 37 more null-value findings (see --findings)')
    expect(text.stdout).toMatch(/80 rows checked: 68 errors/)
  })
})
