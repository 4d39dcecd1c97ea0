/**
 * Numbers the Audit view must be able to stand behind: flagged rows counted once per row (against
 * DuckDB's row counts), the stats TSV recognised as counting every split, the train split only or another subset
 * (TSVs written here from DuckDB's sums, not by the code under test), and the cheap audio check finding the demo's
 * undecodable FLAC without decoding.
 */
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { beforeAll, describe, expect, it } from 'vitest'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import { quickAudioVerdict } from '../../src/engine/audit/quick-audio.ts'
import { flaggedByLanguage } from '../../src/engine/audit/summary.ts'
import { coverageVerdict, matchingSplits, tsvCoverage } from '../../src/engine/dataset/tsv-coverage.ts'
import type { AuditItem, AuditReport } from '../../src/engine/audit/rows/types.ts'
import { checkConfig } from '../../src/engine/pipeline/config/validate-config.ts'
import { defaultPipelineConfig } from '../../src/engine/pipeline/config/defaults.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { finding } from '../../src/engine/core/findings.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { configCheckContext } from '../../src/engine/pipeline/config/dataset-context.ts'
import { computeStats } from '../../src/engine/dataset/stats.ts'
import { demoRoot } from './helpers.ts'

const defects = JSON.parse(readFileSync(resolve(demoRoot, '../defects.json'), 'utf8')) as { id: string; kind: string }[]

/** DuckDB's hours per (corpus, language, split) of the demo: the independent reference for the TSVs below. */
async function duckHours(): Promise<{ corpus: string; language: string; split: string; hours: number; rows: number }[]> {
  const db = await DuckDBInstance.create(':memory:')
  const connection = await db.connect()
  const reader = await connection.runAndReadAll(`SELECT corpus, language, split, sum(audio_size) / 16000 / 3600 AS hours, count(*) AS n
    FROM read_parquet('${demoRoot}/**/*.parquet', hive_partitioning = true) GROUP BY ALL ORDER BY ALL`)
  const out = reader.getRowObjects().map((r) => ({ corpus: String(r.corpus), language: String(r.language), split: String(r.split), hours: Number(r.hours), rows: Number(r.n) }))
  connection.closeSync()
  return out
}

function writeTsv(rows: { corpus: string; language: string; hours: number }[]): Uint8Array {
  return new TextEncoder().encode(['corpus\tlanguage\thours', ...rows.map((r) => `${r.corpus}\t${r.language}\t${r.hours}`)].join('\n') + '\n')
}

async function auditWithTsv(tsv: Uint8Array | null): Promise<{ report: AuditReport; config: ReturnType<typeof checkConfig>; stats: string[] }> {
  const dataset = await openDataset(await createFsSource(demoRoot), tsv ? { summary: { path: 'picked.tsv', bytes: tsv } } : {})
  const config = defaultPipelineConfig()
  return {
    report: await auditDataset(dataset, { config }),
    config: checkConfig({ ...config, beta_corpus: 0.5, beta_language: 0.5 }, configCheckContext(dataset)),
    stats: (await computeStats(dataset)).findings.map((f) => f.kind),
  }
}

let hours: Awaited<ReturnType<typeof duckHours>>
beforeAll(async () => { hours = await duckHours() })

describe('flagged rows per language', () => {
  it('a row with several findings counts once, with its hours once, and says how many findings it carries', () => {
    const item = (kind: string, row: number, severity: 'error' | 'warning' = 'warning'): AuditItem => ({
      finding: finding(severity, kind, 'corpus=a/language=x/p.parquet', kind, { row, row_group: 0 }), rows: 1, samples: 16000 * 3600, corpus: 'a', language: 'x',
    })
    const partitionLevel: AuditItem = { finding: finding('warning', 'missing-split', 'corpus=a/language=x/p.parquet', 'no dev'), rows: 0, samples: 0, corpus: 'a', language: 'x' }
    const table = flaggedByLanguage([item('empty-text', 1), item('fast-speech', 1), item('undecodable-audio', 1, 'error'), item('empty-text', 2), partitionLevel])
    expect(table).toEqual([{ language: 'x', rows: 2, hours: 2, findings: 4, error_rows: 1, kinds: 'empty-text, fast-speech, undecodable-audio' }])
  })

  it('on the demo, flagged rows never exceed the rows DuckDB counts per language, and match the distinct flagged ids', async () => {
    const { report } = await auditWithTsv(null)
    const rowsPerLanguage = new Map<string, number>()
    for (const h of hours) rowsPerLanguage.set(h.language, (rowsPerLanguage.get(h.language) ?? 0) + h.rows)
    const distinct = new Map<string, Set<string>>()
    for (const f of report.findings) {
      if (f.row === null) continue
      const language = /language=([^/]+)/.exec(f.path)![1]
      if (!distinct.has(language)) distinct.set(language, new Set())
      distinct.get(language)!.add(`${f.path}:${f.row}`)
    }
    const table = report.tables.flagged_by_language
    expect(table.length).toBeGreaterThan(0)
    for (const r of table) {
      expect(r.rows as number, String(r.language)).toBeLessThanOrEqual(rowsPerLanguage.get(String(r.language))!)
      expect(r.rows, String(r.language)).toBe(distinct.get(String(r.language))!.size)
      expect(r.findings as number).toBeGreaterThanOrEqual(r.rows as number)
    }
    expect(report.totals.flagged_rows).toBe([...distinct.values()].reduce((n, s) => n + s.size, 0))
  })
})

describe('what the stats TSV counts', () => {
  it('matchingSplits: every split first, then train, then other subsets; nothing when no subset adds up', () => {
    const splits = [{ split: 'train', hours: 3 }, { split: 'dev', hours: 1 }, { split: 'test', hours: 0.5 }]
    expect(matchingSplits(splits, 4.5, 'train')).toEqual(['train', 'dev', 'test'])
    expect(matchingSplits(splits, 3, 'train')).toEqual(['train'])
    expect(matchingSplits(splits, 4, 'train')).toEqual(['train', 'dev'])
    expect(matchingSplits(splits, 3.5 + 1e-7, 'train')).toEqual(['train', 'test'])
    expect(matchingSplits(splits, 2, 'train')).toBeNull()
    const rows = tsvCoverage([{ corpus: 'c', language: 'l', split: 'train', hours: 3 }, { corpus: 'c', language: 'l', split: 'dev', hours: 1 },
      { corpus: 'c', language: 'm', split: 'train', hours: 2 }], [{ corpus: 'c', language: 'l', hours: 3 }, { corpus: 'c', language: 'm', hours: 2 }, { corpus: 'c', language: 'n', hours: 1 }], 'train')
    expect(rows.map((r) => [r.language, r.kind])).toEqual([['l', 'train-only'], ['m', 'no-held-out'], ['n', 'no-data']])
    expect(coverageVerdict(rows, 'train')?.kind).toBe('train-only')
  })

  it('a TSV of the train hours (DuckDB) is recognised: no held-out or mismatch finding, and the config no longer claims "every split"', async () => {
    const train = hours.filter((h) => h.split === 'train')
    const { report, config, stats } = await auditWithTsv(writeTsv(train))
    expect(stats).not.toContain('tsv-hours-mismatch')
    const kinds = report.findings.map((f) => f.kind)
    expect(kinds).toContain('tsv-hours-train-only')
    expect(kinds).not.toContain('tsv-held-out-hours')
    expect(kinds).not.toContain('tsv-hours-mismatch')
    expect(kinds).not.toContain('tsv-hours-all-splits')
    expect(config.map((f) => f.kind)).not.toContain('tsv-hours-all-splits')
    expect(report.findings.find((f) => f.kind === 'tsv-hours-train-only')!.message).toMatch(/weights each partition by its train hours alone/)
    for (const r of report.tables.mixture) expect(r.tsv_counts, `${r.corpus}/${r.language}`).toMatch(/^(train|every split \(train\))$/)
  })

  it('a TSV of every split (DuckDB) says so, with held-out hours per partition; train + dev is its own subset', async () => {
    const sum = (rows: typeof hours) => {
      const by = new Map<string, { corpus: string; language: string; hours: number }>()
      for (const h of rows) {
        const k = `${h.corpus}/${h.language}`
        const e = by.get(k) ?? { corpus: h.corpus, language: h.language, hours: 0 }
        e.hours += h.hours
        by.set(k, e)
      }
      return [...by.values()]
    }
    const all = await auditWithTsv(writeTsv(sum(hours)))
    expect(all.report.findings.map((f) => f.kind)).toContain('tsv-hours-all-splits')
    const heldOut = all.report.findings.filter((f) => f.kind === 'tsv-held-out-hours')
    const withHeldOut = new Set(hours.filter((h) => h.split !== 'train' && h.hours > 0).map((h) => `${h.corpus}/${h.language}`))
    expect(heldOut).toHaveLength(withHeldOut.size)

    const trainDev = await auditWithTsv(writeTsv(sum(hours.filter((h) => h.split !== 'test'))))
    const kinds = trainDev.report.findings.map((f) => f.kind)
    expect(kinds).not.toContain('tsv-hours-mismatch')
    expect(trainDev.stats).not.toContain('tsv-hours-mismatch')
    // hours that no set of splits adds up to are still reported, by stats and the audit alike
    const off = await auditWithTsv(writeTsv(sum(hours).map((r, i) => (i === 0 ? { ...r, hours: r.hours * 1.5 } : r))))
    expect(off.stats.filter((k) => k === 'tsv-hours-mismatch')).toHaveLength(1)
    expect(off.report.findings.filter((f) => f.kind === 'tsv-hours-mismatch')).toHaveLength(1)
    expect(trainDev.report.tables.mixture.some((r) => r.tsv_counts === 'train + dev')).toBe(true)
  })
})

describe('the cheap audio check', () => {
  it('verdicts: null, empty, not audio, FLAC cut in its first frame, and real files of every container', async () => {
    expect(quickAudioVerdict(null)).toMatchObject({ decodable: false, problem: 'null audio_bytes' })
    expect(quickAudioVerdict(new Uint8Array())).toMatchObject({ decodable: false })
    expect(quickAudioVerdict(new TextEncoder().encode('hello, not audio'))).toMatchObject({ decodable: false, problem: expect.stringMatching(/not WAV, FLAC, Ogg, MP3, AIFF, CAF, Wave64, NIST SPHERE, Sun\/NeXT AU or one of libsndfile's rarer containers/) })
    const fixtures = resolve(import.meta.dirname, '../fixtures/audio')
    for (const name of ['speech-16k-mono-s16.flac', 'speech-16k-mono-s16.wav', 'speech-16k-mono.ogg', 'speech-16k-mono.opus', 'speech-16k-mono.mp3']) {
      const v = quickAudioVerdict(new Uint8Array(await readFile(join(fixtures, name))))
      expect(v, name).toMatchObject({ decodable: true, problem: null, sampleRate: 16000, channels: 1 })
    }
    const flac = new Uint8Array(await readFile(join(fixtures, 'speech-16k-mono-s16.flac')))
    const cutAt = flac.indexOf(0xff, 42 + 4)
    expect(quickAudioVerdict(flac.slice(0, cutAt + 24))).toMatchObject({ decodable: false, problem: expect.stringMatching(/no complete FLAC frame/) })
    const opus = new Uint8Array(await readFile(join(fixtures, 'speech-16k-mono.opus')))
    expect(quickAudioVerdict(opus.slice(0, opus.length - 100)).decodable).toBe(false)
  })

  it('on the demo it finds the undecodable FLAC (and nothing else undecodable) without decoding', async () => {
    const dataset = await openDataset(await createFsSource(demoRoot))
    const report = await auditDataset(dataset, { quick: true })
    const bad = report.findings.filter((f) => f.kind === 'undecodable-audio').map((f) => `${f.path}:${f.row}`)
    expect(bad).toEqual(defects.filter((d) => d.kind === 'undecodable-audio').map((d) => d.id))
    expect(report.totals.rows_audio_checked).toBe(hours.reduce((n, h) => n + h.rows, 0))
    expect(report.options.quick).toBe(true)
    const census = report.tables.audio_check
    expect(census.reduce((n, r) => n + (r.rows as number), 0)).toBe(report.totals.rows)
  })
})

