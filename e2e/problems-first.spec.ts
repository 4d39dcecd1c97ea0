/**
 * Problems first: a messy copy of the demo (test/helpers/messy-dataset.ts: 2 of 51 parquet files unreadable, a stray
 * file, one row with audio_size −5) opens on an alert above the totals that names the broken files and rows, the Audit
 * tab carries the number of errors, labelled as found while opening (before the Audit ran) and then as the Audit's, and the alert's button opens the Audit on its blocking errors, whose counts agree
 * with the alert's and the badge's once the audit has finished. The clean demo shows no alert and no badge; warnings
 * alone a quiet note and a warning badge. In the light and the dark theme at 1280 px; screenshots of the alert at 1280 and 1920 px go to `SHOTS_DIR` when it is set.
 */
import { mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { type MessyDataset, writeMessyDataset } from '../test/helpers/messy-dataset.ts'
import { waitForDataset } from './fixtures/overview-page.ts'
import { repoRoot } from './fixtures/paths.ts'
import { query } from '../test/helpers/duckdb.ts'

let messy: MessyDataset
test.beforeAll(async () => { messy = await writeMessyDataset() })
test.afterAll(() => messy?.remove())

const shots = process.env.SHOTS_DIR ?? null
if (shots) mkdirSync(shots, { recursive: true })

/** The number in the Audit tab's name (`Audit, 3 errors`), `null` when it names none. */
async function badgeErrors(page: Page): Promise<number | null> {
  const name = (await page.getByRole('tab', { name: /^Audit/ }).getAttribute('aria-label')) ?? ''
  const m = /, ([\d,]+) errors?/.exec(name)
  return m ? Number(m[1].replace(/,/g, '')) : null
}

for (const theme of ['Light', 'Dark'] as const) {
  test(`a messy dataset opens on its errors, counted as the Audit counts them (${theme.toLowerCase()} theme)`, async ({ page }) => {
    test.setTimeout(120_000)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/')
    await waitForDataset(page, 'Demo dataset')
    await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: theme }).click()

    // the demo opens clean: no alert, no note, no badge
    const overview = page.getByRole('tabpanel', { name: /^Overview/ })
    await expect(overview.getByRole('alert')).toHaveCount(0)
    await expect(overview.locator('.problems-note')).toHaveCount(0)
    await expect(page.getByRole('tab', { name: 'Audit', exact: true })).toBeVisible()

    await page.getByLabel('Dataset folder (file dialog)').setInputFiles(messy.root)
    await waitForDataset(page, 'version=0')
    const alert = overview.getByRole('alert').filter({ has: page.getByRole('heading', { name: /found while opening/ }) })
    await expect(alert).toBeVisible()
    const errors = messy.unreadable.length + messy.stray.length + messy.badAudioSize.length
    const files = new Set([...messy.unreadable, ...messy.stray, ...messy.badAudioSize.map((r) => r.path)]).size
    await expect(alert.getByRole('heading')).toHaveText(`${errors} errors found while opening: training would fail on this data`)
    const text = (await alert.innerText()).replace(/\s+/g, ' ')
    expect(text).toContain(`The errors are about ${files} files and ${messy.badAudioSize.length} row.`)
    expect(text).toContain(`${messy.unreadable.length} of ${messy.parquetFiles} parquet files cannot be read: their rows and hours are in none of the totals below.`)
    // no stats TSV beside the copy: the unreadable files' hours, and the bad row's (its audio_size is the error), are unknown
    expect(text).toContain(`What they cost in hours is unknown for ${messy.unreadable.length} files and ${messy.badAudioSize.length} row without reading them`)
    const kinds = alert.getByRole('list', { name: 'Errors by kind' })
    await expect(kinds.locator('li[data-kind="unreadable-parquet"]')).toHaveAttribute('data-total', String(messy.unreadable.length))
    await expect(kinds.locator('li[data-kind="unreadable-parquet"]')).toContainText(`${messy.unreadable.length} files`)
    await expect(kinds.locator('li[data-kind="stray-file"]')).toContainText('1 file')
    await expect(kinds.locator('li[data-kind="stray-file"]')).toContainText(messy.stray[0])
    await expect(kinds.locator('li[data-kind="unreadable-parquet"]')).toContainText('hours unknown (their footers cannot be read and no stats TSV counts their hours)')
    await expect(kinds.locator('li[data-kind="bad-audio-size"]')).toContainText('1 row, hours unknown (their audio_size is the bad value')
    await expect(kinds.locator('li[data-kind="stray-file"]')).toContainText('1 file, 0 h (no rows)')
    await expect(kinds.locator('li[data-kind="bad-audio-size"]')).toContainText('1 row')
    await expect(kinds.locator('li[data-kind="bad-audio-size"]')).toContainText(`${messy.badAudioSize[0].path}:${messy.badAudioSize[0].row} has audio_size -5`)
    // above the totals it makes wrong; the files card says how many cannot be read
    const hours = overview.getByRole('region', { name: 'Summary' })
    expect((await alert.boundingBox())!.y).toBeLessThan((await hours.boundingBox())!.y)
    await expect(hours.getByText(`${messy.unreadable.length} unreadable`, { exact: true })).toBeVisible()

    // the badge, before the audit ran: the open's errors, labelled as the open's (the tab's name and its tooltip)
    const before = `${errors} errors found while opening; run the Audit for row checks`
    const tab = page.getByRole('tab', { name: `Audit, ${before}`, exact: true })
    await expect(tab).toBeVisible()
    await expect(tab).toHaveAttribute('title', before)
    await expect(tab.locator('.tab-badge')).toHaveText(String(errors))

    if (shots) {
      const t = theme.toLowerCase()
      await alert.screenshot({ path: join(shots, `alert-${t}-1280.png`) })
      await page.screenshot({ path: join(shots, `overview-${t}-1280.png`) })
      await page.setViewportSize({ width: 1920, height: 1000 })
      await alert.screenshot({ path: join(shots, `alert-${t}-1920.png`) })
      await page.screenshot({ path: join(shots, `overview-${t}-1920.png`) })
      await page.setViewportSize({ width: 1280, height: 800 })
    }
    // nothing in the alert is cut off (no line overflows its box), the page does not scroll sideways, and axe
    // (WCAG 2.1 A/AA: contrast in this theme included) finds nothing in the alert or the tab bar
    expect(await alert.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
    const axe = await new AxeBuilder({ page }).include('.problems-alert').include('.view-tabs').include('.cards').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
    expect(axe.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}× e.g. ${v.nodes[0]?.target.join(' ')})`)).toEqual([])

    await alert.getByRole('button', { name: 'Show the errors in the Audit' }).click()
    await expect(page.getByRole('tab', { name: /^Audit/ })).toHaveAttribute('aria-selected', 'true')
    const audit = page.getByRole('tabpanel', { name: /^Audit/ })
    const blocking = audit.locator('[data-triage="blocking"]')
    await expect(blocking).toHaveAttribute('aria-pressed', 'true')
    // every row read and the audio check done: the audit's final result
    await expect(audit.getByText(/Audio check: [\d,]+ rows read/)).toBeVisible({ timeout: 60_000 })
    const section = audit.locator('section.triage-section.blocking')
    for (const [kind, total] of [['unreadable-parquet', messy.unreadable.length], ['stray-file', messy.stray.length], ['bad-audio-size', messy.badAudioSize.length]] as const) {
      await expect(section.locator(`details[data-kind="${kind}"] .group-count[data-total]`), kind).toHaveAttribute('data-total', String(total))
    }
    // the badge counts what the Audit counts, and has caught up with the audit
    const card = Number(await blocking.locator('.card-value').getAttribute('data-value'))
    expect(card).toBeGreaterThanOrEqual(errors)
    await expect.poll(() => badgeErrors(page)).toBe(card)
    // and says it is the Audit's count now
    await expect(page.getByRole('tab', { name: `Audit, ${card} errors found by the Audit`, exact: true })).toHaveAttribute('title', `${card} errors found by the Audit`)
    if (shots) await page.screenshot({ path: join(shots, `audit-${theme.toLowerCase()}-1280.png`) })
  })
}

test('with a stats TSV, the alert says what the unreadable files cost in hours, as DuckDB computes them (light and dark)', async ({ page }) => {
  test.setTimeout(120_000)
  const withTsv = await writeMessyDataset({ tsv: true })
  try {
    // the reference: per (corpus, language) of an unreadable file, the TSV's hours less DuckDB's Σ audio_size of its readable files
    const tsv = await query(`SELECT * FROM read_csv('${join(withTsv.root, withTsv.tsv!)}', delim = '\t', header = true)`)
    const all = (readdirSync(withTsv.root, { recursive: true }) as string[]).map((p) => p.split('\\').join('/'))
    let expected = 0
    for (const p of withTsv.unreadable) {
      const corpus = /corpus=([^/]+)/.exec(p)![1]
      const language = /language=([^/]+)/.exec(p)![1]
      const readable = all.filter((f) => f.startsWith(`corpus=${corpus}/`) && f.includes(`/language=${language}/`) && f.endsWith('.parquet') && !withTsv.unreadable.includes(f))
      const [{ hours }] = await query(`SELECT coalesce(sum(audio_size), 0) / 16000 / 3600 AS hours FROM read_parquet([${readable.map((f) => `'${join(withTsv.root, f)}'`).join(', ')}])`)
      expected += Number(tsv.find((r) => r.corpus === corpus && r.language === language)!.hours) - Number(hours)
    }
    const minutes = expected * 60
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/')
    await waitForDataset(page, 'Demo dataset')
    await page.getByLabel('Dataset folder (file dialog)').setInputFiles(withTsv.root)
    await waitForDataset(page, 'version=0')
    const overview = page.getByRole('tabpanel', { name: /^Overview/ })
    const alert = overview.getByRole('alert').filter({ has: page.getByRole('heading', { name: /found while opening/ }) })
    await expect(alert).toBeVisible()
    const item = alert.locator('li[data-kind="unreadable-parquet"]')
    // the number as the page words it: minutes for under an hour (the demo's files are short)
    const shown = await item.locator('.kind-hours strong').innerText()
    const m = /^([\d.,]+) (min|s|h)$/.exec(shown)
    expect(m, shown).not.toBeNull()
    const value = Number(m![1].replace(/,/g, '')) * ({ s: 1 / 60, min: 1, h: 60 } as const)[m![2] as 's' | 'min' | 'h']
    expect(Math.abs(value - minutes) / minutes).toBeLessThan(0.01)
    await expect(item).not.toContainText('hours unknown')
    const text = (await alert.innerText()).replace(/\s+/g, ' ')
    expect(text).toContain(`They cost ${shown} of audio, and the hours of 1 row, unknown without reading them`)
    for (const theme of ['Dark', 'Light'] as const) {
      await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: theme }).click()
      const axe = await new AxeBuilder({ page }).include('.problems-alert').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
      expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([])
      if (shots) {
        await alert.screenshot({ path: join(shots, `alert-tsv-${theme.toLowerCase()}-1280.png`) })
        await page.setViewportSize({ width: 1920, height: 1000 })
        await alert.screenshot({ path: join(shots, `alert-tsv-${theme.toLowerCase()}-1920.png`) })
        await page.setViewportSize({ width: 1280, height: 800 })
      }
    }
  } finally {
    withTsv.remove()
  }
})

test('warnings alone get a quiet note and a warning badge, no alert', async ({ page }) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  // two version= folders: the reference merges them, a `versions-merged` warning and nothing else
  await page.getByLabel('Dataset folder (file dialog)').setInputFiles(join(repoRoot, 'test/fixtures/parquet/versions'))
  await waitForDataset(page, 'versions')
  const overview = page.getByRole('tabpanel', { name: /^Overview/ })
  await expect(overview.getByRole('alert')).toHaveCount(0)
  const note = overview.getByRole('status').filter({ hasText: 'No errors while opening' })
  await expect(note).toContainText('1 warning (versions-merged)')
  await expect(page.getByRole('tab', { name: 'Audit, 1 warning found while opening; run the Audit for row checks', exact: true })).toBeVisible()
  if (shots) await note.screenshot({ path: join(shots, 'note-light-1280.png') })
  // the note opens the Audit on every category (there are no blocking errors to filter to)
  await note.getByRole('button', { name: 'Open the Audit' }).click()
  await expect(page.getByRole('tabpanel', { name: /^Audit/ }).locator('[data-triage="blocking"]')).toHaveAttribute('aria-pressed', 'false')
})
