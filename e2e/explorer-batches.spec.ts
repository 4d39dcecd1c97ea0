/**
 * Batches view on the demo: the streamed list and the exported JSONL equal `mixscope batches --jsonl` (the CLI is
 * spawned here) for the same config; opening a batch lists its examples; a click selects an example for the
 * Inspector; the URL keeps the config.
 */
import { expect, test } from '@playwright/test'
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { repoRoot } from './fixtures/paths.ts'
import { waitForDataset } from './fixtures/overview-page.ts'

function cliJsonl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('npx', ['--offline', 'mixscope', 'batches', 'public/demo/version=0', ...args, '--jsonl'],
      { cwd: repoRoot, timeout: 60_000, maxBuffer: 64 << 20 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)))
  })
}

interface Line { batch: number; examples: { file: string; row: number; length: number; language: string }[] }

for (const setup of [
  { name: 'ctc-finetune, 5 batches', query: 'preset=ctc-finetune&split=train&max_batches=5', args: ['--split', 'train', '--preset', 'ctc-finetune', '--max-batches', '5'] },
  { name: 'rank 1 of 2, seed 7, 12 batches', query: 'preset=ctc-finetune&split=train&max_batches=12&rank=1&world_size=2&seed=7', args: ['--split', 'train', '--preset', 'ctc-finetune', '--max-batches', '12', '--rank', '1', '--world-size', '2', '--set', 'seed=7'] },
]) {
  test(`batches equal the CLI's batches --jsonl (${setup.name})`, async ({ page }, testInfo) => {
    const expected = await cliJsonl(setup.args)
    const lines = expected.trim().split('\n').map((l) => JSON.parse(l) as Line)
    expect(lines.length).toBeGreaterThan(2)

    await page.goto(`/?view=batches&${setup.query}`)
    await waitForDataset(page, 'Demo dataset')
    await expect(page.getByRole('status').filter({ hasText: /^Done/ })).toBeVisible({ timeout: 30_000 })
    // the sampler's first fill, read behind the first batch, settles: the batches below are training's (the CLI reads eagerly)
    await expect(page.locator('.warm-up-note[data-warm-up="done"]')).toBeVisible({ timeout: 30_000 })

    // the list: one row per batch, sizes and longest example as in the CLI's JSONL
    const list = page.getByRole('table', { name: 'Batches' })
    const rows = await list.locator('tbody tr[data-batch]').evaluateAll((trs) => trs.map((tr) => {
      const cells = [...tr.querySelectorAll('td')]
      return { batch: Number(tr.getAttribute('data-batch')), size: Number(cells[2].getAttribute('data-value')), longest: Number(cells[3].getAttribute('data-value')), padded: Number(cells[4].getAttribute('data-value')) }
    }))
    expect(rows).toEqual(lines.map((l) => {
      const longest = Math.max(...l.examples.map((e) => e.length))
      return { batch: l.batch, size: l.examples.length, longest, padded: longest * l.examples.length }
    }))

    // the exported JSONL is the CLI's, byte for byte
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSONL' }).click()])
    expect(download.suggestedFilename()).toBe('batches.jsonl')
    expect(await readFile(await download.path(), 'utf8')).toBe(expected)

    // open a batch: its examples, in order
    await list.locator('tbody tr[data-batch="1"]').click()
    const examples = page.getByRole('table', { name: 'Examples of batch 1' })
    await expect(examples).toBeVisible()
    const ids = await examples.locator('tbody tr td:first-child').allTextContents()
    expect(ids).toEqual(lines[1].examples.map((e) => `${e.file}:${e.row}`))
    await page.screenshot({ path: testInfo.outputPath('batches.png'), fullPage: true })

    // an example link selects it (URL example= and batch=) for the Inspector
    await examples.getByRole('button').first().click()
    await expect.poll(() => new URL(page.url()).searchParams.get('example')).toBe(`${lines[1].examples[0].file}:${lines[1].examples[0].row}`)
    expect(new URL(page.url()).searchParams.get('batch')).toBe('1')
  })
}

test('keyboard: arrows move through batches; changing a field or the seed restarts the stream', async ({ page }) => {
  await page.goto('/?view=batches&split=train&max_batches=6')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByRole('status').filter({ hasText: /^Done/ })).toBeVisible({ timeout: 30_000 })
  const list = page.getByRole('table', { name: 'Batches' })
  await list.locator('tbody tr[data-batch="0"]').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: /^Batch 0 / })).toBeVisible()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('heading', { name: /^Batch 1 / })).toBeVisible()
  // with the preset's windows of 1 nothing is shuffled; a larger example window makes the seed matter
  await page.getByLabel('example_shuffle_window').fill('50')
  await expect(page.getByRole('status').filter({ hasText: /^Done/ })).toBeVisible({ timeout: 30_000 })
  const before = await list.locator('tbody tr[data-batch] td:nth-child(5)').allTextContents()
  await page.getByLabel('Seed').fill('11')
  await expect.poll(() => new URL(page.url()).searchParams.get('seed')).toBe('11')
  await expect(page.getByRole('status').filter({ hasText: /^Done/ })).toBeVisible({ timeout: 30_000 })
  await expect.poll(async () => (await list.locator('tbody tr[data-batch] td:nth-child(5)').allTextContents()).join()).not.toBe(before.join())
})

test('decode & featurize: the open batch and the next ones through the engine worker, decoding on helper Workers', async ({ page }, testInfo) => {
  const expected = await cliJsonl(['--split', 'train', '--preset', 'ctc-finetune', '--max-batches', '12'])
  const lines = expected.trim().split('\n').map((l) => JSON.parse(l) as Line)
  await page.goto('/?view=batches&preset=ctc-finetune&split=train&max_batches=12')
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByRole('status').filter({ hasText: /^Done/ })).toBeVisible({ timeout: 30_000 })
  await page.getByRole('table', { name: 'Batches' }).locator('tbody tr[data-batch="2"]').click()
  await page.getByLabel('Feature device').selectOption('cpu')
  await page.getByRole('button', { name: 'Decode & featurize batches 2–9' }).click()
  const table = page.getByRole('table', { name: 'Data loader cost per batch' })
  await expect(table).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('status').filter({ hasText: /Decoded on \d+ helper Workers? ahead of the features on the CPU/ })).toBeVisible()
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))
  expect(rows.map((r) => Number(r[0]))).toEqual([2, 3, 4, 5, 6, 7, 8, 9])
  for (const r of rows) {
    const line = lines[Number(r[0])]
    const failed = r[7] === 'none' ? 0 : (r[7].match(/\.parquet:\d+/g) ?? []).length
    // waveform model input (ctc-finetune): [examples that decoded, longest decoded length]; the demo's audio_size is
    // the decoded length, so the longest is the plan's longest unless the longest row is the one that failed
    const [n, samples] = JSON.parse(r[1]) as number[]
    expect(n + failed).toBe(line.examples.length)
    expect(samples).toBeLessThanOrEqual(Math.max(...line.examples.map((e) => e.length)))
    if (failed === 0) expect(samples).toBe(Math.max(...line.examples.map((e) => e.length)))
    // FLAC through WebCodecs, the lossy codecs through the WASM decoders (the browser's defaults)
    for (const d of r[6].split(', ')) expect(['webcodecs:flac', 'wasm:vorbis', 'wasm:opus', 'wasm:mp3']).toContain(d)
  }
  await page.getByRole('region', { name: 'Data loader cost' }).screenshot({ path: testInfo.outputPath('loader-cost.png') })
})

test('a batch link opens that batch; opening a batch puts it in the URL', async ({ page }) => {
  const lines = (await cliJsonl(['--split', 'train', '--preset', 'ctc-finetune', '--max-batches', '5'])).trim().split('\n').map((l) => JSON.parse(l) as Line)
  await page.goto('/?view=batches&preset=ctc-finetune&split=train&max_batches=5&batch=3')
  await waitForDataset(page, 'Demo dataset')
  const examples = page.getByRole('table', { name: 'Examples of batch 3' })
  await expect(examples).toBeVisible({ timeout: 30_000 })
  expect(await examples.locator('tbody tr td:first-child').allTextContents()).toEqual(lines[3]!.examples.map((e) => `${e.file}:${e.row}`))
  await expect(page.getByRole('table', { name: 'Batches' }).locator('tbody tr[data-batch="3"]')).toHaveAttribute('aria-selected', 'true')
  await page.getByRole('table', { name: 'Batches' }).locator('tbody tr[data-batch="2"]').click()
  await expect(page.getByRole('table', { name: 'Examples of batch 2' })).toBeVisible()
  await expect.poll(() => new URL(page.url()).searchParams.get('batch')).toBe('2')
  await page.reload()
  await expect(page.getByRole('table', { name: 'Examples of batch 2' })).toBeVisible({ timeout: 30_000 })
})
