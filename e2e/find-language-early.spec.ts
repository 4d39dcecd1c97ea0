/**
 * "Find language" while a dataset opens: the generated 1,600-language dataset (scripts/many-languages.ts, 3,600
 * files) opened by URL without its index, 50 ms before every answer, as an object store. `cjn_Latn` (language 1599)
 * has files in `corpus=cv/split=train` only, among the last the open reads; it can be found, and focused, within a
 * few seconds of the open's start, as a "not read yet" row while the numbers are those of the files read so far,
 * and it never leaves the table on the way to its exact numbers (DuckDB's sums over the parquet files). Found and
 * focused in the light and the dark theme, followed to its exact numbers in the light one; screenshots of the table go to `SHOTS_DIR` when it is set (1280 and 1920 px).
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { DuckDBInstance } from '@duckdb/node-api'
import { startStaticServer, type StaticServer } from '../test/helpers/static-server.ts'
import { ensureManyLanguagesDataset, manyLanguageCode } from '../scripts/many-languages.ts'
import { waitForDataset } from './fixtures/overview-page.ts'

const code = manyLanguageCode(1599)
const shots = process.env.SHOTS_DIR ?? null
if (shots) mkdirSync(shots, { recursive: true })

let server: StaticServer
let url: string
let expected: { hours: number; rows: number; splits: string[] }

test.beforeAll(async () => {
  test.setTimeout(180_000)
  const d = await ensureManyLanguagesDataset()
  server = await startStaticServer({ root: d.root.replace(/\/version=0$/, ''), latencyMs: 50, hide: ['_mixscope_index.parquet'] })
  url = `${server.url}version=0/`
  const db = await DuckDBInstance.create(':memory:')
  const c = await db.connect()
  const r = (await c.runAndReadAll(`SELECT sum(audio_size)::DOUBLE / 16000 / 3600 AS hours, count(*)::BIGINT AS n, string_agg(DISTINCT split, ',') AS splits
    FROM read_parquet('${d.root}/**/*.parquet', hive_partitioning = true) WHERE language = '${code}'`)).getRowObjects()[0]
  expected = { hours: Number(r.hours), rows: Number(r.n), splits: String(r.splits).split(',') }
  c.closeSync()
})
test.afterAll(async () => { await server?.close() })

for (const theme of ['Light', 'Dark'] as const) {
  test(`a language the open reads last is found and focused within seconds of the open's start (${theme.toLowerCase()} theme)`, async ({ page }) => {
    test.setTimeout(300_000)
    expect(code).toBe('cjn_Latn')
    expect(expected.splits).toEqual(['train'])
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.emulateMedia({ colorScheme: theme === 'Dark' ? 'dark' : 'light' })
    const start = Date.now()
    await page.goto(`/?view=overview&dataset=${encodeURIComponent(url)}`)
    await expect(page.locator('[data-provisional]').first()).toBeVisible({ timeout: 60_000 })
    await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: theme }).click()
    const finder = page.getByRole('region', { name: /^Hours per language \(/ }).getByLabel('Find language')
    await finder.fill(code)
    const table = page.getByRole('table', { name: 'Hours per language' })
    const row = table.locator(`tr[data-language="${code}"]`)
    await expect(row).toHaveCount(1, { timeout: 10_000 })
    const foundMs = Date.now() - start

    // while the open reads the files: the row says its numbers are not read yet, until they are
    await expect(page.locator('[data-provisional="stats"]')).toBeVisible({ timeout: 60_000 })
    await expect(row).toHaveAttribute('data-unread', 'true')
    await expect(row.locator('td').nth(1)).toHaveText('not read yet')
    await expect(page.getByTestId('table-unread-languages')).toContainText(/language(s)? of the file listing not read yet/)
    if (shots) {
      const t = theme.toLowerCase()
      const block = page.locator('.language-table-block')
      await block.screenshot({ path: join(shots, `find-unread-${t}-1280.png`) })
      await page.setViewportSize({ width: 1920, height: 1000 })
      await block.screenshot({ path: join(shots, `find-unread-${t}-1920.png`) })
      await page.setViewportSize({ width: 1280, height: 800 })
    }
    // focused at once, before any of its files is read
    await row.click()
    await expect(page.getByRole('region', { name: 'Language focus' })).toContainText(code)
    await expect(row).toHaveAttribute('aria-selected', 'true')
    const focusedMs = Date.now() - start
    expect(foundMs).toBeLessThan(15_000)
    // the way to the exact numbers does not depend on the theme: followed once, in the light theme
    if (theme === 'Dark') {
      console.log('find-language-early', JSON.stringify({ theme, foundMs, focusedMs }))
      return
    }

    // the row stays in the table on the way to the final numbers (sampled while the open reads)
    let samples = 0
    let missing = 0
    while (await page.locator('[data-provisional="stats"]').count() > 0 && samples < 400) {
      if (await row.count() !== 1) missing++
      samples++
      await page.waitForTimeout(200)
    }
    expect(missing).toBe(0)
    await waitForDataset(page, url, 240_000)
    await expect(row).not.toHaveAttribute('data-unread', 'true')
    const values = await row.locator('td[data-value]').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))))
    expect(values[0]).toBeCloseTo(expected.hours, 9)
    expect(values[1]).toBe(expected.rows)
    const exactMs = Date.now() - start
    console.log('find-language-early', JSON.stringify({ theme, foundMs, focusedMs, exactMs, samples }))
    expect(foundMs).toBeLessThan(exactMs)
  })
}
