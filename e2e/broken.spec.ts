/**
 * A broken dataset (test/fixtures/parquet/broken: unreadable footers, a stray file, missing and mistyped columns,
 * an empty file, keys only as columns) shows every problem and still lists the good partitions.
 * Expected partitions come from the fixture's DuckDB-derived golden; expected problems from its `broken.expected.json`.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { shownFindings, shownPartitions, waitForDataset } from './fixtures/overview-page.ts'
import { brokenRootDir, repoRoot } from './fixtures/paths.ts'

interface GoldenPartition { corpus: string; language: string; split: string; files: number; rows: number; hours: number }
interface ExpectedProblem { path: string; row: number | null; problem: string }

const golden = JSON.parse(readFileSync(resolve(repoRoot, 'test/fixtures/parquet/broken.golden.json'), 'utf8')) as { partitions: GoldenPartition[] }
const problems = JSON.parse(readFileSync(resolve(repoRoot, 'test/fixtures/parquet/broken.expected.json'), 'utf8')) as ExpectedProblem[]

test('a broken folder shows its problems without losing the good partitions', async ({ page }, testInfo) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await page.getByLabel('Dataset folder (file dialog)').setInputFiles(resolve(brokenRootDir, 'version=0'))
  await waitForDataset(page, 'version=0')

  const partitions = await shownPartitions(page)
  expect.soft([...partitions.keys()].sort()).toEqual(golden.partitions.map((p) => `${p.corpus}/${p.language}/${p.split}`).sort())
  for (const p of golden.partitions) {
    const shown = partitions.get(`${p.corpus}/${p.language}/${p.split}`)!
    expect.soft({ files: shown?.files, rows: shown?.rows }, `${p.language}/${p.split}`).toEqual({ files: p.files, rows: p.rows })
    expect.soft(shown?.hours, `${p.language}/${p.split}`).toBeCloseTo(p.hours, 12)
  }

  const findings = await shownFindings(page)
  // the TSV sits beside version=0, outside the picked folder: its findings need the parent, which a file input cannot see
  for (const problem of problems.filter((p) => !p.path.startsWith('../'))) {
    const where = problem.row === null ? problem.path : `${problem.path}:${problem.row}`
    // a file-level problem may be reported per row or per row group of that file
    const matching = findings.filter((f) => f.where === where ||
      (problem.row === null && (f.where.startsWith(`${problem.path}:`) || f.where.startsWith(`${problem.path} (row group`))))
    expect.soft(matching.length, `a finding at ${where} (${problem.problem})`).toBeGreaterThan(0)
    if (/unreadable|non-parquet/.test(problem.problem)) expect.soft(matching.map((f) => f.severity), where).toContain('error')
  }
  await page.getByRole('heading', { name: 'Problems found' }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: testInfo.outputPath('overview-broken.png'), fullPage: true })
})
