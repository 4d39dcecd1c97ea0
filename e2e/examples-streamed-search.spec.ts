/**
 * The streamed transcript search, as a person with 10⁷ rows meets it, tried on the demo with the row limit set to 0
 * (`?examples_index_rows=0`): typing a word lists the matches as the rows are read, with rows searched of all and a
 * Stop button; the count and the rows are the ones the indexed search (the default on the demo) lists; Stop keeps the
 * matches and Continue finishes to the same count (a copy of the demo behind 400 ms a request); j in the Inspector steps to the next match. Light and dark.
 * Screenshots: examples-streamed-{light,dark}.png.
 */
import { expect, test, type Page } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'
import { serveSlowDemo, type SlowDemo } from './fixtures/slow-demo.ts'

const list = (page: Page) => page.getByRole('table', { name: 'Examples' })
const rows = (page: Page) => list(page).locator('[data-example-id]')
const word = 'THE'

async function search(page: Page, query: string): Promise<void> {
  await waitForDataset(page, 'Demo dataset')
  await page.getByLabel('Transcript contains', { exact: true }).fill(query)
}

/** The list's count, or NaN while it is being read. */
async function shownCount(page: Page): Promise<number> {
  const m = /^([\d,]+) examples?/.exec(await page.locator('.examples-count').innerText())
  return m ? Number(m[1].replace(/,/g, '')) : Number.NaN
}

/** The indexed search's count and first ids (the demo's default). */
async function indexed(page: Page): Promise<{ count: number; ids: string[] }> {
  await page.goto('/?view=examples')
  await waitForDataset(page, 'Demo dataset')
  await expect.poll(() => shownCount(page), { timeout: 30_000 }).toBeGreaterThan(100)
  const all = await shownCount(page)
  await page.getByLabel('Transcript contains', { exact: true }).fill(word)
  await expect(page.getByTestId('examples-streamed')).toHaveCount(0)
  await expect.poll(() => shownCount(page), { timeout: 30_000 }).toBeLessThan(all)
  const count = await shownCount(page)
  expect(count).toBeGreaterThan(5)
  await expect.poll(async () => (await rows(page).locator('.examples-text').allInnerTexts()).every((t) => t.toLowerCase().includes('the'))).toBe(true)
  return { count, ids: await rows(page).evaluateAll((els) => els.slice(0, 10).map((e) => e.getAttribute('data-example-id')!)) }
}

for (const scheme of ['light', 'dark'] as const) {
  test(`a transcript search streams: the indexed search's matches, rows searched of all (${scheme})`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme })
    await page.setViewportSize({ width: 1280, height: 900 })
    const want = await indexed(page)

    await page.goto('/?view=examples&examples_index_rows=0')
    await search(page, word)
    const status = page.getByTestId('examples-scan-status')
    await expect(status).toHaveText(new RegExp(`^${want.count.toLocaleString('en-US')} match(es)? \\(all [\\d,]+ rows searched\\)$`), { timeout: 30_000 })
    await expect(page.getByTestId('examples-streamed')).toBeVisible()
    await expect(page.getByRole('progressbar', { name: 'Rows searched' })).toBeVisible()
    const ids = await rows(page).evaluateAll((els) => els.slice(0, 10).map((e) => e.getAttribute('data-example-id')!))
    expect(ids).toEqual(want.ids)
    expect((await rows(page).locator('.examples-text').allInnerTexts()).every((t) => t.toLowerCase().includes('the'))).toBe(true)

    // the Inspector steps through the streamed matches
    await rows(page).first().click()
    await expect(page.getByTestId('inspector-example-id')).toContainText(ids[0])
    await page.keyboard.press('j')
    await expect(page.getByTestId('inspector-example-id')).toContainText(ids[1])
    await page.screenshot({ path: testInfo.outputPath(`examples-streamed-${scheme}.png`), fullPage: true })
  })
}

/** `path:row` of every row finding in the Audit's triage sections (every group opened). */
async function auditFlaggedRows(page: Page): Promise<Set<string>> {
  const expand = page.locator('.triage-section').getByRole('button', { name: 'Expand all' })
  while (await expand.count() > 0) await expand.first().click()
  const wheres = await page.locator('.triage-section table.findings tbody tr td.where').allInnerTexts()
  return new Set(wheres.filter((w) => /:\d+$/.test(w)))
}

for (const scheme of ['light', 'dark'] as const) {
  test(`"Only flagged" past the row limit asks for the Audit, then lists the rows it flagged (${scheme})`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/?view=examples&examples_index_rows=0')
    await waitForDataset(page, 'Demo dataset')
    await page.getByLabel('Only flagged').check()
    const status = page.getByTestId('examples-scan-status')
    await expect(status).toContainText('“Only flagged” lists the rows the Audit flags')
    await expect(rows(page)).toHaveCount(0)
    await page.screenshot({ path: testInfo.outputPath(`examples-flagged-needs-audit-${scheme}.png`) })
    await status.getByRole('button', { name: 'Open the Audit' }).click()
    await expect(page.getByText(/^Audio check: [\d,]+ rows read/)).toBeVisible({ timeout: 60_000 })
    const flagged = Number((await page.getByText(/rows are flagged/).locator('strong').innerText()).replace(/,/g, ''))
    const want = await auditFlaggedRows(page)
    expect(want.size).toBe(flagged)

    await page.getByRole('tab', { name: 'Examples' }).click()
    await expect(page.getByLabel('Only flagged')).toBeChecked()
    await expect(status).toHaveText(new RegExp(`^${flagged.toLocaleString('en-US')} match(es)? \\(all [\\d,]+ rows searched\\)$`), { timeout: 30_000 })
    await expect(page.getByTestId('examples-streamed')).toBeVisible()
    const ids = await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-example-id')!))
    expect(ids.length).toBeGreaterThan(5)
    for (const id of ids) expect(want.has(id), id).toBe(true)
    await page.screenshot({ path: testInfo.outputPath(`examples-flagged-streamed-${scheme}.png`), fullPage: true })
  })
}

test.describe('behind a slow server', () => {
  let demo: SlowDemo | undefined
  test.beforeAll(async () => { demo = await serveSlowDemo(400) })
  test.afterAll(async () => { await demo?.close() })

  test('Stop keeps the matches found so far; Continue finishes to the same count', async ({ page }) => {
    test.setTimeout(180_000)
    const want = await indexed(page)
    await page.goto(`/?dataset=${encodeURIComponent(demo!.url)}&view=examples&examples_index_rows=0`)
    await expect(page.getByRole('table', { name: 'Examples' }).locator('[data-example-id]').first()).toBeVisible({ timeout: 60_000 })
    await page.getByLabel('Transcript contains', { exact: true }).fill(word)
    const status = page.getByTestId('examples-scan-status')
    await expect(status).toContainText('so far', { timeout: 30_000 })
    await page.getByRole('button', { name: 'Stop' }).click()
    await expect(status).toContainText(/^Stopped: [\d,]+ match(es)? in [\d,]+ of [\d,]+ rows searched/)
    const [, found, read, total] = /^Stopped: ([\d,]+) match(?:es)? in ([\d,]+) of ([\d,]+)/.exec(await status.innerText())!.map((v) => Number(v.replace(/,/g, '')))
    expect(found).toBeLessThanOrEqual(want.count)
    expect(read).toBeLessThan(total)
    // stopped means stopped: nothing more is read
    await page.waitForTimeout(1500)
    await expect(status).toContainText(`in ${read.toLocaleString('en-US')} of`)
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(status).toHaveText(new RegExp(`^${want.count.toLocaleString('en-US')} match(es)? \\(all [\\d,]+ rows searched\\)$`), { timeout: 120_000 })
    expect(await rows(page).evaluateAll((els) => els.slice(0, 10).map((e) => e.getAttribute('data-example-id')!))).toEqual(want.ids)
  })
})
