/** The built page carries the Content-Security-Policy (injected by vite.config.ts at build time) and loading the demo violates none of it. */
import { expect, test } from '@playwright/test'
import { contentSecurityPolicy } from '../vite.config.ts'
import { waitForDataset } from './fixtures/overview-page.ts'

test('the built page has the CSP meta and loading the demo reports no violation, no console error and no failed request', async ({ page }) => {
  const consoleViolations: string[] = []
  const consoleErrors: string[] = []
  const failed: string[] = []
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) consoleViolations.push(message.text())
    if (message.type() === 'error') consoleErrors.push(message.text())
  })
  page.on('response', (response) => { if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`) })
  page.on('requestfailed', (request) => failed.push(`${request.failure()?.errorText} ${request.url()}`))
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`))
  })
  await page.goto('/')
  const meta = page.locator('meta[http-equiv="Content-Security-Policy"]')
  await expect(meta).toHaveAttribute('content', contentSecurityPolicy)
  expect(contentSecurityPolicy).toContain("script-src 'self' 'wasm-unsafe-eval'")

  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByRole('table', { name: 'Hours per language' })).toBeVisible()
  const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)
  expect(violations).toEqual([])
  expect(consoleViolations).toEqual([])
  // the icon is shipped (no /favicon.ico 404 on every load)
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.png')
  expect((await page.request.get('/favicon.png')).status()).toBe(200)
  expect(consoleErrors.filter((e) => !isIndexProbe(e))).toEqual([])
  // the one request allowed to fail: opening a URL asks for the dataset index first (docs/conventions.md "Dataset
  // index"); the demo ships none, so the preview server's HTML fallback is refused and the manifest is read instead
  expect(failed.filter((f) => !isIndexProbe(f))).toEqual([])
  expect(failed.filter(isIndexProbe).length).toBeLessThanOrEqual(1)
  // no inline <script> in the built HTML
  const inlineScripts = await page.locator('script:not([src])').count()
  expect(inlineScripts).toBe(0)
})

function isIndexProbe(line: string): boolean {
  return line.includes('/demo/version=0/_mixscope_index.parquet')
}
