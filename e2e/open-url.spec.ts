/** Opening by URL: a dataset root with `_manifest.json`, a single `.parquet` file, a URL that fails, and Cancel. */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { readExpectedFiles, totalsBy, type ExpectedFile } from './fixtures/expected-stats.ts'
import { expectLanguageHours, shownPartitions, waitForDataset } from './fixtures/overview-page.ts'
import { demoRootDir, demoRootUrl, e2eOrigin, repoRoot } from './fixtures/paths.ts'

let demoFiles: ExpectedFile[]

test.beforeAll(async () => {
  demoFiles = await readExpectedFiles(demoRootDir)
})

async function openUrl(page: import('@playwright/test').Page, url: string) {
  await page.getByLabel('Dataset URL').fill(url)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
}

test('a dataset root URL opens from its manifest', async ({ page }) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await openUrl(page, demoRootUrl)
  await waitForDataset(page, demoRootUrl)
  await expectLanguageHours(page, totalsBy(demoFiles, (f) => f.keys.language))
  // the page URL now names the dataset, so a reload (or a shared link) reopens it
  expect(new URL(page.url()).searchParams.get('dataset')).toBe(demoRootUrl)
  await page.reload()
  await waitForDataset(page, demoRootUrl)
})

test('a single .parquet URL opens as a one-file dataset', async ({ page }) => {
  const file = demoFiles.find((f) => f.rows !== null && f.rows > 0)!
  const url = demoRootUrl + file.path
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await openUrl(page, url)
  await waitForDataset(page, url)
  const partitions = await shownPartitions(page)
  expect([...partitions.values()].reduce((sum, p) => sum + p.rows, 0)).toBe(file.rows)
})

test('a URL without a dataset shows the error and keeps the open dataset', async ({ page }) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await openUrl(page, `${e2eOrigin}/no-such-dataset/`)
  await expect(page.getByRole('alert')).toContainText(`Could not open ${e2eOrigin}/no-such-dataset/`)
  await expect(page.getByText('Dataset: Demo dataset')).toBeVisible()
  await expect(page.getByRole('table', { name: 'Hours per language' })).toBeVisible()
})

test('Cancel stops a slow open and keeps the previous dataset', async ({ page }, testInfo) => {
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  // a copy of the demo under another URL whose parquet reads hang until the test is done
  const slowRoot = `${e2eOrigin}/slow/version=0/`
  let parquetRequests = 0
  await page.context().route('**/slow/version=0/**', async (route) => {
    const url = new URL(route.request().url())
    // the dataset index is absent (the demo has none), as on a server without it; the data files hang
    if (url.pathname.endsWith('/_mixscope_index.parquet')) return route.fulfill({ status: 404 })
    if (url.pathname.endsWith('.parquet')) {
      parquetRequests++
      return // never answered: the open can only end by Cancel
    }
    const response = await route.fetch({ url: url.href.replace('/slow/', '/demo/') })
    await route.fulfill({ response })
  })
  await openUrl(page, slowRoot)
  const loading = page.getByRole('region', { name: 'Loading' })
  await expect(loading).toContainText('Reading parquet footers')
  await expect.poll(() => parquetRequests).toBeGreaterThan(0)
  // progress names the files listed (the manifest's entries) and the footers read so far (none: they hang)
  const manifest = JSON.parse(readFileSync(resolve(demoRootDir, '_manifest.json'), 'utf8')) as { files: unknown[] }
  await expect(loading.getByRole('definition').nth(0)).toHaveText(String(manifest.files.length))
  await expect(loading.getByRole('definition').nth(1)).toHaveText(/^0 of \d+$/)
  await page.screenshot({ path: testInfo.outputPath('overview-loading.png') })
  await loading.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'was cancelled' })).toBeVisible()
  await expect(loading).toHaveCount(0)
  await expect(page.getByText('Dataset: Demo dataset')).toBeVisible()
  await expectLanguageHours(page, totalsBy(demoFiles, (f) => f.keys.language))
})

test('?dataset=<url> in the page URL opens that dataset instead of the demo', async ({ page }) => {
  await page.goto(`/?dataset=${encodeURIComponent('/demo/version=0/')}`)
  await waitForDataset(page, demoRootUrl)
  await expectLanguageHours(page, totalsBy(demoFiles, (f) => f.keys.language))
})

test('a server that ignores Range: the user is asked, then whole files are read', async ({ page }) => {
  // serves public/demo under /norange/ with plain 200 answers whatever the Range header says
  await page.context().route('**/norange/**', async (route) => {
    const path = resolve(repoRoot, 'public/demo', decodeURIComponent(new URL(route.request().url()).pathname.replace('/norange/', '')))
    if (!existsSync(path)) return route.fulfill({ status: 404 }) // the dataset index, which the demo does not ship
    await route.fulfill({ status: 200, body: readFileSync(path) })
  })
  const root = `${e2eOrigin}/norange/version=0/`
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  await openUrl(page, root)
  await waitForDataset(page, root)
  const notice = page.getByRole('alert').filter({ hasText: 'ignores HTTP Range requests' })
  await expect(notice).toBeVisible()
  await expect(notice).toContainText(`downloading all ${demoFiles.length} files whole`)
  await notice.getByRole('button', { name: 'Read whole files' }).click()
  await expect(notice).toHaveCount(0)
  // the notice goes as soon as the reopen starts: wait for it to finish before reading the numbers
  await waitForDataset(page, root)
  await expectLanguageHours(page, totalsBy(demoFiles, (f) => f.keys.language))
})
