/**
 * The explorer used as a person would, for a while, on a large dataset: one page opens the dataset by URL (served with
 * ranges by test/helpers/static-server.ts, the build by `vite preview`: run `npx vite build` first) and goes round the
 * views until the time is up: the Overview (a language found), the Audit (its row pass runs in the background),
 * Examples (a transcript search, then "Only flagged"), the Mixture (a beta_language step), Batches (its stream), each
 * given a few seconds. The browser's resident memory (all its processes) is sampled every second. Prints one JSON
 * line per round (what each step showed) and a summary: peak and final browser RSS, the page's JS heap, crashes.
 *
 * `npx tsx bench/browser/session-memory.ts <dataset parent folder, holding version=0> [minutes, default 5]`
 */
import { spawn } from 'node:child_process'
import { chromium, type Page } from 'playwright-core'
import { chromiumArgs } from '../../test/helpers/chromium-args.ts'
import { startStaticServer } from '../../test/helpers/static-server.ts'
import { browserRssMiB } from './browser-rss.ts'

const [root, minutesArg] = process.argv.slice(2)
if (!root) throw new Error('usage: session-memory.ts <dataset parent folder> [minutes]')
const sessionMs = Number(minutesArg ?? 5) * 60_000
const previewPort = Number(process.env.PREVIEW_PORT ?? 4194)
const marker = `--mixscope-session-memory=${process.pid}`

/** The view's tab. */
const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) })

/** First status line of the page, trimmed. */
async function status(page: Page): Promise<string> {
  const texts = await page.locator('[role="status"]').allTextContents().catch(() => [])
  return texts.map((t) => t.trim()).filter(Boolean).slice(0, 2).join(' | ').slice(0, 300)
}

/** One step: runs `act`, waits `dwellMs`, and says what happened (an error is reported, not thrown). */
async function step(page: Page, name: string, dwellMs: number, act: () => Promise<void>): Promise<string> {
  try {
    await act()
    await page.waitForTimeout(dwellMs)
    return `${name}: ${await status(page)}`
  } catch (error) {
    return `${name}: FAILED ${(error as Error).message.split('\n')[0]}`
  }
}

const server = await startStaticServer({ root })
const preview = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(previewPort), '--strictPort'], { stdio: 'ignore', detached: true })
await new Promise((r) => setTimeout(r, 3000))
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: chromiumArgs([marker]) })
let peak = 0
let peakAt = 0
const started = Date.now()
const sampler = setInterval(() => {
  const rss = browserRssMiB(marker)
  if (rss !== null && rss > peak) { peak = rss; peakAt = Math.round((Date.now() - started) / 1000) }
}, 1000)
const crashes: string[] = []
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  page.on('crash', () => crashes.push(`page crashed at ${Math.round((Date.now() - started) / 1000)} s`))
  page.on('pageerror', (e) => crashes.push(`page error at ${Math.round((Date.now() - started) / 1000)} s: ${(e.stack ?? e.message).slice(0, 400)}`))
  await page.goto(`http://127.0.0.1:${previewPort}/?dataset=${encodeURIComponent(`${server.url}version=0/`)}`)
  await page.getByRole('region', { name: 'Summary' }).waitFor({ timeout: 60_000 })
  for (let round = 1; Date.now() - started < sessionMs; round++) {
    const steps: string[] = []
    steps.push(await step(page, 'overview', 3000, async () => {
      await tab(page, 'Overview').click()
      const finder = page.getByRole('region', { name: /^Hours per language \(/ }).getByLabel('Find language')
      await finder.fill(round % 2 ? 'cjn' : 'eng')
    }))
    steps.push(await step(page, 'audit', 5000, () => tab(page, 'Audit').click()))
    steps.push(await step(page, 'examples search', 6000, async () => {
      await tab(page, 'Examples').click()
      const only = page.getByLabel('Only flagged')
      if (await only.isChecked().catch(() => false)) await only.uncheck()
      await page.getByLabel('Transcript contains', { exact: true }).fill(round % 2 ? 'shared sentence' : 'number 7')
    }))
    steps.push(await step(page, 'examples flagged', 4000, async () => {
      await page.getByLabel('Transcript contains', { exact: true }).fill('')
      await page.getByLabel('Only flagged').check()
    }))
    steps.push(await step(page, 'mixture', 4000, async () => {
      await tab(page, 'Mixture').click()
      const slider = page.getByRole('slider', { name: /beta_language/ }).first()
      await slider.focus()
      await page.keyboard.press(round % 2 ? 'ArrowRight' : 'ArrowLeft')
    }))
    steps.push(await step(page, 'batches', 8000, () => tab(page, 'Batches').click()))
    const heapMiB = await page.evaluate(() => {
      const m = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory
      return m ? Math.round(m.usedJSHeapSize / 2 ** 20) : null
    }).catch(() => null)
    console.log(JSON.stringify({ round, seconds: Math.round((Date.now() - started) / 1000), browserRssMiB: browserRssMiB(marker), heapMiB, steps }))
  }
  await page.screenshot({ path: '/tmp/session-memory-last.png' })
} finally {
  clearInterval(sampler)
  console.log(JSON.stringify({ summary: true, minutes: Math.round((Date.now() - started) / 6000) / 10, peakBrowserRssMiB: peak, peakAtSeconds: peakAt, finalBrowserRssMiB: browserRssMiB(marker), crashes }))
  await browser.close()
  await server.close()
  if (preview.pid) process.kill(-preview.pid)
}
