/**
 * How long each explorer view takes to become usable after a dataset is opened by URL (docs/architecture.md
 * "Views while the rows are read"): one fresh page per view (`?dataset=<url>&view=<id>`), headless Chromium against
 * `vite preview` of the build (run `npx vite build` first), the dataset served with ranges and CORS by
 * test/helpers/static-server.ts. Prints one JSON line per view: seconds from navigation to usable (`null`: not within
 * the limit; Batches: its plan tables, then `laterSeconds` to the first batch; Audit: the footers' findings, then
 * `laterSeconds` to the rows' report; `flagged`, not run unless named: "Only flagged" in Examples, see `onlyFlagged`),
 * the status lines then, the page's JS heap and the browser's processes' resident memory.
 *
 * `npx tsx bench/browser/views-at-scale.ts <dataset parent folder, holding version=0> [limit seconds] [views…]`
 */
import { spawn } from 'node:child_process'
import { chromium, type Page } from 'playwright-core'
import { chromiumArgs } from '../../test/helpers/chromium-args.ts'
import { startStaticServer } from '../../test/helpers/static-server.ts'
import { browserRssMiB } from './browser-rss.ts'

const [root, limitArg, ...viewArgs] = process.argv.slice(2)
if (!root) throw new Error('usage: views-at-scale.ts <dataset parent folder> [limit seconds] [views…]')
const limitMs = Number(limitArg ?? 120) * 1000
const previewPort = Number(process.env.PREVIEW_PORT ?? 4192)

/** What "usable" means per view: a locator that is visible once the view can be worked with. */
const usable: Record<string, (page: Page) => ReturnType<Page['locator']>> = {
  overview: (page) => page.getByRole('region', { name: 'Summary' }).locator('.card', { hasText: 'Languages' }),
  audit: (page) => page.locator('.audit-status', { hasText: 'findings on' }),
  examples: (page) => page.getByRole('table', { name: 'Examples' }).locator('[data-example-id]').first(),
  batches: (page) => page.getByRole('heading', { name: 'Length buckets' }),
  mixture: (page) => page.getByRole('table', { name: 'Mixture weights' }),
}

/** What each view shows later, timed after it is usable (within the same limit). */
const later: Record<string, (page: Page) => ReturnType<Page['locator']>> = {
  batches: (page) => page.locator('.batch-list tbody tr').first(),
  // the rows' report: every row's audio_size and text read, their records spilled to OPFS and checked per partition
  // (the cheap audio check starts then)
  audit: (page) => page.locator('.audit-check', { hasText: /^Audio check:/ }),
}

/**
 * `flagged`: the Examples view's "Only flagged" past the row limit, as a person does it: the box checked, "Open the
 * Audit", its rows' report waited for, back to Examples, the flagged rows listed (the status says all rows searched).
 * Seconds from the open to the Audit's report (`auditSeconds`) and from the return to Examples to the complete list
 * (`listSeconds`), with the count listed.
 */
async function onlyFlagged(page: Page, start: number): Promise<Record<string, unknown>> {
  const left = () => Math.max(1, limitMs - (Date.now() - start))
  await page.getByLabel('Only flagged').check()
  const status = page.getByTestId('examples-scan-status')
  await status.getByRole('button', { name: 'Open the Audit' }).click({ timeout: left() })
  await page.locator('.audit-check', { hasText: /^Audio check:/ }).waitFor({ state: 'visible', timeout: left() })
  const auditSeconds = (Date.now() - start) / 1000
  const back = Date.now()
  await page.getByRole('tab', { name: 'Examples' }).click()
  await status.filter({ hasText: /rows searched\)$/ }).waitFor({ state: 'visible', timeout: left() })
  return { auditSeconds, listSeconds: (Date.now() - back) / 1000, listed: (await status.innerText()).trim() }
}

/** A flag Chromium ignores, naming this run, to find the browser's process among other sessions' browsers. */
const marker = `--mixscope-views-at-scale=${process.pid}`

const server = await startStaticServer({ root })
const preview = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(previewPort), '--strictPort'], { stdio: 'ignore', detached: true })
await new Promise((r) => setTimeout(r, 3000))
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: chromiumArgs([marker]) })
try {
  const url = `${server.url}version=0/`
  for (const view of viewArgs.length > 0 ? viewArgs : Object.keys(usable)) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const start = Date.now()
    const shown = view === 'flagged' ? 'examples' : view
    await page.goto(`http://127.0.0.1:${previewPort}/?dataset=${encodeURIComponent(url)}&view=${shown}`)
    let seconds: number | null = null
    try {
      await usable[shown](page).waitFor({ state: 'visible', timeout: limitMs })
      seconds = (Date.now() - start) / 1000
    } catch { /* not usable within the limit */ }
    let laterSeconds: number | null = null
    if (seconds !== null && later[view]) {
      try {
        await later[view](page).waitFor({ state: 'visible', timeout: Math.max(1, limitMs - (Date.now() - start)) })
        laterSeconds = (Date.now() - start) / 1000
      } catch { /* not within the limit */ }
    }
    let flagged: Record<string, unknown> = {}
    if (seconds !== null && view === 'flagged') {
      try {
        flagged = await onlyFlagged(page, start)
      } catch (error) { flagged = { flaggedError: (error as Error).message.split('\n')[0] } }
    }
    const heapMiB = await page.evaluate(() => {
      const m = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory
      return m ? Math.round(m.usedJSHeapSize / 2 ** 20) : null
    })
    const status = await page.locator('[role="status"]').allTextContents().catch(() => [])
    await page.screenshot({ path: `/tmp/views-at-scale-${view}.png` })
    console.log(JSON.stringify({ view, seconds, ...(later[view] ? { laterSeconds } : {}), ...flagged, limitS: limitMs / 1000, heapMiB, browserRssMiB: browserRssMiB(marker), status: status.map((s) => s.trim()).filter(Boolean).slice(0, 6) }))
    await page.close()
  }
} finally {
  await browser.close()
  await server.close()
  if (preview.pid) process.kill(-preview.pid)
}
