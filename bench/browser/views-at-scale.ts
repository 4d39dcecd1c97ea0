/**
 * How long each explorer view takes to become usable after a dataset is opened by URL (docs/architecture.md
 * "Views while the rows are read"): one fresh page per view (`?dataset=<url>&view=<id>`), headless Chromium against
 * `vite preview` of the build (run `npx vite build` first), the dataset served with ranges and CORS by
 * test/helpers/static-server.ts. Prints one JSON line per view: seconds from navigation to usable (`null`: not within
 * the limit; Batches: its plan tables, then `laterSeconds` to the first batch; Audit: the footers' findings, then
 * `laterSeconds` to the rows' report), the status lines then, the page's JS
 * heap and the browser's processes' resident memory.
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
    await page.goto(`http://127.0.0.1:${previewPort}/?dataset=${encodeURIComponent(url)}&view=${view}`)
    let seconds: number | null = null
    try {
      await usable[view](page).waitFor({ state: 'visible', timeout: limitMs })
      seconds = (Date.now() - start) / 1000
    } catch { /* not usable within the limit */ }
    let laterSeconds: number | null = null
    if (seconds !== null && later[view]) {
      try {
        await later[view](page).waitFor({ state: 'visible', timeout: Math.max(1, limitMs - (Date.now() - start)) })
        laterSeconds = (Date.now() - start) / 1000
      } catch { /* not within the limit */ }
    }
    const heapMiB = await page.evaluate(() => {
      const m = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory
      return m ? Math.round(m.usedJSHeapSize / 2 ** 20) : null
    })
    const status = await page.locator('[role="status"]').allTextContents().catch(() => [])
    await page.screenshot({ path: `/tmp/views-at-scale-${view}.png` })
    console.log(JSON.stringify({ view, seconds, ...(later[view] ? { laterSeconds } : {}), limitS: limitMs / 1000, heapMiB, browserRssMiB: browserRssMiB(marker), status: status.map((s) => s.trim()).filter(Boolean).slice(0, 6) }))
    await page.close()
  }
} finally {
  await browser.close()
  await server.close()
  if (preview.pid) process.kill(-preview.pid)
}
