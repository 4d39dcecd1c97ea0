/**
 * One step of a Mixture view slider, timed in the page (the e2e spec and `npm run bench -- mixture-tuning` share it):
 * from the slider's `keydown` to the first DOM change that shows a new weight for `language` in the "Mixture
 * weights" table (`data-weight` of its row), and to the moment nothing in the view is stale any more (no
 * `aria-busy`, the status line not "Updating"). A MutationObserver on the view sees every change; `performance.now()`
 * in the page, so Playwright's round trips do not count.
 */
import type { Page } from 'playwright-core'

/** Milliseconds from the key press to the new weight on screen (`weight`) and to everything up to date (`settled`). */
export interface MixtureStep {
  weight: number
  settled: number
  /** `data-weight` of the row before and after the step. */
  before: number
  after: number
}

/**
 * Filters the weights table to `language` (the table's "Find language" box) so its row stays in view, waits until
 * the view is settled, then presses `key` on the slider named `slider` and times the step.
 */
export async function mixtureStep(page: Page, slider: string, language: string, key = 'ArrowRight'): Promise<MixtureStep> {
  await page.getByRole('region', { name: 'Mixture weights', exact: true }).getByLabel('Find language').fill(language)
  await page.getByRole('table', { name: 'Mixture weights' }).locator(`tr[data-language="${language}"]`).first().waitFor({ timeout: 60_000 })
  await page.waitForFunction(() => {
    const status = document.querySelector('.mixture-view p[role="status"]')?.textContent ?? ''
    return document.querySelector('.mixture-view [aria-busy="true"]') === null && !status.startsWith('Updating') && !status.startsWith('Weights updated')
  }, undefined, { timeout: 120_000, polling: 50 })
  await page.getByRole('slider', { name: slider }).focus()
  // tsx (esbuild keepNames) wraps the named functions below in `__name(…)`, which the page does not have
  await page.evaluate('globalThis.__name ??= (f) => f')
  await page.evaluate(({ language }) => {
    const isBusy = () => {
      const status = document.querySelector('.mixture-view p[role="status"]')?.textContent ?? ''
      return document.querySelector('.mixture-view [aria-busy="true"]') !== null || status.startsWith('Updating') || status.startsWith('Weights updated')
    }
    const w = window as unknown as { mixtureStep: Promise<MixtureStep> }
    const weightOf = () => document.querySelector(`table[aria-label="Mixture weights"] tr[data-language="${language}"]`)?.getAttribute('data-weight') ?? null
    const before = weightOf()
    let t0 = 0
    document.activeElement!.addEventListener('keydown', () => { t0 = performance.now() }, { once: true, capture: true })
    w.mixtureStep = new Promise((resolve) => {
      let weight = 0
      let after = before
      const check = () => {
        const now = weightOf()
        if (weight === 0 && t0 > 0 && now !== null && now !== before) { weight = performance.now() - t0; after = now }
        if (weight > 0 && !isBusy()) {
          observer.disconnect()
          resolve({ weight, settled: performance.now() - t0, before: Number(before), after: Number(after) })
        }
      }
      const observer = new MutationObserver(check)
      observer.observe(document.querySelector('.mixture-view')!, { subtree: true, attributes: true, childList: true, characterData: true })
    })
  }, { language })
  await page.keyboard.press(key)
  return page.evaluate(() => (window as unknown as { mixtureStep: Promise<MixtureStep> }).mixtureStep)
}
