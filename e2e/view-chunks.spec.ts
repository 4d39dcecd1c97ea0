/**
 * Views are chunks of their own (src/app/shell/views.tsx): the page evaluates the shell and the view it opens on,
 * and the others in idle time after. A view whose chunk does not load says so in its panel and loads on a retry.
 */
import { expect, test } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'

test('the page asks for the first view\'s chunk before any other view\'s (but the Overview\'s, which index.html preloads), and the rest in idle time', async ({ page }) => {
  const chunks: string[] = []
  page.on('request', (r) => { const m = /\/assets\/([a-z-]+-view|examples-workspace)-[\w-]+\.js$/.exec(r.url()); if (m) chunks.push(m[1]) })
  await page.goto('/?view=mixture')
  await expect(page.getByRole('tabpanel', { name: 'Mixture' })).toBeVisible()
  await waitForDataset(page, 'Demo dataset')
  // index.html preloads the Overview's chunk (the default view); of the others the Mixture's is asked for first, and
  // the rest follow once the page is idle
  expect(chunks.filter((c) => c !== 'overview-view')[0]).toBe('mixture-view')
  expect(chunks).toContain('overview-view')
  await expect.poll(() => new Set(chunks).size, { timeout: 20_000 }).toBe(7)
  // a preloaded view shows at once on its first visit: no loading line in between
  await page.getByRole('tab', { name: 'Audit' }).click()
  await expect(page.getByRole('tabpanel', { name: 'Audit' }).getByText(/Loading the Audit view/)).toHaveCount(0)
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
