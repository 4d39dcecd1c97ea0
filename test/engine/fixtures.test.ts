/** The engine against the committed parquet fixtures and their DuckDB-derived goldens (test/fixtures/README.md). */
import { describe, expect, it } from 'vitest'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { computeStats } from '../../src/engine/dataset/stats.ts'
import { validateDataset } from '../../src/engine/validate/validate.ts'

const fixtures = join(import.meta.dirname, '../fixtures/parquet')
const goldens = readdirSync(fixtures).filter((f) => f.endsWith('.golden.json'))

describe('stats on fixtures', () => {
  it.each(goldens)('%s', async (name) => {
    const golden = JSON.parse(readFileSync(join(fixtures, name), 'utf8'))
    const dataset = name.replace('.golden.json', '')
    const root = golden.root === dataset ? join(fixtures, dataset) : join(fixtures, golden.root)
    const report = await computeStats(await openDataset(await createFsSource(root)))
    expect(report.partitions).toEqual(golden.partitions)
    expect(report.totals).toEqual(golden.totals)
  })
})

describe('column types', () => {
  it('recognizes large_list<int8> from the Arrow schema, binary and list<int8> from parquet', async () => {
    const typeOf = async (root: string) => {
      const ds = await openDataset(await createFsSource(join(fixtures, root)))
      return [...new Set(ds.files.map((f) => f.columns.find((c) => c.name === 'audio_bytes')?.type))]
    }
    expect(await typeOf('large-list/version=0')).toEqual(['large_list<int8>'])
    expect(await typeOf('dataprep/version=0')).toEqual(['list<int8>'])
    expect(await typeOf('key-order')).toEqual(['binary'])
  })
})

describe('validate on the broken fixture', () => {
  const expected: { path: string; row: number | null; problem: string }[] = JSON.parse(readFileSync(join(fixtures, 'broken.expected.json'), 'utf8'))
  // each documented problem (in words) and the finding kind mixscope reports for it
  const kindFor = (problem: string): string => {
    const rules: [RegExp, string][] = [
      [/is null/, 'null-value'], [/empty \(0 bytes\)/, 'empty-audio'], [/truncated|PAR1/, 'unreadable-parquet'],
      [/non-parquet/, 'stray-file'], [/disagrees with folder/, 'key-column-mismatch'], [/column audio_size missing/, 'missing-column'],
      [/string column/, 'column-type'], [/zero rows/, 'empty-file'], [/only as columns/, 'key-only-in-column'],
      [/ignored file/, 'ignored-file'], [/lacks partitions/, 'missing-from-tsv'], [/has no data/, 'tsv-row-without-data'],
      [/says .* hours/, 'tsv-hours-mismatch'],
    ]
    const hit = rules.find(([re]) => re.test(problem))
    if (!hit) throw new Error(`no rule for ${problem}`)
    return hit[1]
  }
  it('reports every documented problem, and the good partitions survive', async () => {
    const root = join(fixtures, 'broken/version=0')
    const dataset = await openDataset(await createFsSource(root))
    const report = await validateDataset(dataset)
    for (const e of expected) {
      const kind = kindFor(e.problem)
      const matches = report.findings.filter((f) => f.kind === kind &&
        (e.path.startsWith('../') || f.path === e.path) && (e.row === null || f.row === e.row))
      expect(matches.length, `${e.path}:${e.row} ${e.problem} → ${kind}`).toBeGreaterThan(0)
    }
    const errors = report.findings.filter((f) => f.severity === 'error').map((f) => f.kind)
    expect(new Set(errors)).toEqual(new Set(['null-value', 'empty-audio', 'unreadable-parquet', 'stray-file', 'missing-column', 'column-type', 'key-only-in-column']))
    const stats = await computeStats(dataset)
    expect(stats.partitions.find((p) => p.language === 'ok_Latn' && p.split === 'train')!.rows).toBe(6)
    expect(report.rows_checked).toBe(stats.totals.rows)
  })
})
