/**
 * A sort and a sample past the example index's row limit, as a person with 10⁷ rows meets them, tried on the demo
 * with the limit set to 0 (`?examples_index_rows=0`): sorting by length lists, once every row is searched, the rows
 * the indexed sort (the demo's default) lists first, in the same order; a random sample per language (then sorted)
 * lists the indexed sample's picks. Light and dark, at 1280 and 1920 px.
 * Screenshots: examples-streamed-sort-{light,dark}-{1280,1920}.png, examples-streamed-sample-{light,dark}-{1280,1920}.png.
 */
import { expect, test, type Page } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'

const list = (page: Page) => page.getByRole('table', { name: 'Examples' })
const rows = (page: Page) => list(page).locator('[data-example-id]')
const firstIds = (page: Page) => rows(page).evaluateAll((els) => els.slice(0, 12).map((e) => e.getAttribute('data-example-id')!))
const sortByLength = (page: Page) => list(page).getByRole('columnheader').getByRole('button', { name: /^Length/ }).click()

async function shownCount(page: Page): Promise<number> {
  const m = /^([\d,]+) examples?/.exec(await page.locator('.examples-count').innerText())
  return m ? Number(m[1].replace(/,/g, '')) : Number.NaN
}

/** The indexed answers (the demo's default): the length sort's first ids, then the sample's count and first ids. */
async function indexed(page: Page): Promise<{ all: number; sorted: string[]; sampled: number; sample: string[] }> {
  await page.goto('/?view=examples')
  await waitForDataset(page, 'Demo dataset')
  await expect.poll(() => shownCount(page), { timeout: 30_000 }).toBeGreaterThan(100)
  const all = await shownCount(page)
  await sortByLength(page)
  await expect(list(page).getByRole('columnheader', { name: /Length/ })).toHaveAttribute('aria-sort', 'descending')
  await expect.poll(async () => (await firstIds(page)).length).toBe(12)
  const sorted = await firstIds(page)
  await page.getByRole('button', { name: 'Sample' }).click()
  await expect.poll(() => shownCount(page), { timeout: 30_000 }).toBeLessThan(all)
  return { all, sorted, sampled: await shownCount(page), sample: await firstIds(page) }
}

for (const scheme of ['light', 'dark'] as const) {
  test(`past the row limit a sort and a sample stream and list the indexed answers (${scheme})`, async ({ page }, testInfo) => {
    test.setTimeout(120_000)
    await page.emulateMedia({ colorScheme: scheme })
    await page.setViewportSize({ width: 1280, height: 900 })
    const want = await indexed(page)
    expect(want.sampled).toBeGreaterThan(5)

    await page.goto('/?view=examples&examples_index_rows=0')
    await waitForDataset(page, 'Demo dataset')
    await expect(list(page).locator('[data-example-id]').first()).toBeVisible({ timeout: 30_000 })
    await sortByLength(page)
    const status = page.getByTestId('examples-scan-status')
    const all = want.all.toLocaleString('en-US')
    await expect(status).toHaveText(`${all} matches (all ${all} rows searched)`, { timeout: 30_000 })
    await expect(page.getByTestId('examples-streamed')).toBeVisible()
    await expect.poll(() => firstIds(page)).toEqual(want.sorted)
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: testInfo.outputPath(`examples-streamed-sort-${scheme}-${width}.png`) })
    }

    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByRole('button', { name: 'Sample' }).click()
    await expect(status).toHaveText(`${want.sampled} examples (random 5 per language, seed 0) of ${all} matches (all ${all} rows searched)`, { timeout: 30_000 })
    await expect.poll(() => firstIds(page)).toEqual(want.sample)
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: testInfo.outputPath(`examples-streamed-sample-${scheme}-${width}.png`) })
    }
  })
}
