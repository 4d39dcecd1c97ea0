/** The Overview on the bundled demo: opens by default, lists every language and partition with the right hours. */
import { expect, test } from '@playwright/test'
import { readExpectedFiles, totalsBy, type ExpectedFile } from './fixtures/expected-stats.ts'
import { expectLanguageHours, shownPartitions, waitForDataset } from './fixtures/overview-page.ts'
import { demoRootDir } from './fixtures/paths.ts'

let demoFiles: ExpectedFile[]

test.beforeAll(async () => {
  demoFiles = await readExpectedFiles(demoRootDir)
  expect(demoFiles.length, 'demo parquet files on disk').toBeGreaterThan(0)
})

test('the demo opens by default: every language with its hours and rows', async ({ page }, testInfo) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await expectLanguageHours(page, totalsBy(demoFiles, (f) => f.keys.language))

  // languages carry their names (Intl.DisplayNames), e.g. eng_Latn → English (Latin)
  const table = page.getByRole('table', { name: 'Hours per language' })
  const eng = demoFiles.find((f) => f.keys.language === 'eng_Latn')
  if (eng) await expect(table.getByRole('row', { name: /eng_Latn English \(Latin\)/ })).toBeVisible()

  // the chart is drawn, one bar per language
  const chart = page.getByRole('group', { name: /^Bar chart of hours per language, ranked/ })
  await expect(chart.locator('.chart-bar')).toHaveCount(totalsBy(demoFiles, (f) => f.keys.language).size)

  await page.screenshot({ path: testInfo.outputPath('overview-demo.png'), fullPage: true })
})

test('the demo: partition folders, totals, and the requests it cost', async ({ page }) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  const expected = totalsBy(demoFiles, (f) => `${f.keys.corpus}/${f.keys.language}/${f.keys.split}`)
  const shown = await shownPartitions(page)
  expect([...shown.keys()].sort()).toEqual([...expected.keys()].sort())
  for (const [key, want] of expected) {
    const got = shown.get(key)!
    expect({ files: got.files, rows: got.rows }, key).toEqual({ files: want.files, rows: want.rows })
    expect(got.hours, key).toBeCloseTo(want.hours, 9)
  }

  const totalRows = demoFiles.reduce((sum, f) => sum + (f.rows ?? 0), 0)
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary.getByRole('definition').filter({ hasText: /\d/ }).first()).toBeVisible()
  const rowsValue = await summary.locator('dt', { hasText: /^Rows$/ }).locator('xpath=following-sibling::dd').getAttribute('data-value')
  expect(Number(rowsValue)).toBe(totalRows)
  // hours and rows come first; what opening cost is a line below them
  expect(await summary.locator('dt').allTextContents()).toEqual(expect.arrayContaining(['Hours', 'Rows']))
  expect((await summary.locator('dt').allTextContents()).slice(0, 2)).toEqual(['Hours', 'Rows'])
  const cost = await summary.getByText(/with [\d,]+ requests, [\d.]+ [kMG]?B read/).textContent()
  expect(Number(/with ([\d,]+) requests/.exec(cost!)![1].replace(/,/g, ''))).toBeGreaterThan(0)

  // hours per (corpus, language, split) pivot has one row per (corpus, language)
  const pivot = page.getByRole('table', { name: 'Hours per corpus, language and split' })
  const mixturePartitions = new Set(demoFiles.map((f) => `${f.keys.corpus}/${f.keys.language}`))
  await expect(pivot.locator('tbody tr')).toHaveCount(mixturePartitions.size)
})

test('the Overview is usable at 1280×800 in light and dark themes', async ({ page }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
  expect(background).toBe('rgb(13, 17, 23)')
  // nothing overflows the viewport horizontally
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  // every control has an accessible name
  for (const name of ['Open demo dataset', 'Open dataset folder', 'Open']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible()
  }
  await expect(page.getByLabel('Dataset URL')).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('overview-demo-dark.png') })
})
