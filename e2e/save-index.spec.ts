/**
 * Saving the dataset index from the browser (docs/interpretations.md "Dataset index"): a folder picked with
 * `<input webkitdirectory>` cannot be written through, so the page offers the file as a download. The downloaded index
 * is read back here: its rows list every parquet file, and its summary (`mixscope.index.summary`) holds the rows and
 * hours per partition that the test computes from the parquet files itself (hyparquet, not mixscope's engine).
 */
import { expect, test } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { readExpectedFiles, totalsBy } from './fixtures/expected-stats.ts'
import { waitForDataset } from './fixtures/overview-page.ts'
import { demoRootDir } from './fixtures/paths.ts'
import { decodeIndexSummary, indexSummaryKey, readIndex } from '../src/engine/node.ts'

test('a picked folder\'s index is offered as a download; it describes every file, and its summary holds their numbers', async ({ page }) => {
  const files = await readExpectedFiles(demoRootDir)
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await page.getByLabel('Dataset folder (file dialog)').setInputFiles(demoRootDir)
  await waitForDataset(page, 'version=0')
  await page.getByRole('button', { name: 'Save dataset index into this folder' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Could not write into the folder' })).toBeVisible({ timeout: 30_000 })
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: '_mixscope_index.parquet' }).click()])
  expect(download.suggestedFilename()).toBe('_mixscope_index.parquet')
  const bytes = new Uint8Array(readFileSync(await download.path()))
  const { rows, metadata } = await readIndex(bytes, 'downloaded index')
  expect(new Set(rows.filter((r) => r.path.endsWith('.parquet')).map((r) => r.path))).toEqual(new Set(files.map((f) => f.path)))
  const summary = decodeIndexSummary(metadata[indexSummaryKey], 'downloaded index')
  const expected = totalsBy(files, (f) => `${f.keys.corpus}/${f.keys.language}/${f.keys.split}`)
  expect(summary.partitions.length).toBe(expected.size)
  for (const p of summary.partitions) {
    const want = expected.get(`${p.corpus}/${p.language}/${p.split}`)
    expect(want, `${p.corpus}/${p.language}/${p.split}`).toBeDefined()
    expect({ files: p.files, rows: p.rows }).toEqual({ files: want!.files, rows: want!.rows })
    expect(p.hours).toBeCloseTo(want!.hours, 9)
  }
  expect(summary.files.parquet).toBe(files.length)
})
