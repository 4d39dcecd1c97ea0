/**
 * The Batches view's pictures on the demo (plain SVG): one stack per streamed batch whose hover names the batch and
 * its examples per language (summing to the batch's size in the Batches table), a click on a stack opens that batch,
 * the bucket histogram counts every batch, and past 120 batches a brush moves the stacks' window (sliders at both
 * ends).
 */
import { expect, test, type Page } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'

async function listSizes(page: Page): Promise<Map<number, number>> {
  const rows = await page.getByRole('table', { name: 'Batches' }).locator('tbody tr[data-batch]').evaluateAll((trs) => trs.map((tr) =>
    [Number(tr.getAttribute('data-batch')), Number(tr.querySelectorAll('td')[2].getAttribute('data-value'))] as const))
  return new Map(rows)
}

test('a stack per batch, named on hover and opened on click; the bucket histogram counts every batch', async ({ page }) => {
  await page.goto('/?view=batches&split=train&max_batches=12')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByRole('status').filter({ hasText: /^Done/ })).toBeVisible({ timeout: 30_000 })
  const sizes = await listSizes(page)
  expect(sizes.size).toBe(12)

  const stacks = page.getByRole('group', { name: /^Stacked bars of examples per language in batches 0 to 11 of 12/ })
  await stacks.scrollIntoViewIfNeeded()
  const plot = (await stacks.locator('.chart-overlay').boundingBox())!
  const slot = plot.width / 12
  for (const batch of [0, 5, 11]) {
    await page.mouse.move(plot.x + (batch + 0.5) * slot, plot.y + plot.height / 2)
    const box = stacks.locator('.chart-tooltip')
    await expect(box).toContainText(`Batch ${batch}: ${sizes.get(batch)} examples`)
    const perLanguage = (await box.locator('div').allTextContents()).slice(1).map((line) => Number(line.split(': ')[1]))
    expect(perLanguage.reduce((a, b) => a + b, 0)).toBe(sizes.get(batch))
  }
  await page.mouse.click(plot.x + 5.5 * slot, plot.y + plot.height / 2)
  await expect(page.getByRole('heading', { name: /^Batch 5 / })).toBeVisible()

  // the histogram's bars add up to the 12 batches
  const histogram = page.getByRole('img', { name: /^Histogram of 12 batches over \d+ length buckets/ })
  const bars = histogram.locator('.chart-bar')
  const count = await bars.count()
  const hist = (await histogram.locator('.chart-overlay').boundingBox())!
  let total = 0
  for (let i = 0; i < count; i++) {
    await page.mouse.move(hist.x + ((i + 0.5) * hist.width) / count, hist.y + hist.height / 2)
    total += Number((await histogram.locator('.chart-tooltip div').nth(1).textContent())!.split(' ')[0])
  }
  expect(total).toBe(12)
})

test('past 120 batches a brush moves the stacks along all of them', async ({ page }) => {
  await page.goto('/?view=batches&split=train&max_batches=150')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByRole('status').filter({ hasText: /^Done/ })).toBeVisible({ timeout: 60_000 })
  await expect(page.getByRole('group', { name: /^Stacked bars of examples per language in batches 0 to 119 of 150/ })).toBeVisible()
  const last = page.getByRole('slider', { name: 'Last batch shown' })
  await expect(last).toHaveAttribute('aria-valuetext', 'batch 119 of 150 batches')
  await last.focus()
  await last.press('End')
  await expect(page.getByRole('group', { name: /in batches 0 to 149 of 150/ })).toBeVisible()
  const first = page.getByRole('slider', { name: 'First batch shown' })
  await first.focus()
  await first.press('PageUp')
  await expect(page.getByRole('group', { name: /in batches 15 to 149 of 150/ })).toBeVisible()
  await expect(page.getByRole('group', { name: /^Stacked bars/ }).locator('.chart-category-axis .chart-tick').first()).toHaveText('15')
})
