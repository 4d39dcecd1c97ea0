/**
 * The Prepare view: a generated NeMo corpus (test/prepare/make-inputs.ts) fed through the webkitdirectory input,
 * what was recognized shown before converting, conversion into OPFS (zip download, then opened in the explorer),
 * into a folder from showDirectoryPicker (readwrite; stubbed with an OPFS folder), pause, cancel and resume.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { unzipSync } from 'fflate'
import { makeNemo } from '../test/prepare/make-inputs.ts'
import { shownLanguages, waitForDataset } from './fixtures/overview-page.ts'

let small: string
let large: string

test.beforeAll(() => {
  const base = mkdtempSync(join(tmpdir(), 'mixscope-e2e-prepare-'))
  small = join(base, 'nemo')
  mkdirSync(small, { recursive: true })
  makeNemo(small)
  // a bigger corpus for pause/cancel: the train/eng_Latn partition (written last) repeated 120 times
  large = join(base, 'nemo-large')
  mkdirSync(large, { recursive: true })
  makeNemo(large)
  const lines = readFileSync(join(large, 'manifest.jsonl'), 'utf8').trim().split('\n')
  const extra = Array.from({ length: 120 }, (_, i) => JSON.stringify({ audio_filepath: 'audio/clip-0.wav', text: `take ${i + 1} of the first clip`, lang: 'en', corpus: 'nemo', split: 'train' }))
  writeFileSync(join(large, 'manifest.jsonl'), [...lines, ...extra].join('\n') + '\n')
})

async function openPrepare(page: Page, dir: string): Promise<void> {
  await page.goto('/?view=prepare')
  await expect(page.getByRole('heading', { name: 'Prepare' })).toBeVisible()
  await page.getByLabel('Input folder (file dialog)').setInputFiles(dir)
  await expect(page.getByRole('table', { name: 'Partitions to write' })).toBeVisible({ timeout: 30_000 })
}

test('recognizes a NeMo corpus, converts it into OPFS, downloads the zip and opens the result', async ({ page }) => {
  await openPrepare(page, small)
  const partitions = page.getByRole('table', { name: 'Partitions to write' }).locator('tbody tr')
  await expect(partitions).toHaveCount(5)
  await expect(page.getByText(/Skipped: .*audio file missing/)).toBeVisible()
  await expect(page.getByRole('table', { name: 'Language codes' }).getByText('cmn_Hans')).toBeVisible()
  await page.getByRole('button', { name: 'Convert into browser storage' }).click()
  await expect(page.getByText(/Wrote 7 rows/)).toBeVisible({ timeout: 60_000 })
  await expect(page.getByText(/1 unreadable/)).toBeVisible()

  await page.getByRole('button', { name: 'Prepare zip download' }).click()
  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: /Download prepared-nemo\.zip/ }).click()
  const download = await downloading
  const zipPath = join(mkdtempSync(join(tmpdir(), 'mixscope-e2e-zip-')), 'out.zip')
  await download.saveAs(zipPath)
  const entries = Object.keys(unzipSync(new Uint8Array(readFileSync(zipPath))))
  expect(entries).toContain('prepared-nemo/language_distribution_0.tsv')
  expect(entries).toContain('prepared-nemo/version=0/corpus=nemo/split=train/language=eng_Latn/part-0.parquet')
  expect(entries.filter((e) => e.endsWith('.parquet')).length).toBe(5)

  await page.getByRole('button', { name: 'Open in explorer' }).click()
  await waitForDataset(page, 'prepared-nemo')
  const languages = await shownLanguages(page)
  expect(languages.map((l) => l.code).sort()).toEqual(['cmn_Hans', 'deu_Latn', 'eng_Latn', 'hin_Deva'])
  expect(languages.reduce((n, l) => n + l.rows, 0)).toBe(7)
})

test('converts into a picked folder, pauses, cancels and resumes after the finished files', async ({ page }) => {
  test.setTimeout(180_000) // the resume alone may take its 90 s on a loaded machine
  await page.addInitScript(() => {
    (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker =
      async () => (await navigator.storage.getDirectory()).getDirectoryHandle('picked-out', { create: true })
  })
  await page.goto('/')
  await page.evaluate(async () => (await navigator.storage.getDirectory()).removeEntry('picked-out', { recursive: true }).catch(() => undefined))
  await openPrepare(page, large)
  await page.getByRole('button', { name: 'Convert into a folder…' }).click()
  // pause at once: the run holds before its next clip (the clips already started finish)
  await page.getByRole('button', { name: 'Pause' }).click()
  const status = page.getByRole('status').filter({ hasText: 'rows,' })
  await expect(status).toContainText('Paused:')
  await page.waitForTimeout(1000)
  const held = await status.textContent()
  await page.waitForTimeout(1000)
  expect(await status.textContent()).toBe(held) // nothing moves while paused
  await page.getByRole('button', { name: 'Resume', exact: true }).click()
  // once a file is finished, pause again and cancel: the next run keeps that file
  await expect(status).toContainText(/[1-9]\d* files/, { timeout: 60_000 })
  await page.getByRole('button', { name: 'Pause' }).click()
  await expect(status).toContainText('Paused:')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(status).toContainText('Cancelled:')
  await page.getByRole('button', { name: 'Resume conversion' }).click()
  await expect(page.getByText(/Wrote 127 rows/)).toBeVisible({ timeout: 90_000 })
  await expect(status).toContainText(/rows kept from the earlier run/)
  const files = await page.evaluate(async () => {
    const out: string[] = []
    async function walk(dir: FileSystemDirectoryHandle, prefix: string) {
      for await (const [name, h] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
        if (h.kind === 'directory') await walk(h as FileSystemDirectoryHandle, `${prefix}${name}/`)
        else out.push(`${prefix}${name}`)
      }
    }
    await walk(await (await navigator.storage.getDirectory()).getDirectoryHandle('picked-out'), '')
    return out.sort()
  })
  expect(files.filter((f) => f.endsWith('.parquet')).length).toBe(5)
  expect(files).toContain('language_distribution_0.tsv')
  expect(files).toContain('_prepare_skipped.jsonl')
})

test('asks for a decision on an ambiguous language code', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'mixscope-e2e-mn-'))
  mkdirSync(join(dir, 'audio'))
  writeFileSync(join(dir, 'audio', 'a.wav'), readFileSync(join(small, 'audio', 'clip-0.wav')))
  writeFileSync(join(dir, 'm.jsonl'), [
    { audio_filepath: 'audio/a.wav', text: 'сайн байна уу', lang: 'mn', corpus: 'nemo', split: 'train' },
    { audio_filepath: 'audio/a.wav', text: 'сайн байна уу', lang: 'khk_Cyrl', corpus: 'nemo', split: 'extra' },
  ].map((r) => JSON.stringify(r)).join('\n') + '\n')
  await openPrepare(page, dir)
  await expect(page.getByRole('button', { name: 'Convert into browser storage' })).toBeDisabled()
  // the skipped rows say what is wrong and what in this view writes them; no CLI option (--language, --split-map)
  const skipped = page.locator('.prepare-skipped')
  await expect(skipped).toContainText('choose a language for “mn” under Language codes')
  await expect(page.locator('.prepare-recognized')).toContainText('split “extra”: 1 row not written (not train, dev or test); set “Split” above')
  await page.getByLabel('Language for "mn"').selectOption('khk_Cyrl')
  await expect(page.getByRole('table', { name: 'Partitions to write' }).getByText('khk_Cyrl')).toBeVisible()
  await expect(page.getByRole('table', { name: 'Language codes' }).locator('tr', { hasText: 'mn' }).first()).toContainText('your choice')
  expect(await page.locator('.prepare-view, main').first().textContent()).not.toMatch(/--(language|split-map|split)\b/)
  await expect(page.getByRole('button', { name: 'Convert into browser storage' })).toBeEnabled()
})

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the Prepare view with a recognized input has no axe violations (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme })
    await openPrepare(page, small)
    const results = await new AxeBuilder({ page }).include('.prepare-view').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}× e.g. ${v.nodes[0]?.target.join(' ')})`)).toEqual([])
  })
}
