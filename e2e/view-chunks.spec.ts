/**
 * Views are chunks of their own (src/app/shell/views.tsx): the page evaluates the shell and the view it opens on,
 * and the others in idle time after. A view whose chunk does not load says so in its panel and loads on a retry.
 */
import { expect, test } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'

test('the page asks for the first view\'s chunk before any other view\'s (but the Overview\'s, which index.html preloads), and the rest in idle time', async ({ page }) => {
  const chunks: string[] = []
  const finished = new Set<string>()
  const chunkOf = (url: string) => /\/assets\/([a-z-]+-view|examples-workspace)-[\w-]+\.js$/.exec(url)?.[1]
  page.on('request', (r) => { const c = chunkOf(r.url()); if (c) chunks.push(c) })
  page.on('requestfinished', (r) => { const c = chunkOf(r.url()); if (c) finished.add(c) })
  await page.goto('/?view=mixture')
  await expect(page.getByRole('tabpanel', { name: 'Mixture' })).toBeVisible()
  await waitForDataset(page, 'Demo dataset')
  // index.html preloads the Overview's chunk (the default view); of the others the Mixture's is asked for first, and
  // the rest follow once the page is idle
  expect(chunks.filter((c) => c !== 'overview-view')[0]).toBe('mixture-view')
  expect(chunks).toContain('overview-view')
  await expect.poll(() => new Set(chunks).size, { timeout: 20_000 }).toBe(7)
  await expect.poll(() => finished.has('audit-view'), { timeout: 20_000 }).toBe(true)
  // its module is evaluated in a task after its bytes are in; an idle period comes after that task
  await page.evaluate(() => new Promise((r) => requestIdleCallback(r)))
  // a preloaded view shows at once on its first visit: no loading line in between (counted at once, not polled,
  // so a view that had to load on the click fails here)
  await page.getByRole('tab', { name: 'Audit' }).click()
  expect(await page.getByRole('tabpanel', { name: 'Audit' }).getByText(/Loading the Audit view/).count()).toBe(0)
})

test('a view whose chunk fails to load says so, and loads on "Try again"', async ({ page }) => {
  let block = true
  await page.route(/\/assets\/audit-view-[\w-]+\.js$/, (route) => (block ? route.abort('connectionreset') : route.continue()))
  await page.goto('/?view=overview')
  await waitForDataset(page, 'Demo dataset')
  await page.getByRole('tab', { name: 'Audit' }).click()
  const panel = page.getByRole('tabpanel', { name: 'Audit' })
  const alert = panel.getByRole('alert')
  await expect(alert).toContainText('The Audit view did not load')
  await expect(alert).toContainText('app: the Audit view failed to load')
  block = false
  await alert.getByRole('button', { name: 'Try again' }).click()
  await expect(panel.getByRole('heading', { name: /Audit/ }).first()).toBeVisible()
  await expect(alert).toHaveCount(0)
})
