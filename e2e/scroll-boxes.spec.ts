/**
 * Scroll boxes inside the page never trap the wheel: on each long view of the 1,600-language dataset
 * (scripts/many-languages.ts, opened by URL with its index), every element of the view that scrolls on its own
 * (overflow auto or scroll, more content than height) is at most 75 % of the viewport tall, and, with the mouse over
 * it, a wheel turn scrolls the page once the box is at its end (down) or its start (up). Heights in the light and
 * then the dark theme of one open, the wheel in the light one (it follows the layout, not the colours), at
 * 1280 × 720 px; screenshots of each view go to `SHOTS_DIR` when it is set.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { startStaticServer, type StaticServer } from '../test/helpers/static-server.ts'
import { ensureManyLanguagesDataset } from '../scripts/many-languages.ts'
import { waitForDataset } from './fixtures/overview-page.ts'

const shots = process.env.SHOTS_DIR ?? null
if (shots) mkdirSync(shots, { recursive: true })

let server: StaticServer
let url: string

test.beforeAll(async () => {
  test.setTimeout(180_000)
  const d = await ensureManyLanguagesDataset()
  server = await startStaticServer({ root: d.root.replace(/\/version=0$/, '') })
  url = `${server.url}version=0/`
})
test.afterAll(async () => { await server?.close() })

/** Marks the view's own scroll boxes (`data-scroll-box="<view>-<i>"`) and describes them. */
async function markScrollBoxes(page: Page, view: string): Promise<{ i: number; what: string; height: number }[]> {
  return page.evaluate((view) => {
    const panel = document.getElementById(`view-${view}`)
    if (!panel) return []
    const out: { i: number; what: string; height: number }[] = []
    for (const el of panel.querySelectorAll<HTMLElement>('*')) {
      const style = getComputedStyle(el)
      if (!/(auto|scroll)/.test(style.overflowY) || el.scrollHeight <= el.clientHeight + 2 || el.clientHeight < 20) continue
      el.dataset.scrollBox = `${view}-${out.length}`
      out.push({ i: out.length, what: `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`, height: el.clientHeight })
    }
    return out
  }, view)
}

/** Page scroll offset. */
const scrollY = (page: Page) => page.evaluate(() => window.scrollY)

/** With `box` at its end (or start), the wheel over it scrolls the page down (or up), when the page can go that way. */
async function wheelReachesPage(page: Page, id: string, direction: 1 | -1, what: string): Promise<'scrolled' | 'page at its end'> {
  const box = page.locator(`[data-scroll-box="${id}"]`)
  const can = await box.evaluate((el, direction) => {
    el.scrollTop = direction > 0 ? el.scrollHeight : 0
    const r = el.getBoundingClientRect()
    const top = r.top + window.scrollY
    // the box in view with room to scroll the page: its top 80 px below the viewport's top (down), its bottom 80 px above the bottom (up)
    window.scrollTo(0, direction > 0 ? top - 80 : top + r.height - window.innerHeight + 80)
    const max = document.documentElement.scrollHeight - window.innerHeight
    return direction > 0 ? window.scrollY < max - 4 : window.scrollY > 4
  }, direction)
  if (!can) return 'page at its end'
  const r = (await box.boundingBox())!
  const vh = page.viewportSize()!.height
  const at = { x: r.x + Math.min(r.width / 2, 200), y: Math.min(Math.max(r.y + r.height / 2, 10), vh - 10) }
  const under = await page.evaluate(({ x, y }) => { const e = document.elementFromPoint(x, y); return e ? `${e.tagName}.${[...e.classList].join('.')}` : '' }, at)
  await page.mouse.move(at.x, at.y)
  // wheel turns, each a gesture of its own (400 ms apart, so none is latched to the scroller of the one before): the
  // box may take the last pixel of its end (its height is fractional); once it no longer moves the page must
  const turns: string[] = []
  for (let turn = 0; turn < 4; turn++) {
    await page.waitForTimeout(400)
    const before = { box: await box.evaluate((el) => el.scrollTop), page: await scrollY(page) }
    await page.mouse.wheel(0, direction * 240)
    await page.waitForTimeout(400)
    const after = { box: await box.evaluate((el) => el.scrollTop), page: await scrollY(page) }
    turns.push(`box ${before.box}→${after.box}, page ${before.page}→${after.page}`)
    if (direction * (after.page - before.page) > 0) return 'scrolled'
    if (after.box === before.box) break
  }
  throw new Error(`${what}: the wheel ${direction > 0 ? 'down' : 'up'} over the box (mouse over ${under}) never scrolled the page: ${turns.join('; ')}`)
}

test('scroll boxes on every long view are short, and the wheel over one reaches the page (light, then dark theme)', async ({ page }) => {
  test.setTimeout(420_000)
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(`/?dataset=${encodeURIComponent(url)}`)
  await waitForDataset(page, url, 240_000)
  const seen: string[] = []
  // one open, both themes: the views are visited in the light theme (heights and the wheel), then again in the dark
  for (const theme of ['Light', 'Dark'] as const) {
    await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: theme }).click()
    for (const view of ['overview', 'mixture', 'batches', 'examples', 'audit'] as const) {
      await page.getByRole('tab', { name: new RegExp(`^${view[0].toUpperCase()}${view.slice(1)}`) }).click()
      const panel = page.locator(`#view-${view}`)
      await expect(panel).toBeVisible()
      // the view's content drawn: its deferred sections settled and a moment for lists that fill in
      await expect(panel.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 60_000 })
      await page.waitForTimeout(theme === 'Light' ? 1_500 : 500)
      await page.evaluate(() => window.scrollTo(0, 0))
      const boxes = await markScrollBoxes(page, `${view}`)
      for (const b of boxes) {
        expect(b.height, `${view} (${theme}): ${b.what}`).toBeLessThanOrEqual(0.75 * 720)
        // where the wheel goes depends on the layout, not the colours: turned in the light theme
        if (theme === 'Dark') {
          seen.push(`${view} (dark): ${b.what} (${b.height}px)`)
          continue
        }
        const down = await wheelReachesPage(page, `${view}-${b.i}`, 1, `${view}: ${b.what}`)
        const up = await wheelReachesPage(page, `${view}-${b.i}`, -1, `${view}: ${b.what}`)
        expect([down, up], `${view}: ${b.what}`).toContain('scrolled')
        seen.push(`${view}: ${b.what} (${b.height}px; ${down}, ${up})`)
      }
      if (shots) await page.screenshot({ path: join(shots, `scroll-${view}-${theme.toLowerCase()}.png`) })
    }
  }
  console.log('scroll boxes', JSON.stringify(seen, null, 1))
  // the long views have scroll boxes of their own (the language tables, the partitions, the batches and examples
  // lists), in both themes
  expect(seen.filter((s) => !s.includes('(dark)')).length).toBeGreaterThanOrEqual(4)
  expect(seen.filter((s) => s.includes('(dark)')).length).toBeGreaterThanOrEqual(4)
})
