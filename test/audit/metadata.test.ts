/** Metadata-level checks on fixtures built to trigger them (meta/) and not (clean/). */
import { beforeAll, describe, expect, it } from 'vitest'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import type { AuditReport } from '../../src/engine/audit/rows/types.ts'
import { defaultPipelineConfig } from '../../src/engine/pipeline/config/defaults.ts'
import { setConfigValue } from '../../src/engine/pipeline/config/set.ts'
import { auditFixture, hin, openFixture, rus, where } from './helpers.ts'

const config = setConfigValue(defaultPipelineConfig(), 'min_audio_len', 16000)
let meta: AuditReport
let clean: AuditReport

beforeAll(async () => {
  meta = await auditDataset(await openFixture(auditFixture('meta')), { config })
  clean = await auditDataset(await openFixture(auditFixture('clean')), {})
})

describe('audit metadata checks', () => {
  it('splits: partitions without dev/test and split values with "_"', () => {
    expect(where(meta.findings, 'missing-split')).toEqual([
      hin, hin, 'corpus=b/split=train/language=eng_Latn/part-0.parquet', 'corpus=b/split=train/language=eng_Latn/part-0.parquet'])
    expect(where(meta.findings, 'unselectable-split')).toEqual(['corpus=a/split=dev_clean/language=rus_Cyrl/part-0.parquet'])
    expect(meta.summary['unselectable-split']).toMatchObject({ severity: 'warning', count: 1, rows: 1 })
  })

  it('mixture: partitions missing from the TSV, hours off, TSV rows without data', () => {
    expect(where(meta.findings, 'missing-from-tsv')).toEqual(['corpus=b/split=train/language=eng_Latn/part-0.parquet'])
    expect(meta.findings.filter((f) => f.kind === 'tsv-hours-mismatch').map((f) => f.message)).toEqual([expect.stringContaining('rus_Cyrl) 1 hours')])
    expect(meta.findings.filter((f) => f.kind === 'tsv-row-without-data').map((f) => f.message)).toEqual([expect.stringContaining('fra_Latn')])
    const mixture = meta.tables.mixture.find((r) => r.language === 'hin_Deva')!
    expect(mixture.tsv_hours).toBeCloseTo(mixture.data_hours as number, 12)
  })

  it('length: rows below min_audio_len and above max_audio_len, with histogram and cut-off table', () => {
    expect(where(meta.findings, 'below-min-audio-len')).toEqual([`${rus}:6`, `${rus}:7`])
    expect(where(meta.findings, 'above-max-audio-len')).toEqual([`${rus}:8`])
    const cut = meta.tables.length_cutoffs.find((r) => r.language === 'rus_Cyrl')!
    expect(cut).toMatchObject({ rows_below_min: 2, hours_below_min: (3200 + 8000) / 16000 / 3600, rows_above_max: 1 })
    const histogramRows = meta.tables.length_histogram.filter((r) => r.language === 'rus_Cyrl').reduce((n, r) => n + (r.rows as number), 0)
    expect(histogramRows).toBe(cut.rows)
    expect(meta.tables.bucket_occupancy.reduce((n, r) => n + (r.rows as number), 0)).toBeGreaterThan(100)
  })

  it('text: empty transcripts, fast speech (code points), speaking-rate outliers', () => {
    expect(where(meta.findings, 'empty-text')).toEqual([`${rus}:2`])
    expect(where(meta.findings, 'fast-speech')).toEqual([`${rus}:6`])
    expect(where(meta.findings, 'speaking-rate-outlier')).toContain(`${rus}:6`)
    expect(where(meta.findings, 'speaking-rate-outlier')).not.toContain(`${rus}:0`)
  })

  it('script: Latin homoglyph in rus_Cyrl and Latin-letter hin_Deva, but not digits or danda', () => {
    expect(where(meta.findings, 'foreign-script')).toEqual([`${hin}:1`, `${rus}:1`])
    const homoglyph = meta.findings.find((f) => f.kind === 'foreign-script' && f.path === rus)!
    expect(homoglyph.message).toContain('"p" U+0070')
    expect(homoglyph.message).toContain('homoglyphs')
  })

  it('leakage: a dev transcript equal to a train one after case folding and whitespace collapsing', () => {
    expect(where(meta.findings, 'transcript-leakage')).toEqual(['corpus=a/split=dev/language=rus_Cyrl/part-0.parquet:0'])
  })

  it('ranks: row groups over 100 rows; row groups per partition vs world_size in eval', async () => {
    expect(where(meta.findings, 'row-group-over-100')).toEqual(['corpus=b/split=train/language=eng_Latn/part-0.parquet'])
    let eval4 = setConfigValue(setConfigValue(config, 'split', 'dev'), 'sync_mode', 'UNTIL_LAST')
    eval4 = setConfigValue(eval4, 'world_size', 4)
    const report = await auditDataset(await openFixture(auditFixture('meta')), { config: eval4 })
    expect(where(report.findings, 'few-fragments-for-ranks')).toEqual(['corpus=a/split=dev/language=rus_Cyrl/part-0.parquet'])
    expect(report.tables.rank_fragments).toEqual([expect.objectContaining({ corpus: 'a', language: 'rus_Cyrl', fragments: 1, ranks_without_data: 3 })])
  })

  it('the clean fixture triggers no warning or error', () => {
    expect(clean.findings.filter((f) => f.severity !== 'info')).toEqual([])
    expect(clean.tables.speaking_rate.every((r) => (r.mad as number) > 0)).toBe(true) // the outlier test really ran
    expect(clean.tables.script.map((r) => r.rows_with_foreign)).toEqual([0, 0])
  })

  it('summary counts rows and hours per kind; per-partition table sums to it', () => {
    for (const [kind, s] of Object.entries(meta.summary)) {
      expect(s.count).toBe(meta.findings.filter((f) => f.kind === kind).length)
      const cells = meta.tables.kinds_by_partition.filter((r) => r.kind === kind)
      expect(cells.reduce((n, r) => n + (r.count as number), 0)).toBe(s.count)
    }
    expect(meta.summary['empty-text']).toEqual({ severity: 'warning', count: 1, rows: 1, hours: 32000 / 16000 / 3600 })
  })
})
