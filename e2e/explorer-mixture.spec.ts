/**
 * Mixture view on the demo: moving the beta sliders (or typing a value) changes the weights table and the exported
 * recipe YAML; beta 1 gives the natural shares; sampled counts add up to the draws; the URL keeps the betas.
 */
import { expect, test, type Page } from '@playwright/test'
import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { parse } from 'yaml'
import { waitForDataset } from './fixtures/overview-page.ts'

async function weights(page: Page): Promise<{ key: string; hours: number; weight: number; probability: number | null; sampled: string }[]> {
  const table = page.getByRole('table', { name: 'Mixture weights' })
  await expect(table).toBeVisible()
  return table.evaluate((t) => {
    const headers = [...t.querySelectorAll('thead th')].map((th) => th.textContent ?? '')
    const col = (start: string) => headers.findIndex((h) => h.startsWith(start))
    const [hours, p, sampled] = [col('Hours'), headers.findIndex((h) => h.includes('ampling probability')), col('Sampled')]
    return [...t.querySelectorAll('tbody tr[data-language]')].map((tr) => {
      const cells = [...tr.querySelectorAll('td')]
      const value = cells[p].getAttribute('data-value')
      return {
        key: `${tr.getAttribute('data-corpus')}/${tr.getAttribute('data-language')}`, hours: Number(cells[hours].getAttribute('data-value')),
        weight: Number(tr.getAttribute('data-weight')), probability: value === '' || value === null ? null : Number(value), sampled: cells[sampled].textContent ?? '',
      }
    })
  })
}

const yamlText = (page: Page) => page.getByLabel('Recipe block (YAML)').textContent()

test('sliders and typed betas change the weights table and the exported YAML', async ({ page }, testInfo) => {
  await page.goto('/?view=mixture')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByLabel('Recipe block (YAML)')).toContainText('beta_corpus: 0.5')
  const before = await weights(page)
  expect(before.length).toBeGreaterThan(3)
  // no two columns read the same on every row (the weight and the sampling probability are one column when they do)
  const columns = await page.getByRole('table', { name: 'Mixture weights' }).evaluate((t) => {
    const rows = [...t.querySelectorAll('tbody tr[data-language]')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''))
    return rows[0].map((_, c) => rows.map((r) => r[c]).join('|'))
  })
  expect(new Set(columns).size).toBe(columns.length)
  expect(await page.getByRole('table', { name: 'Mixture weights' }).locator('thead th').allTextContents()).toContainEqual(expect.stringMatching(/^Weight = sampling probability/))
  const probabilities = before.filter((r) => r.probability !== null).map((r) => r.probability as number)
  expect(probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5)
  // sampled counts of the first draws add up to the draws
  const draws = Number(await page.getByLabel('Sampler draws').inputValue())
  expect(before.filter((r) => r.sampled !== '—').reduce((n, r) => n + Number(r.sampled.replace(/,/g, '')), 0)).toBe(draws)
  await page.screenshot({ path: testInfo.outputPath('mixture.png'), fullPage: true })
  // the scatter's axis labels lie inside its svg (a rotated label anchored at its start was cut off at the top)
  const scatterLabels = page.getByRole('region', { name: /^Sampling probability against natural share/ }).locator('.chart-axis-title')
  const outside = await scatterLabels.evaluateAll((labels) => labels.map((l) => {
    const r = l.getBoundingClientRect(); const svg = l.closest('svg')!.getBoundingClientRect()
    return r.top < svg.top - 0.5 || r.bottom > svg.bottom + 0.5 || r.left < svg.left - 0.5 || r.right > svg.right + 0.5 ? l.textContent : null
  }).filter((t) => t !== null))
  await expect(scatterLabels).toHaveCount(2)
  // one dot per mark, each inside the plot
  expect(await page.getByRole('region', { name: /^Sampling probability against natural share/ }).locator('circle').count()).toBeGreaterThan(1)
  expect(outside).toEqual([])
  // no header of the weights table is clipped at 1280 px
  const clipped = await page.getByRole('table', { name: 'Mixture weights' }).locator('th').evaluateAll((ths) => ths.filter((th) => th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent))
  expect(clipped).toEqual([])
  // and every column fits: the table does not run past its box (headers wrap instead)
  const box = page.getByRole('table', { name: 'Mixture weights' }).locator('xpath=..')
  expect(await box.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(1)

  // keyboard on the slider: End = 1
  const slider = page.getByRole('slider', { name: 'beta_language' })
  await slider.focus()
  await page.keyboard.press('End')
  await expect.poll(() => new URL(page.url()).searchParams.get('beta_language')).toBe('1')
  await expect.poll(async () => parse((await yamlText(page)) ?? '').dataset.mixture_parquet_storage_config.beta_language).toBe(1)
  await expect.poll(async () => JSON.stringify((await weights(page)).map((r) => r.weight))).not.toBe(JSON.stringify(before.map((r) => r.weight)))

  // typed value: beta_corpus 1 with beta_language 1 = weights proportional to hours
  // a typed value that is not a beta says why next to the field, and the results keep the last valid value
  const typed = page.getByRole('textbox', { name: 'beta_corpus (typed)' })
  await typed.fill('1.5')
  await expect(page.getByRole('alert').filter({ hasText: 'beta_corpus (typed): must be at most 1, got 1.5' })).toBeVisible()
  await typed.fill('abc')
  await expect(page.getByRole('alert').filter({ hasText: '“abc” is not a number' })).toBeVisible()
  expect(new URL(page.url()).searchParams.get('beta_corpus')).toBeNull()
  await typed.fill('1')
  await expect.poll(() => new URL(page.url()).searchParams.get('beta_corpus')).toBe('1')
  await expect.poll(async () => parse((await yamlText(page)) ?? '').dataset.mixture_parquet_storage_config.beta_corpus).toBe(1)
  await expect.poll(async () => {
    const rows = await weights(page)
    const total = rows.reduce((s, r) => s + r.hours, 0)
    return Math.max(...rows.map((r) => Math.abs(r.weight - r.hours / total)))
  }).toBeLessThan(1e-9)

  // the download is the YAML shown
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download recipe block (YAML)' }).click()])
  expect(parse(await readFile(await download.path(), 'utf8'))).toEqual(parse((await yamlText(page)) ?? ''))
  const [tsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download language_distribution_0.tsv' }).click()])
  expect(tsv.suggestedFilename()).toBe('language_distribution_0.tsv')
  const lines = (await readFile(await tsv.path(), 'utf8')).trim().split('\n')
  expect(lines[0].split('\t').slice(0, 3)).toEqual(['corpus', 'language', 'hours'])
  expect(lines.length - 1).toBe(before.length)

  // reload keeps the betas (URL state)
  await page.reload()
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByLabel('Recipe block (YAML)')).toContainText('beta_corpus: 1')
})

test('the split is picked from the splits the dataset has; a typed split that selects nothing says so', async ({ page }) => {
  await page.goto('/?view=mixture')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByRole('status').filter({ hasText: /^Weights from/ })).toBeVisible({ timeout: 30_000 })
  const split = page.getByLabel('Split', { exact: true })
  expect(await split.locator('option').allTextContents()).toEqual(['dev', 'test', 'train', 'other (type it)…'])
  await split.selectOption('dev')
  await expect(page.getByRole('status').filter({ hasText: 'split dev' })).toBeVisible()
  await split.selectOption({ label: 'other (type it)…' })
  await page.getByLabel('Split string').fill('trian')
  await expect(page.getByRole('alert').filter({ hasText: 'the dataset has no split “trian” (it has dev, test, train)' })).toBeVisible()
})

test('what the model sees in N steps: the same epochs and chances as `mixscope weights --preset ctc-finetune --steps` (the explorer’s default preset), curves for the focused languages', async ({ page }, testInfo) => {
  await page.goto('/?view=mixture')
  await waitForDataset(page, 'Demo dataset')
  const steps = page.getByLabel('Training steps (N)')
  await steps.fill('2000')
  await steps.press('Enter')
  const table = page.getByRole('table', { name: 'What the model sees in N steps' })
  await expect(table.locator('thead')).toContainText('Hours seen by step 2,000')
  const shown = await table.evaluate((t) => {
    const headers = [...t.querySelectorAll('thead th')].map((th) => th.textContent ?? '')
    const epochs = headers.findIndex((h) => h.startsWith('Epochs'))
    const never = headers.findIndex((h) => h.startsWith('P(never'))
    return Object.fromEntries([...t.querySelectorAll('tbody tr[data-language]')].map((tr) => {
      const cells = [...tr.querySelectorAll('td')]
      return [tr.getAttribute('data-language'), { epochs: Number(cells[epochs].getAttribute('data-value')), never: Number(cells[never].getAttribute('data-value')) }]
    }))
  })
  const cli = JSON.parse(execFileSync('node', ['bin/mixscope.js', 'weights', 'public/demo/version=0', '--preset', 'ctc-finetune', '--steps', '2000', '--json'], { encoding: 'utf8' })) as
    { exposure: { languages: { language: string; expected_epochs: number; p_not_drawn: number }[] } }
  expect(Object.keys(shown).sort()).toEqual(cli.exposure.languages.map((l) => l.language).sort())
  for (const l of cli.exposure.languages) {
    expect(shown[l.language]!.epochs, l.language).toBeCloseTo(l.expected_epochs, 6)
    expect(shown[l.language]!.never, l.language).toBeCloseTo(l.p_not_drawn, 9)
  }
  // the curves: eight languages of the demo's eight; focusing one draws only it
  const curves = page.getByRole('img', { name: /^Line chart, log–log: hours of data seen against training step/ })
  await expect(curves).toHaveAttribute('aria-label', /for 8 of 8 languages/)
  await table.locator('tr[data-language="swh_Latn"]').click()
  await expect(curves).toHaveAttribute('aria-label', /for 1 of 8 languages \(swh_Latn\)/)
  await expect(curves.locator('path.chart-line')).toHaveCount(1)
  await page.screenshot({ path: testInfo.outputPath('mixture-exposure.png'), fullPage: true })
  // the log slider moves N
  const slider = page.getByRole('slider', { name: 'Steps, log scale' })
  await slider.focus()
  await page.keyboard.press('Home')
  await expect(table.locator('thead')).toContainText('Hours seen by step 1')
})

test('"Use config" names the config’s own beta, not the override, and goes back to it', async ({ page }) => {
  await page.goto('/?view=mixture')
  await waitForDataset(page, 'Demo dataset')
  const typed = page.getByRole('textbox', { name: 'beta_language (typed)' })
  await typed.fill('0.2')
  await typed.press('Enter')
  await expect.poll(() => new URL(page.url()).searchParams.get('beta_language')).toBe('0.2')
  const back = page.getByRole('button', { name: 'Use config (0.5)' })
  await expect(back).toBeVisible()
  await back.click()
  await expect.poll(() => new URL(page.url()).searchParams.get('beta_language')).toBe(null)
  await expect(page.getByRole('slider', { name: 'beta_language' })).toHaveValue('0.5')
  await expect(page.getByRole('button', { name: /^Use config/ })).toHaveCount(0)
})
