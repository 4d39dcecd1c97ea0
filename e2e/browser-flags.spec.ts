/**
 * The browser the specs and benches run in (test/helpers/chromium-args.ts): no hidden address-bar popup pages, whose
 * renderer otherwise keeps one of the machine's cores 13 % busy and skews every timing (docs/browser-notes.md).
 */
import { expect, test } from '@playwright/test'

test('the headless browser runs no omnibox popup WebUI pages', async ({ browser, page }) => {
  await page.goto('/')
  const cdp = await browser.newBrowserCDPSession()
  const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] })
  const urls = targetInfos.map((t) => t.url)
  // the page itself is listed: the listing is real
  expect(urls.some((u) => u.startsWith('http://127.0.0.1'))).toBe(true)
  expect(urls.filter((u) => u.startsWith('chrome://omnibox-popup'))).toEqual([])
  await cdp.detach()
})
