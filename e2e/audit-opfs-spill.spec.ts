/**
 * The explorer's audit keeps its rows in the browser's origin-private file system (src/engine/core/opfs-spill.ts,
 * through src/engine/worker/browser-spill.ts) while it runs, leaves nothing there when it is through, and flags the
 * same rows as `mixscope audit` in Node (whose spill is a temporary folder on disk).
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { demoRootDir, repoRoot } from './fixtures/paths.ts'
import { waitForDataset } from './fixtures/overview-page.ts'

/** Names of the spill folders in OPFS's root now. */
const spillFolders = `(async () => {
  const out = []
  for await (const name of (await navigator.storage.getDirectory()).keys()) if (name.startsWith('mixscope-spill-')) out.push(name)
  return out
})()`

test('the Audit spills to OPFS while it runs, removes it after, and flags what the CLI flags', async ({ page }) => {
  // (exit 1: the demo has error findings on purpose)
  const run = spawnSync('node', [join(repoRoot, 'bin', 'mixscope.js'), 'audit', demoRootDir, '--preset', 'ctc-finetune', '--json'],
    { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 })
  expect(run.status, run.stderr).toBe(1)
  const cli = JSON.parse(run.stdout) as { totals: { flagged_rows: number; rows: number } }
  // every parquet read a little slow, so that the audit lasts long enough to be watched
  await page.context().route('**/demo/version=0/**/*.parquet', async (route) => {
    await new Promise((r) => setTimeout(r, 100))
    await route.continue()
  })
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  expect(await page.evaluate(spillFolders)).toEqual([])
  // the page watches OPFS's root every 15 ms for as long as the audit runs
  await page.evaluate(`(() => {
    window.__spillsSeen = new Set()
    const look = async () => { for (const name of await ${spillFolders}) window.__spillsSeen.add(name) }
    window.__spillWatch = setInterval(() => { void look() }, 15)
  })()`)
  await page.getByRole('tab', { name: 'Audit' }).click()
  await expect(page.getByText(/^Audio check: [\d,]+ rows read/)).toBeVisible({ timeout: 90_000 })
  const seen = await page.evaluate('[...window.__spillsSeen]') as string[]
  expect(seen.length, 'a spill folder in OPFS while the audit ran').toBeGreaterThan(0)
  for (const name of seen) expect(name).toMatch(/^mixscope-spill-\d+-[a-z0-9]+$/)
  await expect.poll(() => page.evaluate(spillFolders), { message: 'every spill folder removed once the audit is through' }).toEqual([])
  const headline = page.getByText(/rows are flagged/)
  await expect(headline.locator('strong')).toHaveText(cli.totals.flagged_rows.toLocaleString('en-US'))
  await expect(headline).toContainText(cli.totals.rows.toLocaleString('en-US'))
})
