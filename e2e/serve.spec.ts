/**
 * `mixscope serve` end to end: the built explorer and the demo served by `createDatasetServer` on a port of their own
 * (not the preview server); the printed URL opens the dataset, with the hours of every language of the demo.
 */
import { resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { createDatasetServer, type DatasetServer } from '../src/engine/node.ts'
import { readExpectedFiles, totalsBy, type ExpectedFile } from './fixtures/expected-stats.ts'
import { expectLanguageHours, waitForDataset } from './fixtures/overview-page.ts'
import { demoRootDir, repoRoot } from './fixtures/paths.ts'

let server: DatasetServer
let demoFiles: ExpectedFile[]

test.beforeAll(async () => {
  demoFiles = await readExpectedFiles(demoRootDir)
  server = await createDatasetServer({ root: demoRootDir, appDir: resolve(repoRoot, 'dist'), port: 0 })
})
test.afterAll(async () => server?.close())

test('the URL serve prints opens the served folder in the explorer', async ({ page }) => {
  expect(server.openUrl).not.toBeNull()
  const dataRequests: string[] = []
  page.on('request', (r) => { if (r.url().startsWith(server.dataUrl)) dataRequests.push(r.url()) })
  await page.goto(server.openUrl!)
  await waitForDataset(page, server.dataUrl)
  await expectLanguageHours(page, totalsBy(demoFiles, (f) => f.keys.language))
  expect(dataRequests).toContain(`${server.dataUrl}_manifest.json`)
})
