/**
 * Mixture tuning: one step of the beta_language / beta_corpus slider (ArrowRight) in the built app in Chromium, from
 * the key press to the new weight of a language on screen, and to the whole view up to date (sampler draws,
 * exposure, charts), measured in the page (test/helpers/mixture-step.ts). On the demo (target 100 ms) and on the
 * 1,600-language dataset (scripts/many-languages.ts; target 300 ms), `steps` steps per slider, alternating.
 * `npm run bench -- mixture-tuning`.
 */
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { chromium, type Page } from 'playwright-core'
import { chromiumArgs } from '../test/helpers/chromium-args.ts'
import { startStaticServer } from '../test/helpers/static-server.ts'
import { mixtureStep, type MixtureStep } from '../test/helpers/mixture-step.ts'
import { ensureManyLanguagesDataset } from '../scripts/many-languages.ts'
import type { BenchRow } from './table.ts'

const repo = resolve(import.meta.dirname, '..')
const distDir = join(import.meta.dirname, '.cache', 'mixture-dist')
const steps = 6

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2 }

/** Waits until the Mixture view shows its weights table with at least one row. */
async function mixtureReady(page: Page): Promise<void> {
  await page.getByRole('table', { name: 'Mixture weights' }).locator('tr[data-language]').first().waitFor({ timeout: 600_000 })
}

export async function runMixtureTuningBench(): Promise<BenchRow[]> {
  await build({ root: repo, logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } })
  const many = await ensureManyLanguagesDataset()
  const app = await startStaticServer({ root: distDir })
  const data = await startStaticServer({ root: resolve(many.root, '..') })
  const browser = await chromium.launch({ executablePath: process.env.MIXSCOPE_CHROMIUM ?? '/usr/bin/chromium', args: chromiumArgs() })
  const rows: BenchRow[] = []
  try {
    for (const [name, url, language, target] of [
      ['demo', `${app.url}?view=mixture`, 'swh_Latn', 100],
      [`${many.languages} languages`, `${app.url}?view=mixture&dataset=${encodeURIComponent(`${data.url}version=0/`)}`, 'aaa_Latn', 300],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      const page = await context.newPage()
      await page.goto(url)
      await mixtureReady(page)
      for (const slider of ['beta_language', 'beta_corpus']) {
        const measured: MixtureStep[] = []
        // a step right then a step left, so the betas stay near 0.5
        for (let i = 0; i < steps; i++) measured.push(await mixtureStep(page, slider, language, i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft'))
        process.stderr.write(`bench mixture-tuning: ${name} ${slider} ${JSON.stringify(measured.map((m) => [Math.round(m.weight), Math.round(m.settled)]))}\n`)
        const weight = measured.map((m) => m.weight)
        const settled = measured.map((m) => m.settled)
        rows.push({
          benchmark: `Mixture: one ${slider} step, ${name} (${steps} steps)`,
          weight_shown_median_ms: Math.round(median(weight)), weight_shown_max_ms: Math.round(Math.max(...weight)),
          target_ms: target, all_updated_median_ms: Math.round(median(settled)), all_updated_max_ms: Math.round(Math.max(...settled)),
        })
      }
      await context.close()
    }
  } finally {
    await browser.close()
    await app.close()
    await data.close()
  }
  return rows
}
