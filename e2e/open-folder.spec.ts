/** Opening a local folder: the `webkitdirectory` input, its fallback from the button, and the real showDirectoryPicker path (OPFS). */
import { expect, test } from '@playwright/test'
import { readExpectedFiles, totalsBy, type ExpectedFile } from './fixtures/expected-stats.ts'
import { copyUrlDatasetToOpfs, stubDirectoryPickerWithOpfs } from './fixtures/opfs.ts'
import { expectLanguageHours, waitForDataset } from './fixtures/overview-page.ts'
import { demoRootDir, demoRootUrl } from './fixtures/paths.ts'

let demoFiles: ExpectedFile[]

test.beforeAll(async () => {
  demoFiles = await readExpectedFiles(demoRootDir)
})

test('a folder chosen through the webkitdirectory input opens', async ({ page }) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await page.getByLabel('Dataset folder (file dialog)').setInputFiles(demoRootDir)
  await waitForDataset(page, 'version=0')
  await expect(page.getByText(/\(file-list\)/)).toBeVisible()
  await expectLanguageHours(page, totalsBy(demoFiles, (f) => f.keys.language))
})

test('without showDirectoryPicker the button falls back to the file dialog', async ({ page }) => {
  await page.addInitScript(() => { delete (window as { showDirectoryPicker?: unknown }).showDirectoryPicker })
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('button', { name: 'Open dataset folder' }).click()
  await (await chooser).setFiles(demoRootDir)
  await waitForDataset(page, 'version=0')
  await expectLanguageHours(page, totalsBy(demoFiles, (f) => f.keys.language))
})

test('a folder from showDirectoryPicker opens through the FileSystemDirectoryHandle path', async ({ page }) => {
  await page.goto('/')
  const copied = await copyUrlDatasetToOpfs(page, demoRootUrl, 'version=0')
  expect(copied).toBeGreaterThan(0)
  await stubDirectoryPickerWithOpfs(page, 'version=0')
  await page.reload()
  await waitForDataset(page, 'Demo dataset')
  await page.getByRole('button', { name: 'Open dataset folder' }).click()
  await waitForDataset(page, 'version=0')
  await expect(page.getByText(/\(directory-handle\)/)).toBeVisible()
  await expectLanguageHours(page, totalsBy(demoFiles, (f) => f.keys.language))
})
