/**
 * Overview upgrades on the demo: every language, corpus and split with the right hours (computed here from the
 * parquet files, not hard-coded), log scale and rows toggles, partition filter / sort (and `?partition=` from the
 * Audit's links), the stats TSV vs data table; the language focus from a table row; the header's recent list and
 * config picker. (Every view's axe check and screenshots: a11y.spec.ts.)
 */
import { expect, test, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { readExpectedFiles, totalsBy, type ExpectedFile } from './fixtures/expected-stats.ts'
import { expectLanguageHours, shownPartitions, waitForDataset } from './fixtures/overview-page.ts'
import { demoRootDir, demoTsvPath } from './fixtures/paths.ts'

let demoFiles: ExpectedFile[]
test.beforeAll(async () => { demoFiles = await readExpectedFiles(demoRootDir) })

async function groupTable(page: Page, noun: string): Promise<Map<string, { hours: number; rows: number }>> {
  const rows = await page.getByRole('table', { name: `Hours per ${noun}`, exact: true }).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => {
    const v = [...tr.querySelectorAll('td[data-value]')].map((td) => Number(td.getAttribute('data-value')))
    return [tr.getAttribute('data-key') ?? '', { hours: v[0], rows: v[1] }] as const
  }))
  return new Map(rows)
}

test('hours and rows per language, corpus and split; log scale; rows metric', async ({ page }, testInfo) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await expectLanguageHours(page, totalsBy(demoFiles, (f) => f.keys.language))
  for (const noun of ['corpus', 'split'] as const) {
    const expected = totalsBy(demoFiles, (f) => f.keys[noun])
    const shown = await groupTable(page, noun)
    expect([...shown.keys()].sort()).toEqual([...expected.keys()].sort())
    for (const [k, want] of expected) {
      expect(shown.get(k)!.rows, `${noun} ${k}`).toBe(want.rows)
      expect(shown.get(k)!.hours, `${noun} ${k}`).toBeCloseTo(want.hours, 9)
    }
    // sorted by hours
    const hours = [...shown.values()].map((g) => g.hours)
    expect(hours).toEqual([...hours].sort((a, b) => b - a))
    await expect(page.getByRole('img', { name: new RegExp(`Bar chart of hours per ${noun}`) }).locator('.chart-bar')).toHaveCount(expected.size)
  }
  // the language pictures: a log histogram, the coverage curve, the top languages
  await expect(page.getByRole('group', { name: /histogram of 8 languages on a log axis/ })).toBeVisible()
  await expect(page.getByRole('img', { name: /^Cumulative coverage/ })).toBeVisible()
  await expect(page.getByRole('group', { name: /^Bar chart of hours per language \(top 8 of 8\)/ }).locator('.chart-bar')).toHaveCount(8)
  await page.getByLabel(/Log scale/).check()
  await expect(page.getByRole('img', { name: /Bar chart of hours per corpus \(log scale\)/ })).toBeVisible()
  await page.getByLabel('Rows', { exact: true }).check()
  await expect(page.getByRole('img', { name: /Bar chart of rows per corpus \(log scale\)/ })).toBeVisible()
  await expect(page.getByRole('group', { name: /^Bar chart of rows per language \(top/ })).toBeVisible()

  // clicking a language row focuses it: the corpus and split tables narrow to it, the focus bar says so
  const eng = totalsBy(demoFiles.filter((f) => f.keys.language === 'eng_Latn'), (f) => f.keys.corpus)
  await page.getByRole('table', { name: 'Hours per language' }).locator('tr[data-language="eng_Latn"]').click()
  await expect(page.getByRole('region', { name: 'Language focus' })).toContainText('eng_Latn')
  // the tables under the charts are a deferred render: they may lag the focus bar by a frame
  const want = Object.fromEntries([...eng].map(([k, v]) => [k, v.rows]))
  await expect.poll(async () => Object.fromEntries([...(await groupTable(page, 'corpus'))].map(([k, v]) => [k, v.rows]))).toEqual(want)
  await page.getByRole('button', { name: /^Clear focus/ }).click()
  await expect(page.getByRole('region', { name: 'Language focus' })).toHaveCount(0)
  await page.screenshot({ path: testInfo.outputPath('overview.png'), fullPage: true })
})

test('partition folders: filter, sort, ?partition= from the Audit; TSV vs data', async ({ page }) => {
  const one = demoFiles[0]
  const folder = one.path.split('/').slice(0, -1).join('/')
  await page.goto(`/?partition=${encodeURIComponent(folder)}`)
  await waitForDataset(page, 'Demo dataset')
  const filtered = await shownPartitions(page)
  expect([...filtered.keys()]).toEqual([`${one.keys.corpus}/${one.keys.language}/${one.keys.split}`])
  await page.getByLabel('Filter partitions').fill('split=dev')
  const dev = await shownPartitions(page)
  expect([...dev.keys()].sort()).toEqual([...totalsBy(demoFiles.filter((f) => f.keys.split === 'dev'), (f) => `${f.keys.corpus}/${f.keys.language}/${f.keys.split}`).keys()].sort())
  await page.getByRole('button', { name: 'Hours' }).last().click() // sort by hours, most first
  const table = page.getByRole('table', { name: 'Partition folders' })
  const hours = await table.locator('tbody tr td:last-child').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))))
  expect(hours).toEqual([...hours].sort((a, b) => b - a))

  // TSV vs data: the TSV's hours as written, the data's as computed here
  const tsv = readFileSync(demoTsvPath, 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'))
  const data = totalsBy(demoFiles, (f) => `${f.keys.corpus}/${f.keys.language}`)
  const comparison = page.getByRole('table', { name: 'Stats TSV vs data' })
  for (const [corpus, language, h] of tsv) {
    const row = comparison.locator(`tr[data-corpus="${corpus}"][data-language="${language}"]`)
    const values = await row.locator('td[data-value]').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-value')))
    expect(Number(values[0])).toBeCloseTo(Number(h), 12)
    expect(Number(values[1])).toBeCloseTo(data.get(`${corpus}/${language}`)!.hours, 9)
  }
})

test('open panel: recently opened list and the config picker (preset in the URL)', async ({ page }) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await page.getByRole('button', { name: 'Recently opened' }).click()
  await expect(page.getByRole('list', { name: 'Recently opened datasets' }).getByRole('button', { name: 'Demo dataset' })).toBeVisible()
  const stored = await page.evaluate(() => localStorage.getItem('mixscope.recent-datasets'))
  expect(JSON.parse(stored!)[0]).toMatchObject({ kind: 'demo', name: 'Demo dataset' })
  await page.getByLabel('Training config').selectOption('llm-finetune')
  await expect.poll(() => new URL(page.url()).searchParams.get('preset')).toBe('llm-finetune')
})
