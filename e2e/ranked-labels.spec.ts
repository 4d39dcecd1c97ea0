/**
 * The Mixture's ranked chart ("Every partition … by sampling probability, ranked") names each bar with its partition
 * (`commonvoice/eng_Latn`), angled under the plot: on the demo, at 1280 and 1920 px, light and dark, every label lies
 * inside the chart's svg and above the brush under it (none cut off by the svg's edge or hidden under the brush),
 * in the first window and with every rank shown. Screenshots of the chart go to `SHOTS_DIR` when it is set.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Locator } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'

const shots = process.env.SHOTS_DIR ?? null
if (shots) mkdirSync(shots, { recursive: true })

/** Every partition label's box against the svg's and the brush's. */
async function labelsInside(ranked: Locator): Promise<{ labels: number; problems: string[] }> {
  return ranked.locator('.chart').evaluate((chart) => {
    const svg = chart.querySelector('svg.chart-svg')!.getBoundingClientRect()
    const brush = chart.querySelector('.rank-brush')!.getBoundingClientRect()
    const problems: string[] = []
    let labels = 0
    for (const t of chart.querySelectorAll<SVGTextElement>('svg.chart-svg text.chart-tick')) {
      if (!(t.textContent ?? '').includes('/')) continue // the value axis's ticks
      labels++
      const r = t.getBoundingClientRect()
      const where = `${t.textContent} [${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}]`
      if (r.left < svg.left - 0.5 || r.right > svg.right + 0.5 || r.top < svg.top - 0.5 || r.bottom > svg.bottom + 0.5) {
        problems.push(`${where} outside the svg [${Math.round(svg.left)},${Math.round(svg.top)}–${Math.round(svg.right)},${Math.round(svg.bottom)}]`)
      }
      if (r.bottom > brush.top + 0.5 && r.top < brush.bottom && r.right > brush.left && r.left < brush.right) problems.push(`${where} over the brush (top ${Math.round(brush.top)})`)
    }
    return { labels, problems }
  })
}

for (const theme of ['Light', 'Dark'] as const) {
  test(`the ranked chart's partition labels are whole and clear of the brush at 1280 and 1920 px (${theme.toLowerCase()} theme)`, async ({ page }) => {
    test.setTimeout(120_000)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.emulateMedia({ colorScheme: theme === 'Dark' ? 'dark' : 'light' })
    await page.goto('/?view=mixture')
    await waitForDataset(page, 'Demo dataset')
    await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: theme }).click()
    const panel = page.locator('#view-mixture')
    const ranked = panel.locator('section', { has: page.getByRole('heading', { name: /^Every partition.* by sampling probability, ranked/ }) }).locator('.ranked-bars')
    await expect(ranked).toBeVisible({ timeout: 60_000 })
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: 1000 })
      await ranked.scrollIntoViewIfNeeded()
      for (const window of ['first', 'all'] as const) {
        if (window === 'all') {
          const all = ranked.getByRole('button', { name: /^All / })
          if (await all.isEnabled()) await all.click()
        } else if (await ranked.getByRole('button', { name: 'Top' }).isEnabled()) {
          await ranked.getByRole('button', { name: 'Top' }).click()
        }
        await page.waitForTimeout(300)
        const { labels, problems } = await labelsInside(ranked)
        expect(labels, `${width} px, ${window}`).toBeGreaterThan(5)
        expect(problems, `${width} px, ${window}`).toEqual([])
        if (shots) await ranked.screenshot({ path: join(shots, `ranked-${theme.toLowerCase()}-${width}-${window}.png`) })
      }
    }
  })
}
