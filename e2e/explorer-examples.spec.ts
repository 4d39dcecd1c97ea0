/**
 * The Examples tab on the bundled demo: the list and the Inspector side by side; the searchable language
 * multi-select, transcript search, sortable column headers, "only flagged", a message when the filters exclude
 * everything (min > max), the seeded random N per language, and the inline play button. Screenshot: examples.png.
 */
import { expect, test, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { demoRootDir } from './fixtures/paths.ts'
import { waitForDataset } from './fixtures/overview-page.ts'

const defects = JSON.parse(readFileSync(resolve(demoRootDir, '../defects.json'), 'utf8')) as { id: string; kind: string }[]

async function openExamples(page: Page): Promise<void> {
  await page.goto('/?view=examples')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByText(/^\d+ examples?/)).toBeVisible({ timeout: 30_000 })
}

/** The list's count, or NaN while it is being read (so `expect.poll` keeps polling instead of throwing). */
async function shownCount(page: Page): Promise<number> {
  const text = await page.locator('.examples-count').innerText()
  const count = /^([\d,]+) example/.exec(text)?.[1]
  return count === undefined ? Number.NaN : Number(count.replace(/,/g, ''))
}

const list = (page: Page) => page.getByRole('table', { name: 'Examples' })
const rows = (page: Page) => list(page).locator('[data-example-id]')

/** Chooses `codes` in the language multi-select (searching each). */
async function chooseLanguages(page: Page, codes: string[]): Promise<void> {
  await page.getByRole('button', { name: /^Languages:/ }).click()
  for (const code of codes) {
    await page.getByLabel('Search languages').fill(code)
    await page.getByRole('group', { name: 'Languages' }).getByRole('checkbox').first().check()
  }
  await page.keyboard.press('Escape')
}

test('languages, text and sort; the Inspector beside the list keeps the list in place', async ({ page }, testInfo) => {
  await openExamples(page)
  const all = await shownCount(page)
  expect(all).toBeGreaterThan(100)

  // searchable multi-select: two languages, every row is one of them, names beside codes
  await chooseLanguages(page, ['swh_Latn', 'Russian'])
  await expect(page.getByRole('button', { name: 'Languages: swh_Latn, rus_Cyrl' })).toBeVisible()
  await expect.poll(() => shownCount(page)).toBeLessThan(all)
  const two = await shownCount(page)
  expect(new Set(await rows(page).locator('.examples-language code').allInnerTexts())).toEqual(new Set(['swh_Latn', 'rus_Cyrl']))
  await expect(rows(page).first()).toContainText(/Swahili|Russian/)
  // the choice is the explorer's language focus (the other views filter to it too)
  await expect(page.getByRole('region', { name: 'Language focus' })).toContainText('rus_Cyrl')

  // sort by length, longest first: the shown lengths fall
  await list(page).getByRole('button', { name: 'Length' }).click()
  await expect(list(page).getByRole('columnheader', { name: /Length/ })).toHaveAttribute('aria-sort', 'descending')
  // the sorted page arrives after the header changes
  await expect.poll(() => rows(page).locator('.examples-length').count()).toBeGreaterThan(5)
  const lengths = await rows(page).locator('.examples-length').evaluateAll((els) => els.map((e) => Number(/^(\d+)/.exec(e.getAttribute('title') ?? '')?.[1])))
  expect(lengths.length).toBeGreaterThan(5)
  expect(lengths).toEqual([...lengths].sort((a, b) => b - a))

  // text filter: a word of the first transcript, in other case
  const firstText = await rows(page).first().locator('.examples-text').innerText()
  const word = firstText.split(/\s+/).find((w) => w.replace(/[^\p{L}]/gu, '').length >= 4)!.replace(/[^\p{L}]/gu, '')
  await page.getByLabel('Transcript contains', { exact: true }).fill(word.toUpperCase())
  const texts = () => rows(page).locator('.examples-text').allInnerTexts()
  await expect.poll(async () => (await texts()).every((t) => t.toLowerCase().includes(word.toLowerCase()))).toBe(true)
  await expect.poll(() => shownCount(page)).toBeLessThanOrEqual(two)

  // choosing a row shows it beside the list; the list stays, focus stays on the row
  const id = await rows(page).first().getAttribute('data-example-id')
  await rows(page).first().click()
  await expect(page.getByTestId('inspector-example-id')).toContainText(id!)
  expect(new URL(page.url()).searchParams.get('example')).toBe(id)
  expect(new URL(page.url()).searchParams.get('view')).toBe('examples')
  await expect(list(page)).toBeVisible()
  await expect(page.getByTestId('transcript')).toHaveText(firstText)
  await page.screenshot({ path: testInfo.outputPath('examples.png'), fullPage: true })
})

test('only flagged, a range that matches nothing, inline play', async ({ page }) => {
  await openExamples(page)
  await page.getByLabel('Only flagged').check()
  await expect.poll(() => shownCount(page)).toBeLessThan(100)
  const flagged = await rows(page).evaluateAll((els) => els.map((e) => e.querySelector('.examples-findings')?.textContent ?? ''))
  expect(flagged.every((f) => /\d+ findings?/.test(f))).toBe(true)
  const empty = defects.find((d) => d.kind === 'empty-text')!
  await expect(list(page).locator(`[data-example-id="${empty.id}"]`)).toContainText('(empty transcript)')
  await page.getByLabel('Only flagged').uncheck()

  // min above max: said next to the fields, and nothing is asked of the worker
  await page.getByLabel('Min s').fill('5')
  await page.getByLabel('Max s').fill('2')
  await expect(page.getByRole('alert').filter({ hasText: 'min 5 s is above max 2 s: no example can match' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Apply length' })).toBeDisabled()
  // a range that is valid but empty: the list says what excludes everything
  await page.getByLabel('Min s').fill('500')
  await page.getByLabel('Max s').fill('')
  await page.getByRole('button', { name: 'Apply length' }).click()
  await expect(page.getByRole('heading', { name: 'No example matches' })).toBeVisible()
  await expect(page.getByText(/length 8.33 min–∞/)).toBeVisible()
  await page.getByRole('button', { name: 'Clear every filter' }).click()
  await expect.poll(() => shownCount(page)).toBeGreaterThan(100)

  // ▶ selects the row and plays it in the Inspector beside the list
  const first = rows(page).first()
  const id = await first.getAttribute('data-example-id')
  await first.getByRole('button', { name: `Play ${id}` }).click()
  await expect(page.getByTestId('inspector-example-id')).toContainText(id!)
  await expect.poll(() => page.getByTestId('inspector-audio').evaluate((a: HTMLAudioElement) => !a.paused || a.currentTime > 0), { timeout: 30_000 }).toBe(true)
})

test('random N per language is seeded: the same seed gives the same list, another seed another', async ({ page }) => {
  await openExamples(page)
  const ids = async () => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-example-id')))
  await page.getByLabel('Random per language', { exact: true }).fill('2')
  await page.getByLabel('Seed', { exact: true }).fill('11')
  await page.getByRole('button', { name: 'Sample' }).click()
  await expect(page.getByText(/random 2 per language, seed 11/)).toBeVisible()
  await page.getByRole('button', { name: /^Languages:/ }).click()
  const languages = Number(/of ([\d,]+) shown/.exec(await page.locator('.multi-select-popover .hint').innerText())![1])
  await page.keyboard.press('Escape')
  await expect.poll(() => shownCount(page)).toBe(2 * languages)
  const first = await ids()
  await page.getByLabel('Seed', { exact: true }).fill('12')
  await page.getByRole('button', { name: 'Sample' }).click()
  await expect(page.getByText(/seed 12/)).toBeVisible()
  await expect.poll(async () => JSON.stringify(await ids())).not.toBe(JSON.stringify(first))
  await page.getByLabel('Seed', { exact: true }).fill('11')
  await page.getByRole('button', { name: 'Sample' }).click()
  await expect(page.getByText(/seed 11/)).toBeVisible()
  await expect.poll(async () => JSON.stringify(await ids())).toBe(JSON.stringify(first))
})

test('the Inspector names the selected row, not the one decoded before it (an undecodable row after an English one)', async ({ page }) => {
  await openExamples(page)
  const bad = defects.find((d) => d.kind === 'undecodable-audio')!
  await chooseLanguages(page, ['eng_Latn'])
  await expect.poll(() => shownCount(page)).toBeLessThan(100)
  await rows(page).first().click()
  await expect(page.getByTestId('inspector-example-id')).toContainText('English')
  await expect(page.getByTestId('transcript')).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: /^Languages:/ }).click()
  await page.getByLabel('Search languages').fill('eng_Latn')
  await page.getByRole('group', { name: 'Languages' }).getByRole('checkbox').first().uncheck()
  await page.getByLabel('Search languages').fill('swh_Latn')
  await page.getByRole('group', { name: 'Languages' }).getByRole('checkbox').first().check()
  await page.keyboard.press('Escape')
  await list(page).locator(`[data-example-id="${bad.id}"]`).click()
  await expect(page.getByTestId('inspector-example-id')).toContainText(bad.id)
  await expect(page.getByTestId('inspector-example-id')).toContainText('Swahili')
  await expect(page.getByTestId('inspector-example-id')).not.toContainText('English')
})
