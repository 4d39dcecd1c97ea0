/**
 * The explorer at Omnilingual scale: a generated 1,600-language dataset (scripts/many-languages.ts, 3,600 files,
 * tiny payloads) opened by URL. Every number checked here comes from DuckDB reading the same parquet files, not from
 * the app: language count and hours, "N languages under 1 h", a language found by the table's search; the stats
 * TSV (written from the train split) recognised as train-only; the language focus filtering the Mixture, Examples and
 * Audit; the planted undecodable rows found by the default audio check.
 */
import { expect, test } from '@playwright/test'
import { DuckDBInstance } from '@duckdb/node-api'
import { startStaticServer, type StaticServer } from '../test/helpers/static-server.ts'
import { ensureManyLanguagesDataset, languageCount, plantedDefects, type ManyLanguagesDataset } from '../scripts/many-languages.ts'
import { parseShownHours, waitForDataset } from './fixtures/overview-page.ts'

let dataset: ManyLanguagesDataset
let server: StaticServer
let url: string
/** DuckDB's hours and rows per language. */
let perLanguage: Map<string, { hours: number; rows: number }>
/** (corpus, language) pairs of the languages left out of the TSV. */
let missingPairs: number

test.beforeAll(async () => {
  test.setTimeout(180_000)
  dataset = await ensureManyLanguagesDataset()
  server = await startStaticServer({ root: dataset.root.replace(/\/version=0$/, '') })
  url = `${server.url}version=0/`
  const db = await DuckDBInstance.create(':memory:')
  const connection = await db.connect()
  const reader = await connection.runAndReadAll(`SELECT language, sum(audio_size) / 16000 / 3600 AS hours, count(*) AS n
    FROM read_parquet('${dataset.root}/**/*.parquet', hive_partitioning = true) GROUP BY language`)
  perLanguage = new Map(reader.getRowObjects().map((r) => [String(r.language), { hours: Number(r.hours), rows: Number(r.n) }]))
  const pairs = await connection.runAndReadAll(`SELECT count(DISTINCT (corpus, language)) AS n FROM read_parquet('${dataset.root}/**/*.parquet', hive_partitioning = true)
    WHERE language IN (${plantedDefects.missingFromTsv.map((l) => `'${l}'`).join(', ')})`)
  missingPairs = Number(pairs.getRowObjects()[0].n)
  connection.closeSync()
})

test.afterAll(async () => { await server?.close() })

/** Opening 3,600 files over HTTP takes a while on a shared machine: wait longer than the demo's helper does. */
async function waitForMany(page: import('@playwright/test').Page): Promise<void> {
  await waitForDataset(page, url, 240_000)
}

test('1,600 languages opened by URL: counts, the distribution and Find language match DuckDB', async ({ page }) => {
  test.setTimeout(300_000)
  expect(perLanguage.size).toBe(languageCount)
  await page.goto(`/?dataset=${encodeURIComponent(url)}`)
  await waitForMany(page)
  const cards = page.getByRole('region', { name: 'Summary' })
  await expect(cards.locator('.card', { hasText: 'Languages' }).locator('dd').first()).toHaveAttribute('data-value', String(languageCount))
  const total = [...perLanguage.values()].reduce((h, l) => h + l.hours, 0)
  expect(Number(await cards.locator('.card', { hasText: 'Hours' }).locator('dd').first().getAttribute('data-value'))).toBeCloseTo(total, 6)

  // "N languages under 1 h" as DuckDB counts them
  const under = (h: number) => [...perLanguage.values()].filter((l) => l.hours < h).length
  const distribution = page.getByRole('region', { name: 'Distribution' })
  await expect(distribution.getByText(`${under(1).toLocaleString('en')} languages under 1 h`, { exact: false })).toBeVisible()
  await expect(distribution.getByText(`${under(1 / 6).toLocaleString('en')} languages under 10 min`, { exact: false })).toBeVisible()
  await expect(page.getByRole('group', { name: /histogram of 1,600 languages on a log axis/ })).toBeVisible()

  // every language ranked: the window of ranks 41–80 holds the 41st to 80th largest hours as DuckDB sums them
  const ranked = page.locator('.ranked-bars')
  await expect(ranked.getByRole('group', { name: /ranks 1 to 40 of 1,600 languages/ })).toBeVisible()
  await ranked.getByRole('button', { name: 'Later →' }).click()
  const chart = ranked.getByRole('group', { name: /ranks 41 to 80 of 1,600 languages/ })
  await expect(chart).toBeVisible()
  // the x axis names each bar of the window (the y ticks and the brush's labels are not language codes)
  const ticks = (await chart.locator('.chart-tick').allTextContents()).map((t) => t.trim()).filter((t) => perLanguage.has(t))
  expect(ticks.length).toBe(40)
  const byHours = [...perLanguage.values()].map((l) => l.hours).sort((a, b) => b - a)
  const shownHours = ticks.map((k) => perLanguage.get(k)!.hours).sort((a, b) => b - a)
  shownHours.forEach((h, i) => expect(h).toBeCloseTo(byHours[40 + i], 9))
  // the bars are drawn on the value axis (tallest ≥ half the plot, each at least as tall as the next rank's)
  const heights = await chart.locator('.chart-bar').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))
  expect(heights.length).toBe(40)
  expect(Math.max(...heights)).toBeGreaterThan(100)
  // the brush and the rank fields move the same window; "All" shows every rank
  await ranked.getByLabel('From rank').fill('1590')
  await ranked.getByLabel('From rank').press('Enter')
  await expect(ranked.locator('.chart')).toHaveAttribute('data-start', '1590')
  await ranked.getByRole('button', { name: 'All 1,600' }).click()
  await expect(ranked.locator('.chart')).toHaveAttribute('data-end', '1600')
  await expect(ranked.locator('.chart')).toHaveAttribute('data-start', '1')

  // the language table is virtualized: 1,600 rows, far fewer in the DOM
  const table = page.getByRole('table', { name: 'Hours per language' })
  await expect(table).toHaveAttribute('aria-rowcount', String(languageCount + 1))
  expect(await table.locator('tbody tr[data-language]').count()).toBeLessThan(120)
  // Find language: one code, its hours and rows as DuckDB sums them
  const code = plantedDefects.emptyText[3]
  await page.getByRole('region', { name: /^Hours per language \(/ }).getByLabel('Find language').fill(code)
  const row = table.locator(`tr[data-language="${code}"]`)
  await expect(row).toHaveCount(1)
  const values = await row.locator('td[data-value]').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))))
  expect(values[0]).toBeCloseTo(perLanguage.get(code)!.hours, 9)
  expect(values[1]).toBe(perLanguage.get(code)!.rows)
  expect(Math.abs(parseShownHours((await row.locator('td').nth(1).textContent())!) - perLanguage.get(code)!.hours)).toBeLessThan(perLanguage.get(code)!.hours * 5e-3)

  // the TSV was written from the train split: recognised as such, not "counting every split"
  await expect(page.getByTestId('tsv-verdict')).toContainText('equal the train hours')
  await expect(page.getByTestId('tsv-verdict')).toContainText(`${missingPairs} have no TSV row`)
})

test('the language focus filters the other views; the audit finds the planted rows and counts each row once', async ({ page }) => {
  test.setTimeout(300_000)
  const code = plantedDefects.notAudio[1]
  await page.goto(`/?dataset=${encodeURIComponent(url)}&lang=${code}&view=audit`)
  await waitForMany(page)
  await expect(page.getByRole('region', { name: 'Language focus' })).toContainText(code)
  // the default audio check reads every row and finds the planted non-audio rows
  await expect(page.getByText(/^Audio check: [\d,]+ rows read/)).toBeVisible({ timeout: 240_000 })
  await expect(page.getByText(`Audio check: ${dataset.rows.toLocaleString('en')} rows read`, { exact: false })).toBeVisible()
  const blocking = page.locator('[data-triage="blocking"] .card-value')
  await expect(blocking).not.toHaveText('0')
  await page.getByRole('region', { name: 'Blocking errors' }).getByRole('button', { name: 'Expand all' }).click()
  const undecodable = page.locator('table[aria-label="Blocking errors: undecodable-audio"] tbody tr')
  // focused: only the planted row of the focused language
  await expect(undecodable).toHaveCount(1)
  await expect(undecodable.first()).toContainText(`language=${code}/`)
  // flagged rows per language never exceed the language's rows (DuckDB)
  await page.getByRole('button', { name: /Clear focus/ }).click()
  const flagged = page.getByRole('table', { name: 'Flagged rows per language' })
  await expect(flagged).toHaveAttribute('aria-rowcount', /\d+/)
  const shown = await flagged.locator('tbody tr[data-language]').evaluateAll((trs) => trs.map((tr) => ({
    language: tr.getAttribute('data-language')!, rows: Number(tr.querySelector('td[data-value]')?.getAttribute('data-value')),
  })))
  expect(shown.length).toBeGreaterThan(0)
  for (const s of shown) expect(s.rows, s.language).toBeLessThanOrEqual(perLanguage.get(s.language)!.rows)
  // every flagged language ranked, zoomable: the bars of the first window never grow with rank
  const auditRanked = page.locator('#view-audit .ranked-bars')
  await expect(auditRanked.getByRole('group', { name: /^Bar chart of flagged rows per language, ranked: ranks 1 to \d+ of [\d,]+ languages/ })).toBeVisible()
  const flaggedBars = await auditRanked.locator('.chart-bar').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))
  expect(flaggedBars.length).toBeGreaterThan(0)
  flaggedBars.forEach((h, i) => { if (i > 0) expect(h).toBeLessThanOrEqual(flaggedBars[i - 1] + 0.5) })

  // focus one language from the Mixture's table: the Examples list shows only it
  await page.getByRole('tab', { name: 'Mixture' }).click()
  const weights = page.getByRole('table', { name: 'Mixture weights' })
  await expect(weights).toHaveAttribute('aria-rowcount', /^\d{4}$/, { timeout: 60_000 })
  // every partition of the split ranked by sampling probability, with the brush and rank fields over all of them
  const mixtureRanked = page.locator('#view-mixture .ranked-bars')
  await expect(mixtureRanked.getByRole('group', { name: /sampling probability per partition, ranked: ranks 1 to 40 of [\d,]+ partitions/ })).toBeVisible()
  await mixtureRanked.getByRole('button', { name: 'Later →' }).click()
  await expect(mixtureRanked.locator('.chart')).toHaveAttribute('data-start', '41')
  await page.getByRole('region', { name: 'Mixture weights', exact: true }).getByLabel('Find language').fill(code)
  await weights.locator(`tr[data-language="${code}"]`).first().click()
  await expect(page.getByRole('region', { name: 'Language focus' })).toContainText(code)
  await page.getByRole('tab', { name: 'Examples' }).click()
  await expect(page.getByText(new RegExp(`^${perLanguage.get(code)!.rows} examples?$`))).toBeVisible({ timeout: 60_000 })
  const languages = await page.getByRole('table', { name: 'Examples' }).locator('[data-example-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-example-id')!))
  expect(languages.length).toBe(perLanguage.get(code)!.rows)
  for (const id of languages) expect(id).toContain(`language=${code}/`)
})
