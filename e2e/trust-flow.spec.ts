/**
 * Trust and flow on the demo, read as a person reads them, in light and dark:
 * - one definition of a flagged row (src/engine/audit/flagged.ts): the Audit's "N of M rows are flagged", the
 *   Examples list's count with "Only flagged", and one example's finding count in Examples, in the Audit's findings
 *   (the rows whose "where" is the example) and in the Inspector are the same numbers and kinds;
 * - the language focus narrows every view: the Overview's tiles and language charts, and the Mixture's charts,
 *   against the unfocused numbers and the hours computed here from the parquet files.
 * Screenshots at 1280 and 1920 px wide (trust-*.png).
 */
import { expect, test, type Page } from '@playwright/test'
import { readExpectedFiles, type ExpectedFile } from './fixtures/expected-stats.ts'
import { overviewSettled, waitForDataset } from './fixtures/overview-page.ts'
import { demoRootDir } from './fixtures/paths.ts'

let demoFiles: ExpectedFile[]
test.beforeAll(async () => { demoFiles = await readExpectedFiles(demoRootDir) })

/** The demo row with the most findings under the app's default preset: fast speech, a speaking-rate outlier, under min_audio_len. */
const busyRow = 'corpus=mls/split=train/language=eng_Latn/part-0.parquet:5'

/** `<kind> <where>` of every finding in the Audit's triage sections (every group opened). */
async function auditFindings(page: Page): Promise<{ kind: string; where: string }[]> {
  const expand = page.locator('.triage-section').getByRole('button', { name: 'Expand all' })
  while (await expand.count() > 0) await expand.first().click()
  return page.locator('.triage-section table.findings tbody tr').evaluateAll((trs) => trs.map((tr) => ({ kind: tr.getAttribute('data-kind') ?? '', where: tr.querySelector('td.where')?.textContent ?? '' })))
}

/** The Examples list's count, NaN while it is being read. */
async function examplesCount(page: Page): Promise<number> {
  const text = await page.locator('.examples-count').innerText()
  const count = /^([\d,]+) example/.exec(text)?.[1]
  return count === undefined ? Number.NaN : Number(count.replace(/,/g, ''))
}

/** A tile's exact value (`data-value`) by its term. */
async function tile(page: Page, term: string): Promise<number> {
  const card = page.locator('.cards .card').filter({ has: page.locator('dt', { hasText: new RegExp(`^${term}$`) }) })
  return Number(await card.locator('dd[data-value]').getAttribute('data-value'))
}

async function tiles(page: Page) {
  await overviewSettled(page)
  return { hours: await tile(page, 'Hours'), rows: await tile(page, 'Rows'), languages: await tile(page, 'Languages'), partitions: await tile(page, 'Partition folders') }
}

async function shoot(page: Page, name: string, outputPath: (name: string) => string): Promise<void> {
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: outputPath(`${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme`, () => {
    test.beforeEach(async ({ page }) => { await page.emulateMedia({ colorScheme: scheme }) })

    test('one flagged-row count and one finding count in the Audit, Examples and the Inspector', async ({ page }, testInfo) => {
      await page.goto('/?view=audit')
      await waitForDataset(page, 'Demo dataset')
      await expect(page.getByText(/^Audio check: [\d,]+ rows read/)).toBeVisible({ timeout: 60_000 })
      const headline = page.getByText(/rows are flagged/)
      await expect(headline).toBeVisible()
      const flaggedText = await headline.locator('strong').innerText()
      const flagged = Number(flaggedText.replace(/,/g, ''))
      expect(flagged).toBeGreaterThan(3)
      const findings = await auditFindings(page)
      const auditKinds = [...new Set(findings.filter((f) => f.where === busyRow).map((f) => f.kind))].sort()
      expect(auditKinds.length).toBeGreaterThanOrEqual(2)
      // the Audit's flagged rows are the distinct "where"s of its row findings
      expect(new Set(findings.filter((f) => /:\d+$/.test(f.where)).map((f) => f.where)).size).toBe(flagged)
      await shoot(page, `trust-audit-${scheme}`, (n) => testInfo.outputPath(n))

      await page.getByRole('tab', { name: 'Examples' }).click()
      await expect(page.getByText(/^\d+ examples?/)).toBeVisible({ timeout: 30_000 })
      await page.getByLabel('Only flagged').check()
      await expect.poll(() => examplesCount(page), { timeout: 30_000 }).toBe(flagged)
      // most findings first: the busy row tops the list
      await page.getByRole('table', { name: 'Examples' }).getByRole('button', { name: 'Findings' }).click()
      await expect(page.getByRole('table', { name: 'Examples' }).getByRole('columnheader', { name: /Findings/ })).toHaveAttribute('aria-sort', 'descending')
      const row = page.getByRole('table', { name: 'Examples' }).locator(`[data-example-id="${busyRow}"]`)
      await expect(row.locator('.examples-findings')).toHaveText(`${auditKinds.length} findings`)
      expect(((await row.locator('.examples-findings').getAttribute('data-kinds')) ?? '').split(' ').sort()).toEqual(auditKinds)

      await row.click()
      const inspector = page.getByTestId('row-findings')
      await expect(inspector).toBeVisible({ timeout: 30_000 })
      await expect(inspector).toContainText(`Flagged row: ${auditKinds.length} findings`)
      await expect(inspector).toHaveAttribute('data-count', String(auditKinds.length))
      expect(((await inspector.getAttribute('data-kinds')) ?? '').split(' ').sort()).toEqual(auditKinds)
      await shoot(page, `trust-examples-${scheme}`, (n) => testInfo.outputPath(n))
    })

    test('the language focus narrows the Overview tiles and charts and the Mixture charts', async ({ page }, testInfo) => {
      await page.goto('/')
      await waitForDataset(page, 'Demo dataset')
      const all = await tiles(page)
      const focus = ['eng_Latn', 'swh_Latn']
      const mine = demoFiles.filter((f) => focus.includes(f.keys.language))
      const everyLanguage = new Set(demoFiles.map((f) => f.keys.language)).size
      expect(all.languages).toBe(everyLanguage)
      await expect(page.getByRole('group', { name: new RegExp(`^Bar chart of hours per language \\(top ${everyLanguage} of ${everyLanguage}\\)`) }).locator('.chart-bar')).toHaveCount(everyLanguage)

      // focus two languages from the Find-language table, as a person does
      for (const code of focus) await page.getByRole('table', { name: 'Hours per language' }).locator(`tr[data-language="${code}"]`).click()
      await expect(page.getByRole('region', { name: 'Language focus' })).toContainText('swh_Latn')
      await expect(page.getByTestId('summary-focus')).toBeVisible()
      const focused = await tiles(page)
      expect(focused.rows).toBe(mine.reduce((n, f) => n + (f.rows ?? 0), 0))
      expect(focused.hours).toBeCloseTo(mine.reduce((h, f) => h + (f.samples ?? 0), 0) / 16000 / 3600, 9)
      expect(focused.languages).toBe(2)
      expect(focused.partitions).toBe(new Set(mine.map((f) => f.path.slice(0, f.path.lastIndexOf('/')))).size)
      expect(focused.rows).toBeLessThan(all.rows)
      // the language charts draw the two; the table still lists every language and says so
      await expect(page.locator('#languages-heading')).toHaveAttribute('data-charted', '2')
      await expect(page.getByRole('group', { name: /^Bar chart of hours per language \(top 2 of 2\)/ }).locator('.chart-bar')).toHaveCount(2)
      await expect(page.getByTestId('table-all-languages')).toBeVisible()
      await expect(page.getByRole('table', { name: 'Hours per language' }).locator('tbody tr')).toHaveCount(everyLanguage)
      await shoot(page, `trust-overview-focus-${scheme}`, (n) => testInfo.outputPath(n))

      // the Mixture: its charts count the focused languages' partitions of the split
      await page.getByRole('tab', { name: 'Mixture' }).click()
      const scatter = page.locator('#scatter-heading')
      await expect(scatter).toBeVisible({ timeout: 30_000 })
      await expect(page.getByTestId('mixture-focus')).toBeVisible()
      const trainPartitions = (languages: string[] | null) => new Set(demoFiles.filter((f) => f.keys.split === 'train' && (languages === null || languages.includes(f.keys.language)))
        .map((f) => `${f.keys.corpus}/${f.keys.language}`)).size
      await expect(scatter).toHaveAttribute('data-partitions', String(trainPartitions(focus)))
      await expect(page.locator('#ranked-p-heading')).toHaveAttribute('data-partitions', String(trainPartitions(focus)))
      await shoot(page, `trust-mixture-focus-${scheme}`, (n) => testInfo.outputPath(n))
      await page.getByRole('button', { name: /^Clear focus/ }).click()
      await expect(scatter).toHaveAttribute('data-partitions', String(trainPartitions(null)))
      expect(trainPartitions(null)).toBeGreaterThan(trainPartitions(focus))
      await page.getByRole('tab', { name: 'Overview' }).click()
      expect(await tiles(page)).toEqual(all)
    })
  })
}
