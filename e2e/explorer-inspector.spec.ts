/**
 * The Inspector on the bundled demo: plays audio (the `<audio>` element's currentTime advances), draws a non-empty
 * waveform, spectrogram and model-input view (canvas pixels), computes the model input on the worker's GPU and the
 * CPU with results that agree, shows the SpecAugment masks with their seed, and steps with the keyboard.
 * Screenshot: inspector.png.
 */
import { expect, test, type Page } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'
import { chromiumArgs } from '../test/helpers/chromium-args.ts'

test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: chromiumArgs(['--enable-unsafe-webgpu', '--autoplay-policy=no-user-gesture-required']),
  },
})

const flacId = 'corpus=fleurs/split=train/language=eng_Latn/part-0.parquet:0'

async function openInspector(page: Page, id = flacId, extra = ''): Promise<void> {
  await page.goto(`/?view=inspector&example=${encodeURIComponent(id)}${extra}`)
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByTestId('inspector-audio')).toHaveAttribute('src', /^blob:/, { timeout: 30_000 })
}

/** Pixels of a canvas that differ from its top-left pixel (the background). */
function paintedPixels(page: Page, testId: string): Promise<number> {
  return page.getByTestId(testId).evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height)
    let n = 0
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) n++
    }
    return n
  })
}

/** Largest |Δ| the comparison line states. */
async function comparedDifference(page: Page): Promise<number> {
  const text = await page.getByTestId('device-comparison').innerText()
  return Number(/largest \|Δ\| ([\d.e+-]+)/.exec(text)![1])
}

test('plays audio and draws the waveform, spectrogram and model input', async ({ page }, testInfo) => {
  await openInspector(page)
  await expect(page.getByTestId('metadata')).toContainText('16,000 Hz')
  await expect(page.getByTestId('metadata')).toContainText('flac')
  await expect(page.getByTestId('transcript')).toHaveAttribute('dir', 'auto')

  const audio = page.getByTestId('inspector-audio')
  await page.locator('body').press('Space')
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3)
  await page.locator('body').press('Space')
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true)

  for (const id of ['waveform-canvas', 'spectrogram-canvas', 'model-input-canvas']) {
    expect(await paintedPixels(page, id), id).toBeGreaterThan(500)
  }
  await expect(page.getByTestId('model-input-device')).toContainText(/waveform \[\d+\]/)
  await page.screenshot({ path: testInfo.outputPath('inspector.png'), fullPage: true })
})

test('GPU and CPU model inputs agree (waveform and fbank)', async ({ page }, testInfo) => {
  await openInspector(page)
  const device = page.getByTestId('model-input-device')
  await expect(device).toContainText('GPU (')
  await expect(page.getByTestId('status-device')).toContainText('GPU:')
  await page.getByLabel('dtype', { exact: true }).selectOption('float32')
  await page.getByLabel('compare with the other device', { exact: true }).check()
  await expect(page.getByTestId('device-comparison')).toContainText('GPU vs CPU')
  expect(await comparedDifference(page)).toBeLessThan(1e-4)

  await page.getByLabel('use_fbank', { exact: true }).check()
  await expect(device).toContainText('fbank [')
  await expect(page.getByTestId('device-comparison')).toContainText('GPU vs CPU')
  expect(await comparedDifference(page)).toBeLessThan(2e-2)
  expect(await paintedPixels(page, 'model-input-canvas')).toBeGreaterThan(500)

  await page.getByLabel('Device', { exact: true }).selectOption('cpu')
  await expect(device).toContainText('computed on CPU')
  await expect(page.getByTestId('device-comparison')).toContainText('CPU vs GPU')
  expect(await comparedDifference(page)).toBeLessThan(2e-2)
  await page.screenshot({ path: testInfo.outputPath('inspector-fbank.png'), fullPage: true })
})

test('reference SpecAugment: masks over the hop-200 STFT with the seed shown', async ({ page }) => {
  await openInspector(page, flacId, '&sa_seed=3')
  // the two SpecAugment controls say what each is (the config's reference SpecAugment; a what-if over fbank)
  const help = page.getByTestId('spec-augment-help')
  await page.getByLabel('use_fbank', { exact: true }).check()
  await expect(help).toContainText('spec_aug_p is the training config')
  await expect(help).toContainText('features SpecAugment p is not in the reference')
  await page.getByLabel('use_fbank', { exact: true }).uncheck()
  await expect(help).toContainText('only when use_fbank is off')
  await expect(help).not.toContainText('features SpecAugment p')
  await page.getByLabel('spec_aug_p', { exact: true }).fill('1')
  const figure = page.locator('figure', { has: page.getByTestId('spec-augment-canvas') })
  await expect(figure).toContainText('seed 3, p 1: applied')
  await expect(figure.locator('.mask-list li')).toHaveCount(2)
  expect(await paintedPixels(page, 'spec-augment-canvas')).toBeGreaterThan(500)
  await page.getByLabel('spec_aug_p', { exact: true }).fill('')
  await expect(page.getByTestId('spec-augment-canvas')).toHaveCount(0)
})

test('keyboard: j / k step through the examples list, the URL follows', async ({ page }) => {
  await openInspector(page)
  const shown = page.getByTestId('inspector-example-id')
  await page.locator('body').press('j')
  await expect(shown).not.toContainText(flacId)
  const next = new URL(page.url()).searchParams.get('example')
  expect(next).toMatch(/\.parquet:\d+$/)
  expect(next).not.toBe(flacId)
  await expect(page.getByTestId('inspector-audio')).toHaveAttribute('src', /^blob:/)
  await page.locator('body').press('k')
  await expect(shown).toContainText(flacId)
  expect(new URL(page.url()).searchParams.get('example')).toBe(flacId)
  // the status bar counts the reads
  await expect(page.getByTestId('status-io')).toContainText(/\d+ requests/)
  await expect(page.getByTestId('status-worker')).toHaveText('Worker idle')
})

test('plots carry axes, colour bars and the play-head; an empty transcript and an undecodable example say so', async ({ page }, testInfo) => {
  const defects = JSON.parse(await (await import('node:fs/promises')).readFile(new URL('../public/demo/defects.json', import.meta.url), 'utf8')) as { id: string; kind: string }[]
  await openInspector(page, flacId, '&device=cpu')
  await expect(page.getByTestId('model-input-canvas')).toBeVisible({ timeout: 30_000 })
  const plots = page.locator('figure.plot')
  const count = await plots.count()
  expect(count).toBeGreaterThanOrEqual(3)
  for (let i = 0; i < count; i++) {
    expect(await plots.nth(i).locator('.plot-x-tick').count(), `x ticks of plot ${i}`).toBeGreaterThanOrEqual(2)
    expect(await plots.nth(i).locator('.plot-y-tick').count(), `y ticks of plot ${i}`).toBeGreaterThanOrEqual(2)
    await expect(plots.nth(i).locator('.plot-x-tick').first()).toHaveText(/^\d+(\.\d+)? s$/)
  }
  await expect(page.locator('figure.plot', { has: page.getByTestId('spectrogram-canvas') }).getByRole('img', { name: /^Colour scale from -?[\d.]+ to -?[\d.]+ dB$/ })).toBeVisible()
  await expect(page.locator('figure.plot', { has: page.getByTestId('spectrogram-canvas') }).locator('.plot-y-tick').last()).toHaveText(/kHz/)
  // the play-head shows on every plot while playing, at the same x on each (the time axes line up)
  await page.getByTestId('inspector-audio').evaluate((a: HTMLAudioElement) => { a.currentTime = 0.5 })
  await expect(page.locator('.plot-playhead')).toHaveCount(count)
  const areas = await page.locator('.plot-area').evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.width] }))
  for (const [left, width] of areas) {
    expect(left).toBeCloseTo(areas[0][0], 0)
    expect(width).toBeCloseTo(areas[0][1], 0)
  }
  await page.screenshot({ path: testInfo.outputPath('inspector-axes.png'), fullPage: true })

  const empty = defects.find((d) => d.kind === 'empty-text')!
  await openInspector(page, empty.id)
  await expect(page.getByTestId('transcript')).toHaveText('(empty transcript)')

  const bad = defects.find((d) => d.kind === 'undecodable-audio')!
  await page.goto(`/?view=inspector&example=${encodeURIComponent(bad.id)}`)
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByRole('heading', { name: 'What is known without decoding' })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('metadata')).toContainText('swh_Latn')
  await expect(page.getByTestId('metadata')).toContainText('flac / flac')
  await expect(page.getByTestId('header-bytes')).toHaveText(/^66 4c 61 43/)
  await expect(page.locator('.facts .example-findings')).toContainText('undecodable-audio')
  await expect(page.locator('.facts .example-findings')).toContainText('no complete FLAC frame')
})
