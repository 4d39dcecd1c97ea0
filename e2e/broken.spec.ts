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

test('a picked stats TSV is compared with the open folder', async ({ page }) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await page.getByLabel('Dataset folder (file dialog)').setInputFiles(resolve(brokenRootDir, 'version=0'))
  await waitForDataset(page, 'version=0')
  await expect(page.getByText('no stats TSV found')).toBeVisible()
  // the TSV sits beside version=0, so the file input could not see it: pick it
  await page.getByLabel('Stats TSV').setInputFiles(resolve(brokenRootDir, 'language_distribution_0.tsv'))
  await expect(page.getByRole('region', { name: 'Summary' }).getByText(/stats TSV language_distribution_0\.tsv/)).toBeVisible()
  await expect(page.getByRole('region', { name: 'Loading' })).toHaveCount(0)
  const findings = await shownFindings(page)
  // every language the fixture's expectations name in TSV problems shows up in a finding about the TSV or its partitions
  const named = new Set(problems.filter((p) => p.path.startsWith('../')).flatMap((p) => p.problem.match(/[a-z]+_Latn/g) ?? []))
  expect(named.size).toBeGreaterThan(0)
  for (const language of named) {
    expect.soft(findings.some((f) => f.message.includes(language) || f.where.includes(`language=${language}/`)), language).toBe(true)
  }
})
