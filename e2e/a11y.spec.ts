/**
 * Every view of the explorer, light and then dark (the system's scheme switched while the view is open), on the
 * demo: axe-core (WCAG 2.1 A/AA rules) finds no violation, and a full-page screenshot at 1280 and at 1920 px wide is
 * written as a test artifact (`test-results/…/<view>-<scheme>-<width>.png`) to look at; the page never scrolls
 * sideways.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { demoRootDir } from './fixtures/paths.ts'
import { waitForDataset } from './fixtures/overview-page.ts'

const defects = JSON.parse(readFileSync(resolve(demoRootDir, '../defects.json'), 'utf8')) as { id: string; kind: string }[]
const empty = defects.find((d) => d.kind === 'empty-text')!.id

/** Each view, the URL that shows it with something in it, and what says it is ready. */
const views: { view: string; query: string; ready: (page: Page) => Promise<void> }[] = [
  { view: 'overview', query: '', ready: async (p) => { await expect(p.getByRole('table', { name: 'Hours per language' })).toBeVisible() } },
  { view: 'audit', query: '', ready: async (p) => { await expect(p.getByText(/^Audio check: [\d,]+ rows read/)).toBeVisible({ timeout: 60_000 }) } },
  { view: 'mixture', query: '', ready: async (p) => { await expect(p.getByRole('status').filter({ hasText: /^Weights from/ })).toBeVisible({ timeout: 30_000 }) } },
  {
    view: 'batches', query: '&max_batches=40', ready: async (p) => {
      await expect(p.locator('[data-status="done"]')).toBeVisible({ timeout: 60_000 })
      await p.getByRole('table', { name: 'Batches' }).locator('tbody tr[data-batch="0"]').click()
      await expect(p.getByRole('table', { name: 'Examples of batch 0' })).toBeVisible()
    },
  },
  { view: 'examples', query: `&example=${encodeURIComponent(empty)}`, ready: async (p) => { await expect(p.getByTestId('transcript')).toHaveText('(empty transcript)', { timeout: 60_000 }) } },
  { view: 'inspector', query: `&example=${encodeURIComponent(empty)}&device=cpu`, ready: async (p) => { await expect(p.getByTestId('model-input-canvas')).toBeVisible({ timeout: 60_000 }) } },
]

// one open per view, both schemes in it: the system's scheme turns dark while the page is open (as an operating
// system's does at sunset), which the page follows live, so the dark pass also checks that nothing stays light
for (const { view, query, ready } of views) {
  test(`${view} (light, then dark): no axe violation, screenshots at 1280 and 1920 px`, async ({ page }, testInfo) => {
    test.setTimeout(120_000)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/?view=${view}${query}`)
    await waitForDataset(page, 'Demo dataset')
    await ready(page)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.emulateMedia({ colorScheme })
      await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), `${view}: the ${colorScheme} scheme shown`)
        .toBe(colorScheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)')
      await page.waitForTimeout(300)
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
      const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}× e.g. ${v.nodes[0]?.target.join(' ')})`)
      expect(summary, `${view} (${colorScheme})`).toEqual([])
      // one formatting layer: no raw float, no signed zero percentage anywhere on the page
      const text = await page.locator('body').innerText()
      expect(text.match(/\d\.\d{7,}/g) ?? [], `${view}: raw floats`).toEqual([])
      expect(text.match(/[+\-−]0(\.0+)?%/g) ?? [], `${view}: signed zero shares`).toEqual([])
      for (const width of [1280, 1920]) {
        await page.setViewportSize({ width, height: 900 })
        await page.waitForTimeout(400)
        // nothing wider than the window
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${view} (${colorScheme}) at ${width} px`).toBeLessThanOrEqual(width)
        await page.screenshot({ path: testInfo.outputPath(`${view}-${colorScheme}-${width}.png`), fullPage: true })
      }
    }
  })
}
