/**
 * Audit view on the demo: the known defects (public/demo/defects.json) are listed, each linked to its example; the
 * deep audit finds the undecodable FLAC, can be cancelled and resumes from the state kept in IndexedDB; exports.
 */
import { expect, test, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { demoRootDir } from './fixtures/paths.ts'
import { waitForDataset } from './fixtures/overview-page.ts'

const defects = JSON.parse(readFileSync(resolve(demoRootDir, '../defects.json'), 'utf8')) as { id: string; kind: string }[]

async function shown(page: Page): Promise<string[]> {
  return page.getByRole('table', { name: 'Audit findings' }).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-kind')} ${tr.querySelectorAll('td')[2].textContent}`))
}

test('the demo defects are listed and link to their examples; exports', async ({ page }, testInfo) => {
  await page.goto('/?view=audit')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByRole('status').filter({ hasText: /findings on/ })).toBeVisible({ timeout: 30_000 })
  const rows = await shown(page)
  for (const d of defects.filter((x) => x.kind !== 'undecodable-audio')) expect(rows).toContain(`${d.kind} ${d.id}`)
  // grouped by severity and kind
  const kinds = page.getByRole('table', { name: 'Findings by kind' })
  for (const d of defects.filter((x) => x.kind !== 'undecodable-audio')) await expect(kinds.locator(`tr[data-kind="${d.kind}"]`)).toHaveCount(1)
  await page.screenshot({ path: testInfo.outputPath('audit.png'), fullPage: true })

  // filter to one kind, sort by where
  const empty = defects.find((d) => d.kind === 'empty-text')!
  await kinds.getByRole('checkbox', { name: 'Only empty-text' }).check()
  expect(await shown(page)).toEqual([`empty-text ${empty.id}`])

  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export findings (JSON)' }).click()])
  const body = JSON.parse(await readFile(await json.path(), 'utf8')) as { findings: { kind: string; path: string; row: number | null }[] }
  for (const d of defects.filter((x) => x.kind !== 'undecodable-audio')) expect(body.findings.some((f) => `${f.path}:${f.row}` === d.id && f.kind === d.kind)).toBe(true)
  const [flagged] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export flagged rows (JSONL)' }).click()])
  const ids = (await readFile(await flagged.path(), 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)
  expect(ids).toContain(empty.id)

  // the example link selects it for the Inspector
  await page.getByRole('table', { name: 'Audit findings' }).getByRole('button', { name: empty.id }).click()
  await expect.poll(() => new URL(page.url()).searchParams.get('example')).toBe(empty.id)
})

test('deep audit: cancel keeps progress, resume finishes and finds the undecodable FLAC', async ({ page }, testInfo) => {
  const bad = defects.find((d) => d.kind === 'undecodable-audio')!
  await page.goto('/?view=audit')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByRole('status').filter({ hasText: /findings on/ })).toBeVisible({ timeout: 30_000 })
  const forget = page.getByRole('button', { name: 'Forget saved progress' })
  if (await forget.count() > 0) await forget.click()
  await page.getByRole('button', { name: 'Deep audit' }).click()
  const progress = page.getByRole('progressbar', { name: 'Deep audit progress' })
  await expect.poll(async () => Number(await progress.getAttribute('value') ?? 0), { timeout: 30_000 }).toBeGreaterThan(40)
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
