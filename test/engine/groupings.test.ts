/**
 * The Overview's groupings made in the worker (src/engine/dataset/groupings.ts): the TSV coverage `statsReport` kept
 * equals the one computed from the report alone, and `sameStats` (which lets the final open result leave the stats
 * out) tells apart reports that differ in any number, key or finding.
 */
import { describe, expect, test } from 'vitest'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { computeStats } from '../../src/engine/dataset/stats.ts'
import { overviewTables, tsvCoverageOf } from '../../src/engine/dataset/groupings.ts'
import { rememberedCoverage } from '../../src/engine/dataset/coverage-memo.ts'
import { sameStats } from '../../src/engine/validate/open-snapshots.ts'
import type { StatsReport } from '../../src/engine/dataset/stats-types.ts'

const report = await computeStats(await openDataset(await createFsSource('public/demo/version=0'), { facts: true }))

describe('overview groupings', () => {
  test('the coverage kept by statsReport is the one computed from the report', () => {
    expect(rememberedCoverage(report)).toBeDefined()
    const clone = structuredClone(report)
    expect(rememberedCoverage(clone)).toBeUndefined()
    expect(overviewTables(report)).toEqual(overviewTables(clone))
    expect(overviewTables(report).tsvCoverage).toEqual(tsvCoverageOf(clone))
    expect(overviewTables(report).tsvCoverage!.length).toBeGreaterThan(0)
  })

  test('totals of the groupings add up to the report totals', () => {
    const t = overviewTables(report)
    const sum = (xs: { hours: number }[]) => xs.reduce((n, x) => n + x.hours, 0)
    for (const xs of [t.languages, t.corpora, t.splits]) expect(sum(xs)).toBeCloseTo(report.totals.hours, 9)
    expect(t.languages.reduce((n, l) => n + l.rows, 0)).toBe(report.totals.rows)
    expect(t.corpusNames).toEqual([...new Set(report.partitions.map((p) => p.corpus))].filter((c) => c !== null).sort())
  })
})

describe('sameStats', () => {
  const changed = (change: (r: StatsReport) => void) => { const r = structuredClone(report); change(r); return r }
  test('equal reports are the same; any changed number, key, total or finding is not', () => {
    expect(sameStats(report, structuredClone(report))).toBe(true)
    expect(sameStats(report, changed((r) => { r.partitions[3].rows += 1 }))).toBe(false)
    expect(sameStats(report, changed((r) => { r.partitions[0].language = 'xyz_Latn' }))).toBe(false)
    expect(sameStats(report, changed((r) => { r.partitions[0].extra = '1' }))).toBe(false)
    expect(sameStats(report, changed((r) => { r.totals.hours += 1e-12 }))).toBe(false)
    expect(sameStats(report, changed((r) => { r.partitions.pop() }))).toBe(false)
    expect(sameStats(report, changed((r) => { r.findings.push({ ...r.findings[0], message: 'other' }) }))).toBe(false)
    expect(sameStats(report, changed((r) => { if (r.summary) r.summary.rows[0].hours = 1234 }))).toBe(false)
  })
})
