/**
 * `problemCounts`: what the Overview's problem alert and the Audit tab's badge show. On the messy copy of the demo
 * (test/helpers/messy-dataset.ts: two unreadable parquet files, a stray file, one row with audio_size −5) the counts
 * equal what the fixture broke, listed by the fixture itself; a capped list keeps the true totals and marks what it
 * counted from the list as a lower bound; an audit-like report's summary gives rows and hours; reports that repeat
 * each other's findings count them once.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFsSource } from '../../src/engine/node.ts'
import { checkDataset, finding, type Finding, openDataset, problemCounts, type ProblemSource } from '../../src/engine/index.ts'
import { type MessyDataset, writeMessyDataset } from '../helpers/messy-dataset.ts'
import { query } from '../helpers/duckdb.ts'
import { hiveKeysOf } from '../../src/engine/dataset/hive.ts'
import { unreadableHours } from '../../src/engine/dataset/unreadable-hours.ts'

let messy: MessyDataset
beforeAll(async () => { messy = await writeMessyDataset() }, 60_000)
afterAll(() => messy?.remove())

async function validateMessy(maxFindingsPerKind?: number, root = messy.root) {
  const dataset = await openDataset(await createFsSource(root))
  const { validation, stats } = await checkDataset(dataset, maxFindingsPerKind === undefined ? {} : { maxFindingsPerKind })
  return { validation, stats, files: { parquet: dataset.files.length, readable: dataset.files.filter((f) => f.readable).length } }
}

describe('problemCounts on the messy demo copy', () => {
  it('counts the files and rows the fixture broke, and nothing else as an error', async () => {
    const { validation, files } = await validateMessy()
    const counts = problemCounts({ sources: [validation], files })
    const broken = new Set([...messy.unreadable, ...messy.stray, ...messy.badAudioSize.map((r) => r.path)])

    expect(counts.files).toEqual({ parquet: messy.parquetFiles, unreadable: messy.unreadable.length })
    expect(counts.files).toEqual({ parquet: 51, unreadable: 2 })
    expect(counts.findings.error).toBe(messy.unreadable.length + messy.stray.length + messy.badAudioSize.length)
    expect(counts.errors.files).toEqual({ count: broken.size, atLeast: false })
    expect(counts.errors.rows).toEqual({ count: messy.badAudioSize.length, atLeast: false })

    const byKind = new Map(counts.kinds.map((k) => [k.kind, k]))
    expect(counts.kinds.filter((k) => k.severity === 'error').map((k) => k.kind)).toEqual(['unreadable-parquet', 'bad-audio-size', 'stray-file'])
    expect(byKind.get('unreadable-parquet')).toMatchObject({ severity: 'error', total: 2, listed: 2, files: { count: 2, atLeast: false }, rows: { count: 0, atLeast: false }, hours: null })
    // no stats TSV: the unreadable files' hours are unknown, and so are the bad row's (its audio_size is the error)
    const { stats } = await validateMessy()
    const withStats = problemCounts({ sources: [validation], files, unreadable: (paths) => unreadableHours(paths, stats) })
    const cost = new Map(withStats.kinds.map((k) => [k.kind, k]))
    expect(cost.get('unreadable-parquet')).toMatchObject({ hours: null, unknown: { count: 2, atLeast: false } })
    expect(cost.get('unreadable-parquet')!.unknownWhy).toMatch(/no stats TSV/)
    expect(cost.get('bad-audio-size')).toMatchObject({ hours: null, unknown: { count: 1, atLeast: false } })
    expect(cost.get('bad-audio-size')!.unknownWhy).toMatch(/audio_size is the bad value/)
    expect(cost.get('stray-file')).toMatchObject({ hours: 0, unknown: { count: 0 }, unknownWhy: null })
    expect(withStats.errors.hours).toEqual({ known: 0, unknownFiles: { count: 2, atLeast: false }, unknownRows: { count: 1, atLeast: false } })
    expect(byKind.get('unreadable-parquet')!.first?.path).toBe(messy.unreadable[0])
    expect(byKind.get('stray-file')).toMatchObject({ total: 1, files: { count: 1, atLeast: false } })
    expect(byKind.get('stray-file')!.first?.path).toBe(messy.stray[0])
    expect(byKind.get('bad-audio-size')).toMatchObject({ total: 1, files: { count: 1, atLeast: false }, rows: { count: 1, atLeast: false } })
    expect(byKind.get('bad-audio-size')!.first).toMatchObject({ path: messy.badAudioSize[0].path, row: messy.badAudioSize[0].row })
    expect(byKind.get('bad-audio-size')!.first?.message).toMatch(/audio_size -5/)
  })

  it('keeps the true totals when the lists are capped, and says what it counted from the list is a lower bound', async () => {
    const { validation, files } = await validateMessy(1)
    expect(validation.findings_omitted).toBe(1) // the second unreadable file is counted, not listed
    const counts = problemCounts({ sources: [validation], files })
    const unreadable = counts.kinds.find((k) => k.kind === 'unreadable-parquet')!
    expect(unreadable).toMatchObject({ total: 2, listed: 1, files: { count: 1, atLeast: true } })
    expect(counts.findings.error).toBe(4)
    expect(counts.errors.files).toEqual({ count: 3, atLeast: true })
    expect(counts.files).toEqual({ parquet: 51, unreadable: 2 })
  })
})

describe('problemCounts: the hours the errors cost, with a stats TSV', () => {
  let withTsv: MessyDataset
  beforeAll(async () => { withTsv = await writeMessyDataset({ tsv: true }) }, 60_000)
  afterAll(() => withTsv?.remove())

  it('takes the unreadable files\' hours from the TSV, as DuckDB computes them over the readable files', async () => {
    const { validation, stats, files } = await validateMessy(undefined, withTsv.root)
    expect(stats.summary?.path).toContain('language_distribution_0.tsv')
    const counts = problemCounts({ sources: [validation], files, unreadable: (paths) => unreadableHours(paths, stats) })
    const unreadable = counts.kinds.find((k) => k.kind === 'unreadable-parquet')!
    // the reference: per (corpus, language) of an unreadable file, the TSV's hours less DuckDB's Σ audio_size of
    // the readable files (the unreadable ones left out of the glob by name)
    const tsv = await query(`SELECT * FROM read_csv('${join(withTsv.root, withTsv.tsv!)}', delim = '\t', header = true)`)
    let expected = 0
    for (const pair of new Set(withTsv.unreadable.map((p) => { const k = hiveKeysOf(p); return JSON.stringify([k.corpus, k.language]) }))) {
      const [corpus, language] = JSON.parse(pair) as [string, string]
      const readable = (readdirSync(withTsv.root, { recursive: true }) as string[]).map((p) => p.split('\\').join('/'))
        .filter((p) => p.startsWith(`corpus=${corpus}/`) && p.includes(`/language=${language}/`) && p.endsWith('.parquet') && !withTsv.unreadable.includes(p))
      const [{ hours }] = await query(`SELECT coalesce(sum(audio_size), 0) / 16000 / 3600 AS hours
        FROM read_parquet([${readable.map((p) => `'${join(withTsv.root, p)}'`).join(', ')}])`)
      const row = tsv.find((r) => r.corpus === corpus && r.language === language)!
      expected += Number(row.hours) - Number(hours)
    }
    expect(expected).toBeGreaterThan(0)
    expect(unreadable.hours).toBeCloseTo(expected, 9)
    expect(unreadable).toMatchObject({ unknown: { count: 0, atLeast: false }, unknownWhy: null })
    expect(counts.errors.hours.known).toBeCloseTo(expected, 9)
    expect(counts.errors.hours.unknownFiles).toEqual({ count: 0, atLeast: false })
    expect(counts.errors.hours.unknownRows).toEqual({ count: 1, atLeast: false })
  })

  it('says the hours are unknown when the TSV counts the train split alone', async () => {
    const { validation, stats, files } = await validateMessy(undefined, withTsv.root)
    const trainOnly = { ...stats, partitions: stats.partitions.filter((p) => p.split === 'train') }
    const counts = problemCounts({ sources: [validation], files, unreadable: (paths) => unreadableHours(paths, trainOnly) })
    const unreadable = counts.kinds.find((k) => k.kind === 'unreadable-parquet')!
    expect(unreadable).toMatchObject({ hours: null, unknown: { count: 2, atLeast: false } })
    expect(unreadable.unknownWhy).toMatch(/does not count every split/)
  })
})

describe('problemCounts over several reports', () => {
  const f = (kind: string, path: string, row: number | null = null, severity: Finding['severity'] = 'error') => finding(severity, kind, path, `${kind} at ${path}:${row}`, { row })
  const nulls = [f('null-value', 'a.parquet', 1), f('null-value', 'a.parquet', 4), f('null-value', 'b.parquet', 0)]
  const open: ProblemSource = {
    finding_counts: { 'null-value': { severity: 'error', total: 3, shown: 3 }, 'stray-file': { severity: 'error', total: 1, shown: 1 } },
    findings: [...nulls, f('stray-file', 'x.txt')],
  }
  const audit: ProblemSource = {
    // the audit repeats the open's findings, lists only the first 2 of 5 fast-speech rows and has every kind's rows and hours
    finding_counts: {
      'null-value': { severity: 'error', total: 3, shown: 3 },
      'fast-speech': { severity: 'warning', total: 5, shown: 2 },
    },
    findings: [...nulls, f('fast-speech', 'a.parquet', 2, 'warning'), f('fast-speech', 'a.parquet', 3, 'warning')],
    summary: { 'null-value': { rows: 3, hours: 0.01 }, 'fast-speech': { rows: 5, hours: 0.5 } },
  }

  it('counts a finding two reports list once, takes rows and hours from the summary, and adds the config findings', () => {
    const config = [f('bad-config', '')]
    const counts = problemCounts({ sources: [open, audit], extra: config })
    expect(counts.findings).toEqual({ error: 3 + 1 + 1, warning: 5, info: 0 })
    expect(counts.kinds.map((k) => [k.kind, k.total])).toEqual([['null-value', 3], ['bad-config', 1], ['stray-file', 1], ['fast-speech', 5]])
    const fast = counts.kinds.find((k) => k.kind === 'fast-speech')!
    expect(fast).toMatchObject({ listed: 2, rows: { count: 5, atLeast: false }, hours: 0.5, files: { count: 1, atLeast: true } })
    expect(counts.kinds.find((k) => k.kind === 'null-value')).toMatchObject({ rows: { count: 3, atLeast: false }, hours: 0.01, files: { count: 2, atLeast: false } })
    // the config finding is about the dataset as a whole: no file
    expect(counts.errors).toEqual({ files: { count: 3, atLeast: false }, rows: { count: 3, atLeast: false },
      hours: { known: 0.01, unknownFiles: { count: 0, atLeast: false }, unknownRows: { count: 0, atLeast: false } } })
    expect(counts.files).toBeNull()
  })

  it('is empty for a clean dataset', () => {
    const counts = problemCounts({ sources: [{ finding_counts: {}, findings: [] }], files: { parquet: 51, readable: 51 } })
    expect(counts).toEqual({ findings: { error: 0, warning: 0, info: 0 }, kinds: [], errors: { files: { count: 0, atLeast: false }, rows: { count: 0, atLeast: false }, hours: { known: 0, unknownFiles: { count: 0, atLeast: false }, unknownRows: { count: 0, atLeast: false } } }, files: { parquet: 51, unreadable: 0 } })
  })
})
