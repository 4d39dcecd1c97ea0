/**
 * The Overview's charts (plain SVG, components/charts/svg) on the demo, as a user works them: hovering a bar names
 * it, clicking a histogram bar focuses the languages in its bin (the bins computed here from the parquet files'
 * audio_size, 4 per decade of hours), clicking a top bar or a ranked bar toggles its language, every pickable chart is one keyboard stop (arrows name a bar, Enter
 * focuses it), the y axis of the histogram is titled, the rank brush moves
 * from the keyboard (a slider at each end), by dragging its window and by clicking its strip, and the hover box
 * is readable in the dark theme (axe's contrast rule on the box).
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { readExpectedFiles, totalsBy } from './fixtures/expected-stats.ts'
import { waitForDataset } from './fixtures/overview-page.ts'
import { demoRootDir } from './fixtures/paths.ts'

let hours: Map<string, number>
/** Languages, most hours first (ties by code), as the ranked chart orders them. */
let ranked: string[]
test.beforeAll(async () => {
  const files = await readExpectedFiles(demoRootDir)
  hours = new Map([...totalsBy(files, (f) => f.keys.language)].map(([k, t]) => [k, t.hours]))
  ranked = [...hours.keys()].sort((a, b) => hours.get(b)! - hours.get(a)! || (a < b ? -1 : 1))
})

async function focused(page: Page): Promise<string[]> {
  const region = page.getByRole('region', { name: 'Language focus' })
  if (await region.count() === 0) return []
  return (await region.locator('code').allTextContents()).sort()
}

/**
 * Clicks (or hovers) the plot in bar `index`'s slot of `chart`, half-way across the plot (where a user points, not on
 * the bar's pixels): half-way up for columns, half-way along for rows.
 */
async function pointAtBar(page: Page, chart: Locator, index: number, click: boolean, rows = false): Promise<void> {
  await chart.locator('.chart-overlay').scrollIntoViewIfNeeded()
  const bar = (await chart.locator('.chart-bar').nth(index).boundingBox())!
  const plot = (await chart.locator('.chart-overlay').boundingBox())!
  const x = rows ? plot.x + plot.width / 2 : bar.x + bar.width / 2, y = rows ? bar.y + bar.height / 2 : plot.y + plot.height / 2
  if (click) await page.mouse.click(x, y)
  else await page.mouse.move(x, y)
}

test('bars name themselves on hover and focus their languages on click', async ({ page }) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')

  // the histogram: the first bin's languages, as the bins fall from the files' hours
  const histogram = page.getByRole('group', { name: /histogram of 8 languages/ })
  const bin = (h: number) => Math.floor(Math.log10(h) * 4 + 1e-9)
  const first = Math.min(...[...hours.values()].map(bin))
  const inFirst = [...hours.keys()].filter((k) => bin(hours.get(k)!) === first).sort()
  await pointAtBar(page, histogram, 0, false)
  await expect(histogram.locator('.chart-tooltip')).toContainText(`${inFirst.length} language${inFirst.length === 1 ? '' : 's'}`)
  await pointAtBar(page, histogram, 0, true)
  await expect.poll(() => focused(page)).toEqual(inFirst)
  await page.getByRole('button', { name: /Clear focus/ }).click()

  // the top bars: the first is the language with the most hours; a click toggles it
  const top = page.getByRole('group', { name: /^Bar chart of hours per language \(top/ })
  await pointAtBar(page, top, 0, false, true)
  await expect(top.locator('.chart-tooltip')).toContainText(ranked[0])
  await pointAtBar(page, top, 0, true, true)
  await expect.poll(() => focused(page)).toEqual([ranked[0]])
  await pointAtBar(page, top, 0, true, true)
  await expect.poll(() => focused(page)).toEqual([])

  // the coverage curve: hovering its right end names all 8
  const coverage = page.getByRole('img', { name: /Cumulative coverage/ })
  const plot = (await coverage.locator('.chart-overlay').boundingBox())!
  await page.mouse.move(plot.x + plot.width - 1, plot.y + plot.height / 2)
  await expect(coverage.locator('.chart-tooltip')).toContainText('top 8 languages')

  // the ranked chart: the third bar is the third language by hours
  const rankedChart = page.locator('.ranked-bars .chart')
  await pointAtBar(page, rankedChart, 2, false)
  await expect(rankedChart.locator('.chart-tooltip')).toContainText(`#3 `)
  await expect(rankedChart.locator('.chart-tooltip')).toContainText(`(${ranked[2]})`)
  await pointAtBar(page, rankedChart, 2, true)
  await expect.poll(() => focused(page)).toEqual([ranked[2]])
})

test('the rank brush: sliders at both ends, a draggable window, a clickable strip', async ({ page }) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  const ranked8 = page.locator('.ranked-bars')
  const chart = ranked8.locator('.chart')
  const last = ranked8.getByRole('slider', { name: 'Last rank shown' })
  const firstHandle = ranked8.getByRole('slider', { name: 'First rank shown' })
  await expect(chart).toHaveAttribute('data-end', '8')
  await expect(last).toHaveAttribute('aria-valuemax', '8')

  // keyboard: the last rank down two, the first rank up one, Home / End go as far as the other end allows
  await last.focus()
  await last.press('ArrowLeft')
  await last.press('ArrowLeft')
  await expect(chart).toHaveAttribute('data-end', '6')
  await expect(last).toHaveAttribute('aria-valuenow', '6')
  await firstHandle.focus()
  await firstHandle.press('ArrowRight')
  await expect(chart).toHaveAttribute('data-start', '2')
  await firstHandle.press('End')
  await expect(chart).toHaveAttribute('data-start', '6')
  await firstHandle.press('Home')
  await last.focus()
  await last.press('Home')
  await last.press('ArrowRight')
  await last.press('ArrowRight')
  await expect(chart).toHaveAttribute('data-start', '1')
  await expect(chart).toHaveAttribute('data-end', '3')
  // the bars are the window's ranks, named on the axis in rank order
  const names = async () => (await chart.locator('.chart-category-axis .chart-tick').allTextContents()).map((t) => t.trim())
  expect(await names()).toEqual(ranked.slice(0, 3))

  // drag the window three ranks to the right
  await ranked8.locator('.brush-strip').scrollIntoViewIfNeeded()
  const strip = (await ranked8.locator('.brush-strip').boundingBox())!
  const rank = strip.width / 8
  const window = (await ranked8.locator('.brush-window').boundingBox())!
  await page.mouse.move(window.x + window.width / 2, window.y + window.height / 2)
  await page.mouse.down()
  await page.mouse.move(window.x + window.width / 2 + rank * 3, window.y + window.height / 2, { steps: 6 })
  await page.mouse.up()
  await expect(chart).toHaveAttribute('data-start', '4')
  await expect(chart).toHaveAttribute('data-end', '6')
  expect(await names()).toEqual(ranked.slice(3, 6))

  // a click at the strip's right end brings the window there, its size kept
  await page.mouse.click(strip.x + strip.width - rank / 2, strip.y + strip.height / 2)
  await expect(chart).toHaveAttribute('data-start', '6')
  await expect(chart).toHaveAttribute('data-end', '8')
  // the rank fields follow the brush
  await expect(ranked8.getByLabel('From rank')).toHaveValue('6')
  await expect(ranked8.getByLabel('To rank')).toHaveValue('8')
})

test('the hover box is readable in the dark theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  const top = page.getByRole('group', { name: /^Bar chart of hours per language \(top/ })
  await pointAtBar(page, top, 0, false, true)
  await expect(top.locator('.chart-tooltip')).toBeVisible()
  const colours = await top.locator('.chart-tooltip').evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor])
  expect(colours[0]).not.toBe(colours[1])
  // axe's contrast rule does not look inside aria-hidden; the box's text, shown to sighted users, is checked as is
  await top.locator('.chart-tooltip').evaluate((el) => el.removeAttribute('aria-hidden'))
  const results = await new AxeBuilder({ page }).include('.chart-tooltip').withRules(['color-contrast']).analyze()
  expect(results.violations).toEqual([])
  expect(results.passes.length + results.incomplete.length).toBeGreaterThan(0)
})

test('the charts are worked from the keyboard: arrows name a bar, Enter focuses it; the histogram titles its y axis', async ({ page }) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  const histogram = page.getByRole('group', { name: /histogram of 8 languages/ })
  await expect(histogram.locator('.chart-axis-title', { hasText: /^languages$/ })).toBeVisible()
  const bins = page.getByRole('slider', { name: /^Bins of the hours per language histogram/ })
  await bins.focus()
  await expect(histogram.locator('.chart-tooltip')).toBeVisible()
  await expect(bins).toHaveAttribute('aria-valuenow', '1')
  await page.keyboard.press('End')
  await expect(bins).toHaveAttribute('aria-valuetext', /1 language/)
  await page.keyboard.press('Enter')
  // the last bin holds the language with the most hours
  await expect.poll(() => focused(page)).toEqual([ranked[0]])
  await page.getByRole('button', { name: /Clear focus/ }).click()

  const top = page.getByRole('slider', { name: /^Bars of the top 8/ })
  await top.focus()
  await page.keyboard.press('ArrowDown')
  await expect(top).toHaveAttribute('aria-valuetext', new RegExp(`\\(${ranked[1]}\\)`))
  await page.keyboard.press(' ')
  await expect.poll(() => focused(page)).toEqual([ranked[1]])
})
