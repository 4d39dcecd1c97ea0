/**
 * Renders `public/favicon.svg` to `public/favicon.png` (64 × 64, transparent corners) in Debian's Chromium. The page
 * links the PNG: Chromium fetches the favicon again after every same-document navigation (each `replaceState` of
 * the URL, i.e. every tab switch), and an SVG favicon is parsed each time into an isolated SVG document on the
 * page's main thread (~20 ms measured at 1,600 languages); a PNG decodes in microseconds.
 * `npx tsx scripts/render-favicon.ts` after editing the SVG.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'

const publicDir = join(import.meta.dirname, '..', 'public')
const size = 64
const svg = readFileSync(join(publicDir, 'favicon.svg'), 'utf8')
const browser = await chromium.launch({ executablePath: process.env.MIXSCOPE_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
try {
  const page = await browser.newPage({ viewport: { width: size, height: size } })
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`)
  writeFileSync(join(publicDir, 'favicon.png'), await page.locator('svg').screenshot({ omitBackground: true }))
} finally {
  await browser.close()
}
