/**
 * Datasets in the browser's storage outlive a reload: a dataset prepared into OPFS (here the demo's files written
 * there, as the Prepare view's "Convert into browser storage" leaves them) is listed under "Recently opened" → "In
 * this browser's storage", opens with the same numbers as the demo, is remembered in the recent list and reopens from
 * it after a reload; once removed, the recent entry says it is gone instead of failing silently. Light and dark.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { shownPartitions, waitForDataset } from './fixtures/overview-page.ts'

const name = 'prepared-demo-copy'
const shots = process.env.SHOTS_DIR ?? null
if (shots) mkdirSync(shots, { recursive: true })

/** Writes the demo's files into OPFS under `name/` (the layout a prepare into browser storage leaves). */
async function copyDemoIntoStorage(page: Page): Promise<number> {
  return page.evaluate(async (folder) => {
    const base = new URL('demo/', document.baseURI)
    const manifestUrl = new URL('version=0/_manifest.json', base)
    const manifest = await (await fetch(manifestUrl, { cache: 'no-store' })).json() as { files: { path: string }[] }
    const root = await navigator.storage.getDirectory()
    const top = await root.getDirectoryHandle(folder, { create: true })
    const write = async (path: string) => {
      const parts = path.split('/')
      let dir = top
      for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true })
      const writable = await (await dir.getFileHandle(parts.at(-1)!, { create: true })).createWritable()
      const url = new URL(path, base)
      // no-store: the app's range reads left partial cache entries that a whole-file GET would be stitched from
      const bytes = await (await fetch(url, { cache: 'no-store' })).arrayBuffer()
      await writable.write(bytes)
      await writable.close()
    }
    for (const f of manifest.files) await write(`version=0/${f.path}`)
    await write('language_distribution_0.tsv')
    return manifest.files.length
  }, name)
}

for (const theme of ['Light', 'Dark'] as const) {
  test(`a dataset in browser storage is listed, opens, and reopens after a reload (${theme.toLowerCase()} theme)`, async ({ page }) => {
    test.setTimeout(120_000)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/')
    await waitForDataset(page, 'Demo dataset')
    await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: theme }).click()
    const demo = await shownPartitions(page)
    expect(await copyDemoIntoStorage(page)).toBeGreaterThan(10)

    await page.reload()
    await waitForDataset(page, 'Demo dataset')
    await page.getByRole('button', { name: 'Recently opened' }).click()
    const stored = page.getByRole('list', { name: "Datasets in this browser's storage" })
    await expect(stored.getByRole('listitem')).toHaveCount(1)
    if (shots) await page.screenshot({ path: join(shots, `browser-storage-${theme.toLowerCase()}.png`) })
    await stored.getByRole('button', { name, exact: true }).click()
    await waitForDataset(page, `${name} (browser storage)`)
    expect(await shownPartitions(page)).toEqual(demo)

    // remembered: after a reload the recent entry opens it again
    await page.reload()
    await waitForDataset(page, 'Demo dataset')
    await page.getByRole('button', { name: 'Recently opened' }).click()
    const recent = page.getByRole('list', { name: 'Recently opened datasets' })
    await recent.getByRole('button', { name: `${name} (browser storage)` }).click()
    await waitForDataset(page, `${name} (browser storage)`)
    expect(await shownPartitions(page)).toEqual(demo)

    // removed: the list forgets it, and the recent entry says where it went
    await page.getByRole('button', { name: 'Recently opened' }).click()
    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: `Remove ${name} from browser storage` }).click()
    await expect(page.getByRole('list', { name: "Datasets in this browser's storage" })).toHaveCount(0)
    await page.getByRole('list', { name: 'Recently opened datasets' }).getByRole('button', { name: `${name} (browser storage)` }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'is no longer in this browser' })).toContainText(`"${name}" is no longer in this browser's storage`)
    expect(await page.evaluate(async () => {
      const names: string[] = []
      for await (const key of (await navigator.storage.getDirectory() as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(key)
      return names
    })).not.toContain(name)
  })
}
