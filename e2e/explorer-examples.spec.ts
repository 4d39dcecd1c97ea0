/**
 * The Examples view on the bundled demo: filter by language and transcript text, the seeded random N per language,
 * and opening an example in the Inspector. Screenshot: examples.png.
 */
import { expect, test, type Page } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'

async function openExamples(page: Page): Promise<void> {
  await page.goto('/?view=examples')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByText(/^\d+ examples?/)).toBeVisible({ timeout: 30_000 })
}

async function shownCount(page: Page): Promise<number> {
  const text = await page.locator('.examples-count').innerText()
  return Number(/^([\d,]+) example/.exec(text)![1].replace(/,/g, ''))
}

test('filter by language and text, then open an example in the Inspector', async ({ page }, testInfo) => {
  await openExamples(page)
  const all = await shownCount(page)
  expect(all).toBeGreaterThan(100)

  // language filter: every row is Swahili, names shown beside codes
  await page.getByLabel('Language', { exact: true }).selectOption('swh_Latn')
  await expect.poll(() => shownCount(page)).toBeLessThan(all)
  const rows = page.getByRole('listbox', { name: 'Examples' }).getByRole('option')
  await expect(rows.first()).toContainText('swh_Latn')
  await expect(rows.first()).toContainText('Swahili')
  const swahili = await shownCount(page)
  const languages = await rows.locator('.examples-language code').allInnerTexts()
  expect(new Set(languages)).toEqual(new Set(['swh_Latn']))

  // text filter: a word of the first transcript, in other case; every row shown contains it
  const firstText = await rows.first().locator('.examples-text').innerText()
  const word = firstText.split(/\s+/).find((w) => w.length >= 4)!.replace(/[^\p{L}]/gu, '')
  await page.getByLabel('Transcript contains', { exact: true }).fill(word.toUpperCase())
  const texts = () => rows.locator('.examples-text').allInnerTexts()
  await expect.poll(async () => (await texts()).every((t) => t.toLowerCase().includes(word.toLowerCase()))).toBe(true)
  expect((await texts()).length).toBeGreaterThan(0)
  expect(await shownCount(page)).toBeLessThanOrEqual(swahili)
  await page.screenshot({ path: testInfo.outputPath('examples.png'), fullPage: true })

  // open the first: the Inspector shows it, and the URL names it
  const id = await rows.first().getAttribute('data-example-id')
  await rows.first().click()
  await expect(page.getByTestId('inspector-example-id')).toContainText(id!)
  expect(new URL(page.url()).searchParams.get('example')).toBe(id)
  expect(new URL(page.url()).searchParams.get('view')).toBe('inspector')
  await expect(page.getByTestId('transcript')).toHaveText(firstText)
})

test('random N per language is seeded: the same seed gives the same list, another seed another', async ({ page }) => {
  await openExamples(page)
  const ids = async () => page.getByRole('listbox', { name: 'Examples' }).getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('data-example-id')))
  await page.getByLabel('Random', { exact: true }).fill('2')
  await page.getByLabel('Sample seed', { exact: true }).fill('11')
  await page.getByRole('button', { name: 'Sample' }).click()
  await expect(page.getByText(/random 2 per language, seed 11/)).toBeVisible()
  const languages = await page.getByLabel('Language', { exact: true }).locator('option').count() - 1
  await expect.poll(() => shownCount(page)).toBe(2 * languages)
  const first = await ids()
  await page.getByLabel('Sample seed', { exact: true }).fill('12')
  await page.getByRole('button', { name: 'Sample' }).click()
  await expect(page.getByText(/seed 12/)).toBeVisible()
  await expect.poll(async () => JSON.stringify(await ids())).not.toBe(JSON.stringify(first))
  await page.getByLabel('Sample seed', { exact: true }).fill('11')
  await page.getByRole('button', { name: 'Sample' }).click()
  await expect(page.getByText(/seed 11/)).toBeVisible()
  await expect.poll(async () => JSON.stringify(await ids())).toBe(JSON.stringify(first))
})
