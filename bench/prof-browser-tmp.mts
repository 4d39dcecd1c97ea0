import { chromium } from 'playwright-core'
import { writeFileSync } from 'node:fs'
import { startStaticServer } from '../test/helpers/static-server.ts'
import { writeIndexOnlyDataset } from '../e2e/fixtures/index-only.ts'
const n = Number(process.argv[2] ?? 100000)
const d = writeIndexOnlyDataset(n)
const app = await startStaticServer({ root: '/tmp/scale-dist-nomin' })
const data = await startStaticServer({ root: d.dir, latencyMs: 50, hide: ['part-0.parquet'] })
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
const cdp = await page.context().newCDPSession(page)
await cdp.send('Profiler.enable')
await cdp.send('Profiler.setSamplingInterval', { interval: 500 })
await cdp.send('Profiler.start')
const t0 = Date.now()
await page.goto(`${app.url}?view=overview&dataset=${encodeURIComponent(`${data.url}version=0/`)}`)
await page.locator('.recharts-bar-rectangle').first().waitFor({ timeout: 120000 })
console.log('chart after', Date.now() - t0, 'requests', data.requests)
await page.waitForTimeout(3000)
const { profile } = await cdp.send('Profiler.stop')
writeFileSync('/tmp/browser.cpuprofile', JSON.stringify(profile))
await browser.close(); await app.close(); await data.close()
