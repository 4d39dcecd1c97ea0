/**
 * Audit view, near-duplicate audio: the planted set (test/audit/near-duplicates/planted.ts: espeak-ng speech through
 * opusenc, lame and sox) served over HTTP with Range, deep-audited in the browser; the clusters listed are the ones
 * `mixscope audit --deep --json` gives (`tables.near_duplicates`, computed here in Node by the same engine), and a
 * cluster compared shows one player and one aligned fingerprint per member.
 */
import { expect, test } from '@playwright/test'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { auditDataset, buildManifest, createFsSource, formatManifest, openDataset } from '../src/engine/node.ts'
import { plantedSet } from '../test/audit/near-duplicates/planted.ts'
import { waitForDataset } from './fixtures/overview-page.ts'
import { e2eOrigin } from './fixtures/paths.ts'

function listFiles(root: string): { path: string; size: number }[] {
  return (readdirSync(root, { recursive: true }) as string[]).filter((p) => statSync(join(root, p)).isFile()).map((p) => ({ path: relative(root, join(root, p)), size: statSync(join(root, p)).size }))
}

test('near-duplicate clusters: listed as the CLI lists them, members played and their fingerprints aligned', async ({ page }) => {
  test.setTimeout(300_000)
  const planted = await plantedSet()
  const expected = (await auditDataset(await openDataset(await createFsSource(planted.root)), { deep: true })).tables.near_duplicates
  const manifest = formatManifest(buildManifest(listFiles(planted.root).map((f) => ({ path: f.path, size: f.size }))))
  await page.context().route('**/planted/**', async (route) => {
    const path = decodeURIComponent(new URL(route.request().url()).pathname.replace(/^\/planted\//, ''))
    if (path === '_manifest.json') return route.fulfill({ status: 200, body: manifest, contentType: 'application/json' })
    let body: Buffer
    try { body = readFileSync(join(planted.root, path)) } catch { return route.fulfill({ status: 404 }) }
    const range = /bytes=(\d+)-(\d*)/.exec(route.request().headers().range ?? '')
    if (!range) return route.fulfill({ status: 200, body })
    const start = Number(range[1]), end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1
    await route.fulfill({ status: 206, body: body.subarray(start, end + 1), headers: { 'content-range': `bytes ${start}-${end}/${body.length}`, 'accept-ranges': 'bytes' } })
  })
  const root = `${e2eOrigin}/planted/`
  await page.goto(`/?view=audit&dataset=${encodeURIComponent(root)}`)
  await waitForDataset(page, root)
  await page.getByRole('button', { name: 'Deep audit' }).click()
  await expect(page.getByText(/^Deep audit done/)).toBeVisible({ timeout: 240_000 })

  const panel = page.locator('section.near-duplicates')
  await expect(panel.getByRole('heading', { name: /^Near-duplicate audio/ })).toContainText(`${expected.length} clusters`)
  const rows = panel.locator('table.near-duplicate-clusters tbody tr')
  await expect(rows).toHaveCount(expected.length)
  await expect(rows.locator('td:nth-child(5)')).toHaveText(expected.map((c) => (c.members as string[]).join(', ')))

  // compare the first cluster: one player and one fingerprint strip per member, the first unshifted
  await rows.first().getByRole('button', { name: 'Compare' }).click()
  const members = panel.getByTestId('near-duplicate-members')
  const count = (expected[0].members as string[]).length
  await expect(members.getByTestId('near-duplicate-audio')).toHaveCount(count, { timeout: 60_000 })
  await expect(members.getByTestId('fingerprint-strip')).toHaveCount(count)
  await expect(members.getByTestId('fingerprint-strip').first()).toHaveAttribute('aria-label', /shifted 0 steps/)
  // every member decoded: its line gives its length, not an error
  for (const text of await members.locator('.hint').allTextContents()) expect(text).toMatch(/^\d+\.\d\d s/)
  await expect(members.locator('.hint').nth(1)).toContainText(/bit error rate 0\.[0-2]\d\d/)
})
