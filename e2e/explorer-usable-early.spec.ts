/**
 * The explorer never gates a view on reading every row (docs/architecture.md "Views while the rows are read"): a copy
 * of the demo with a dataset index, served with a second of latency per request, so the open's row checks (a footer
 * and a row group per file, 51 files) take far longer than the index. Examples, Batches and the Audit are each
 * usable while the open still says it is checking rows; the Audit shows the footers' findings with both row passes'
 * progress and stops them, and the dataset stays open with its rows marked unchecked.
 */
import { expect, test, type Page } from '@playwright/test'
import { serveSlowDemo, type SlowDemo } from './fixtures/slow-demo.ts'

let demo: SlowDemo | undefined
let url: string

test.beforeAll(async () => {
  demo = await serveSlowDemo(1000)
  url = demo.url
})

test.afterAll(async () => {
  await demo?.close()
})

/** The open's status panel, while it still checks rows. */
const checkingRows = (page: Page) => page.getByRole('region', { name: 'Loading' }).filter({ hasText: 'Checking rows' })

test('Examples, Batches and the Audit are usable while the open still checks rows; the row passes stop', async ({ page }) => {
  test.setTimeout(180_000)
  await page.goto(`/?dataset=${encodeURIComponent(url)}&view=examples`)

  // Examples: a page of rows, listed by partition, read before the row checks are through
  const examples = page.getByRole('table', { name: 'Examples' }).locator('[data-example-id]')
  await expect(examples.first()).toBeVisible({ timeout: 60_000 })
  await expect(checkingRows(page)).toBeVisible({ timeout: 1 })
  await expect(page.getByTestId('examples-by-partition')).toBeVisible()
  await expect(page.locator('.examples-count')).toHaveText(/^[\d,]+ examples$/)

  // Batches: the plan's tables (buckets, mixture streams) while the rows are still checked
  await page.getByRole('tab', { name: 'Batches' }).click()
  await expect(page.getByRole('heading', { name: 'Length buckets' })).toBeVisible({ timeout: 60_000 })
  await expect(checkingRows(page)).toBeVisible({ timeout: 1 })

  // Audit: the footers' findings at once, with what is still reading and its progress
  await page.getByRole('tab', { name: 'Audit' }).click()
  await expect(page.locator('.audit-status')).toContainText('from the footers and the dataset index', { timeout: 30_000 })
  await expect(checkingRows(page)).toBeVisible({ timeout: 1 })
  const openChecks = page.locator('[data-pass="open-row-checks"]')
  await expect(openChecks).toContainText(/Row checks of the open .*: [\d,]+ of [\d,]+ rows/)
  const done = Number(await openChecks.getAttribute('data-done'))
  expect(done).toBeLessThan(Number(await openChecks.getAttribute('data-total')))
  await expect(page.locator('[data-pass="audit-rows"]')).toContainText(/Reading every row's audio_size and text/)

  // Stop: the audit keeps the footers' findings and can continue; the dataset stays open, its rows marked unchecked
  await page.locator('[data-pass="audit-rows"]').getByRole('button', { name: 'Stop' }).click()
  await expect(page.locator('[data-pass="audit-rows"]')).toContainText('Row pass stopped')
  await expect(page.locator('.audit-status')).toContainText('from the footers')
  await openChecks.getByRole('button', { name: 'Stop row checks' }).click()
  await expect(page.getByRole('region', { name: 'Loading' })).toHaveCount(0)
  await expect(openChecks).toHaveCount(0)
  await page.getByRole('tab', { name: 'Examples' }).click()
  await expect(examples.first()).toBeVisible()
})
