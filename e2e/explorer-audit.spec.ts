/**
 * Audit view on the demo, triage first: the headline counts (each filters the list), the known defects
 * (public/demo/defects.json) listed in their groups and linked to their examples, the undecodable FLAC found by the
 * default audio check without a deep audit, flagged rows per language never above the language's rows (counted
 * here from the parquet files), config notes apart; the deep audit can be cancelled and resumes from the state kept
 * in IndexedDB; exports.
 */
import { expect, test, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { demoRootDir } from './fixtures/paths.ts'
import { waitForDataset } from './fixtures/overview-page.ts'
import { readExpectedFiles, totalsBy } from './fixtures/expected-stats.ts'

const defects = JSON.parse(readFileSync(resolve(demoRootDir, '../defects.json'), 'utf8')) as { id: string; kind: string }[]

/** `<kind> <where>` of every finding in the triage sections (every group opened). */
async function shown(page: Page): Promise<string[]> {
  const expand = page.locator('.triage-section').getByRole('button', { name: 'Expand all' })
  while (await expand.count() > 0) await expand.first().click()
  return page.locator('.triage-section table.findings tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-kind')} ${tr.querySelector('td.where')?.textContent}`))
}

test('triage headline, every demo defect in its group (the FLAC without a deep audit), flagged rows once, exports', async ({ page }, testInfo) => {
  const files = await readExpectedFiles(demoRootDir)
  const rowsOf = totalsBy(files, (f) => f.keys.language)
  await page.goto('/?view=audit')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByText(/^Audio check: [\d,]+ rows read/)).toBeVisible({ timeout: 60_000 })
  const rows = await shown(page)
  for (const d of defects) expect(rows).toContain(`${d.kind} ${d.id}`)
  // the undecodable FLAC is a blocking error, found by the audio check (no deep audit ran)
  const bad = defects.find((d) => d.kind === 'undecodable-audio')!
  await expect(page.locator('[data-triage="blocking"] .card-value')).toHaveAttribute('data-value', /^[1-9]\d*$/)
  await expect(page.locator('table[aria-label="Blocking errors: undecodable-audio"] tbody tr')).toContainText([bad.id])
  // each headline card filters the list to its category; config notes live apart from data defects
  await page.locator('[data-triage="row"]').click()
  await expect(page.getByRole('heading', { name: /^Row defects/ })).toBeVisible()
  await expect(page.getByRole('heading', { name: /^Blocking errors/ })).toHaveCount(0)
  await expect(page.getByRole('heading', { name: /^Config notes/ })).toHaveCount(0)
  await page.locator('[data-triage="config"]').click()
  const config = page.getByRole('region', { name: /^Config notes/ })
  await expect(config.locator('.finding-group[data-kind="warmup-row-dropped"]')).toHaveCount(1)
  await expect(page.getByRole('region', { name: /^Row defects/ })).toHaveCount(0)
  await page.getByRole('button', { name: 'Show every category' }).click()

  // flagged rows per language: each row once, never more than the language has
  const flagged = await page.getByRole('table', { name: 'Flagged rows per language' }).locator('tbody tr[data-language]').evaluateAll((trs) => trs.map((tr) => {
    const v = [...tr.querySelectorAll('td[data-value]')].map((td) => Number(td.getAttribute('data-value')))
    return { language: tr.getAttribute('data-language')!, rows: v[0], of: v[1], findings: v[3] }
  }))
  expect(flagged.length).toBeGreaterThan(0)
  for (const f of flagged) {
    expect(f.rows, f.language).toBeLessThanOrEqual(rowsOf.get(f.language)!.rows)
    expect(f.of, f.language).toBe(rowsOf.get(f.language)!.rows)
    expect(f.findings, f.language).toBeGreaterThanOrEqual(f.rows)
  }
  await page.screenshot({ path: testInfo.outputPath('audit.png'), fullPage: true })

  // text filter
  const empty = defects.find((d) => d.kind === 'empty-text')!
  await page.getByLabel('Filter findings').fill('empty transcript')
  expect((await shown(page)).filter((r) => r.startsWith('empty-text'))).toEqual([`empty-text ${empty.id}`])
  // export = what is shown: the filtered findings, and the rows of those
  const exportShown = page.getByRole('button', { name: /^Export \d+ shown findings \(JSON\)$/ })
  const shownCount = Number(/(\d+)/.exec(await exportShown.innerText())![1])
  const [narrowJson] = await Promise.all([page.waitForEvent('download'), exportShown.click()])
  const narrow = JSON.parse(await readFile(await narrowJson.path(), 'utf8')) as { shown: { text: string }; findings: { kind: string; message: string; path: string; row: number | null }[] }
  expect(narrow.shown.text).toBe('empty transcript')
  expect(narrow.findings).toHaveLength(shownCount)
  expect(narrow.findings.every((f) => `${f.message} ${f.path} ${f.kind}`.toLowerCase().includes('empty transcript'))).toBe(true)
  expect(narrow.findings.some((f) => `${f.path}:${f.row}` === empty.id && f.kind === 'empty-text')).toBe(true)
  const [narrowRows] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export rows of the shown findings (JSONL)' }).click()])
  const narrowIds = (await readFile(await narrowRows.path(), 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)
  expect(narrowIds).toContain(empty.id)
  expect(narrowIds.length).toBeLessThanOrEqual(narrow.findings.length)
  await page.getByLabel('Filter findings').fill('')

  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export findings (JSON)' }).click()])
  const body = JSON.parse(await readFile(await json.path(), 'utf8')) as { findings: { kind: string; path: string; row: number | null }[] }
  for (const d of defects) expect(body.findings.some((f) => `${f.path}:${f.row}` === d.id && f.kind === d.kind)).toBe(true)
  const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export flagged rows (JSONL)' }).click()])
  const ids = (await readFile(await jsonl.path(), 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)
  expect(ids).toContain(empty.id)
  expect(new Set(ids).size).toBe(ids.length)

  // the example link selects it for the Inspector
  await shown(page)
  await page.locator('.triage-section').getByRole('button', { name: empty.id }).first().click()
  await expect.poll(() => new URL(page.url()).searchParams.get('example')).toBe(empty.id)
})

test('deep audit: cancel keeps progress, resume finishes and finds the undecodable FLAC', async ({ page }, testInfo) => {
  const bad = defects.find((d) => d.kind === 'undecodable-audio')!
  await page.goto('/?view=audit')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByText(/^Audio check: [\d,]+ rows read/)).toBeVisible({ timeout: 60_000 })
  const forget = page.getByRole('button', { name: 'Forget saved progress' })
  if (await forget.count() > 0) await forget.click()
  await page.getByRole('button', { name: 'Deep audit' }).click()
  const progress = page.getByRole('progressbar', { name: 'Deep audit progress' })
  // cancel once some row groups are done: the demo's audit is short, and waiting for 40% let a CI run finish it
  // before the click (the Cancel button was gone)
  await expect.poll(async () => Number(await progress.getAttribute('value') ?? 0), { timeout: 30_000 }).toBeGreaterThan(0)
  await page.getByRole('button', { name: 'Cancel deep audit' }).click()
  await expect(page.getByText(/^Cancelled; \d+ row groups are saved/)).toBeVisible()
  const saved = Number((await page.getByText(/^Cancelled; \d+ row groups/).textContent())!.match(/(\d+) row groups/)![1])
  expect(saved).toBeGreaterThan(0)

  // a reload keeps the saved progress (IndexedDB); resuming reuses it
  await page.reload()
  await waitForDataset(page, 'Demo dataset')
  const resume = page.getByRole('button', { name: /^Resume deep audit \(\d+ row groups saved\)/ })
  await expect(resume).toBeVisible({ timeout: 30_000 })
  await resume.click()
  await expect(page.getByText(/^Deep audit done \(\d+ row groups reused/)).toBeVisible({ timeout: 60_000 })
  expect(await shown(page)).toContain(`undecodable-audio ${bad.id}`)
  await page.screenshot({ path: testInfo.outputPath('audit-deep.png'), fullPage: true })
})
