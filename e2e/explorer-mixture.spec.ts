/**
 * Mixture view on the demo: moving the beta sliders (or typing a value) changes the weights table and the exported
 * recipe YAML; beta 1 gives the natural shares; sampled counts add up to the draws; the URL keeps the betas.
 */
import { expect, test, type Page } from '@playwright/test'
import { readFile } from 'node:fs/promises'
import { parse } from 'yaml'
import { waitForDataset } from './fixtures/overview-page.ts'

async function weights(page: Page): Promise<{ key: string; hours: number; weight: number; probability: number | null; sampled: string }[]> {
  const table = page.getByRole('table', { name: 'Mixture weights' })
  await expect(table).toBeVisible()
  return table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => {
    const cells = [...tr.querySelectorAll('td')]
    const p = cells[5].getAttribute('data-value')
    return { key: `${tr.getAttribute('data-corpus')}/${tr.getAttribute('data-language')}`, hours: Number(cells[2].getAttribute('data-value')), weight: Number(cells[4].getAttribute('data-value')), probability: p === '' || p === null ? null : Number(p), sampled: cells[6].textContent ?? '' }
  }))
}

const yamlText = (page: Page) => page.getByLabel('Recipe block (YAML)').textContent()

test('sliders and typed betas change the weights table and the exported YAML', async ({ page }, testInfo) => {
  await page.goto('/?view=mixture')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByLabel('Recipe block (YAML)')).toContainText('beta_corpus: 0.5')
  const before = await weights(page)
  expect(before.length).toBeGreaterThan(3)
  const probabilities = before.filter((r) => r.probability !== null).map((r) => r.probability as number)
  expect(probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5)
  // sampled counts of the first draws add up to the draws
  const draws = Number(await page.getByLabel('Sampler draws').inputValue())
  expect(before.filter((r) => r.sampled !== '—').reduce((n, r) => n + Number(r.sampled.replace(/,/g, '')), 0)).toBe(draws)
  await page.screenshot({ path: testInfo.outputPath('mixture.png'), fullPage: true })

  // keyboard on the slider: End = 1
  const slider = page.getByRole('slider', { name: 'beta_language' })
  await slider.focus()
  await page.keyboard.press('End')
  await expect.poll(() => new URL(page.url()).searchParams.get('beta_language')).toBe('1')
  await expect.poll(async () => parse((await yamlText(page)) ?? '').dataset.mixture_parquet_storage_config.beta_language).toBe(1)
  await expect.poll(async () => JSON.stringify((await weights(page)).map((r) => r.weight))).not.toBe(JSON.stringify(before.map((r) => r.weight)))

  // typed value: beta_corpus 1 with beta_language 1 = weights proportional to hours
  await page.getByRole('spinbutton', { name: 'beta_corpus (typed)' }).fill('1')
  await expect.poll(() => new URL(page.url()).searchParams.get('beta_corpus')).toBe('1')
  await expect.poll(async () => parse((await yamlText(page)) ?? '').dataset.mixture_parquet_storage_config.beta_corpus).toBe(1)
  await expect.poll(async () => {
    const rows = await weights(page)
    const total = rows.reduce((s, r) => s + r.hours, 0)
    return Math.max(...rows.map((r) => Math.abs(r.weight - r.hours / total)))
  }).toBeLessThan(1e-9)

  // the download is the YAML shown
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download recipe block (YAML)' }).click()])
  expect(parse(await readFile(await download.path(), 'utf8'))).toEqual(parse((await yamlText(page)) ?? ''))
  const [tsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download language_distribution_0.tsv' }).click()])
  expect(tsv.suggestedFilename()).toBe('language_distribution_0.tsv')
  const lines = (await readFile(await tsv.path(), 'utf8')).trim().split('\n')
  expect(lines[0].split('\t').slice(0, 3)).toEqual(['corpus', 'language', 'hours'])
  expect(lines.length - 1).toBe(before.length)

  // reload keeps the betas (URL state)
  await page.reload()
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByLabel('Recipe block (YAML)')).toContainText('beta_corpus: 1')
})
