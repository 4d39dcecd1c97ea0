/**
 * Merged results in the browser: a deep audit run as 2 shards by the CLI and merged (`mixscope merge`) is opened in
 * the Audit view, as a picked file and as `_mixscope_audit.json` beside a local folder, and browsed (its findings,
 * and the measure tables only a decode makes) without the page re-running anything; the merged `_mixscope_index.parquet`
 * of that folder is what the open reads (no "save the index" offer, the same hours per language).
 */
import { expect, test, type Page } from '@playwright/test'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readExpectedFiles, totalsBy } from './fixtures/expected-stats.ts'
import { expectLanguageHours, waitForDataset } from './fixtures/overview-page.ts'
import { demoRootDir, repoRoot } from './fixtures/paths.ts'

interface Doc { findings: { kind: string; path: string; row: number | null }[]; tables: Record<string, unknown[]>; timing?: { shards: number } }

let dir: string
let root: string
let merged: Doc
let rowFindings: string[]

function mixscope(args: string[]): string {
  return execFileSync('node', [join(repoRoot, 'bin', 'mixscope.js'), ...args], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] })
}
/** As `mixscope`, for commands that exit 1 on error findings (the demo has some). */
function mixscopeFindings(args: string[]): string {
  try {
    return mixscope(args)
  } catch (error) {
    const e = error as { status?: number; stdout?: string }
    if (e.status === 1) return e.stdout ?? ''
    throw error
  }
}

test.beforeAll(async () => {
  test.setTimeout(240_000)
  dir = mkdtempSync(join(tmpdir(), 'mixscope-e2e-saved-'))
  root = join(dir, 'version=0')
  cpSync(demoRootDir, root, { recursive: true })
  for (const i of [0, 1]) {
    mixscope(['audit', root, '--deep', '--workers', '1', '--shard', `${i}/2`, '--out', join(dir, 'parts', `audit-${i}.json`)])
    mixscope(['index', root, '--shard', `${i}/2`, '--out', join(dir, 'index-parts', `index-${i}.json`)])
  }
  mixscopeFindings(['merge', join(dir, 'parts'), '--out', join(root, '_mixscope_audit.json')])
  mixscope(['merge', join(dir, 'index-parts'), '--out', join(root, '_mixscope_index.parquet')])
  merged = JSON.parse(readFileSync(join(root, '_mixscope_audit.json'), 'utf8')) as Doc
  rowFindings = merged.findings.filter((f) => f.row !== null).map((f) => `${f.kind} ${f.path}:${f.row}`)
})
test.afterAll(() => { rmSync(dir, { recursive: true, force: true }) })

/** `<kind> <where>` of every finding in the triage sections (every group opened). */
async function shown(page: Page): Promise<string[]> {
  const expand = page.locator('.triage-section').getByRole('button', { name: 'Expand all' })
  while (await expand.count() > 0) await expand.first().click()
  return page.locator('.triage-section table.findings tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-kind')} ${tr.querySelector('td.where')?.textContent}`))
}

async function expectMergedShown(page: Page): Promise<void> {
  await expect(page.locator('.saved-audit-banner')).toContainText('merged from 2 shards: deep (every row decoded)')
  await expect(page.locator('.audit-status')).toContainText('audio decoded')
  expect(rowFindings.length).toBeGreaterThan(0)
  const rows = await shown(page)
  for (const id of rowFindings) expect(rows).toContain(id)
  // the deep audit's measures (only a decode makes them), as the merge computed them
  if (!await page.locator('.report-tables').evaluate((d) => (d as HTMLDetailsElement).open)) await page.locator('.report-tables summary').click()
  expect(merged.tables.loudness.length).toBeGreaterThan(0)
  await page.getByLabel('Report table').selectOption('audio_per_language')
  const table = page.getByRole('table', { name: 'audio per language' })
  await expect(table.locator('tbody tr')).toHaveCount(merged.tables.audio_per_language.length)
}

test('a merged deep audit, picked as a file, is browsed without re-running; "Audit here instead" runs the page\'s own', async ({ page }) => {
  await page.goto('/?view=audit')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByText(/^Audio check: [\d,]+ rows read/)).toBeVisible({ timeout: 60_000 })
  await expect(page.locator('.saved-audit-banner')).toHaveCount(0)
  // the page's own audit decodes nothing: no measure tables
  await page.locator('.report-tables summary').click()
  expect(await page.getByLabel('Report table').locator('option').allTextContents()).not.toContainEqual(expect.stringMatching(/^audio per language/))
  await page.getByLabel('Audit result file').setInputFiles(join(root, '_mixscope_audit.json'))
  await expectMergedShown(page)
  await expect(page.locator('.saved-audit-banner')).toContainText('_mixscope_audit.json')
  await expect(page.locator('.saved-audit-banner')).not.toContainText('beside the dataset')
  // the demo is the dataset it was made of: no mismatch note
  await expect(page.locator('.saved-audit-banner strong')).toHaveCount(0)
  await page.getByRole('button', { name: 'Audit here instead' }).click()
  await expect(page.locator('.saved-audit-banner')).toHaveCount(0)
  await expect(page.getByText(/^Audio check: [\d,]+ rows read/)).toBeVisible({ timeout: 60_000 })
  await expect(page.locator('.audit-status')).toContainText('metadata only')
})

test('a folder with _mixscope_audit.json and a merged _mixscope_index.parquet: both are what the page shows', async ({ page }) => {
  const files = await readExpectedFiles(demoRootDir)
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  // the plain demo folder offers to save an index; the folder with the merged one does not need it
  await page.getByLabel('Dataset folder (file dialog)').setInputFiles(demoRootDir)
  await waitForDataset(page, 'version=0')
  await expect(page.getByRole('button', { name: 'Save dataset index into this folder' })).toBeVisible()
  await page.getByLabel('Dataset folder (file dialog)').setInputFiles(root)
  await waitForDataset(page, 'version=0')
  await expectLanguageHours(page, totalsBy(files, (f) => f.keys.language))
  await expect(page.getByRole('button', { name: 'Save dataset index into this folder' })).toHaveCount(0)
  await page.getByRole('tab', { name: 'Audit' }).click()
  await expect(page.locator('.saved-audit-banner')).toContainText('found beside the dataset')
  await expectMergedShown(page)
})
