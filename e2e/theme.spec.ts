/**
 * The theme toggle: System follows the browser's colour scheme; Light and Dark override it, are kept across a reload,
 * and the Inspector's waveform canvas draws in the theme's colours (a canvas cannot read a light-dark() token raw).
 */
import { expect, test, type Page } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor || getComputedStyle(document.documentElement).backgroundColor)
const rootBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)

test('System follows the browser; Light and Dark override it and survive a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto('/')
  await waitForDataset(page, 'Demo dataset')
  const theme = page.getByRole('radiogroup', { name: 'Theme' })
  await expect(theme.getByRole('radio', { name: 'System' })).toHaveAttribute('aria-checked', 'true')
  expect(await rootBackground(page)).toBe('rgb(255, 255, 255)')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(() => rootBackground(page)).toBe('rgb(13, 17, 23)')

  await theme.getByRole('radio', { name: 'Light' }).click()
  await expect.poll(() => rootBackground(page)).toBe('rgb(255, 255, 255)')
  await page.reload()
  await waitForDataset(page, 'Demo dataset')
  await expect(page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Light' })).toHaveAttribute('aria-checked', 'true')
  expect(await rootBackground(page)).toBe('rgb(255, 255, 255)')

  await page.emulateMedia({ colorScheme: 'light' })
  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).click()
  await expect.poll(() => rootBackground(page)).toBe('rgb(13, 17, 23)')
  expect(await background(page)).not.toBe('rgb(255, 255, 255)')
  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'System' }).click()
  await expect.poll(() => rootBackground(page)).toBe('rgb(255, 255, 255)')
})

test('the waveform canvas draws in the dark theme\'s panel colour, and again when the system turns dark', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto('/?view=inspector&example=' + encodeURIComponent('corpus=fleurs/split=train/language=eng_Latn/part-0.parquet:1'))
  await waitForDataset(page, 'Demo dataset')
  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).click()
  const canvas = page.locator('canvas').first()
  await expect(canvas).toBeVisible({ timeout: 30_000 })
  // the top-left pixel is the panel's background (#161b22 in the dark theme)
  await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => [...c.getContext('2d')!.getImageData(1, 1, 1, 1).data].slice(0, 3).join(','))).toBe('22,27,34')
  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'System' }).click()
  // back to the system's light scheme (#f6f8fa), then the system turning dark while the page is open draws it again
  await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => [...c.getContext('2d')!.getImageData(1, 1, 1, 1).data].slice(0, 3).join(','))).toBe('246,248,250')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => [...c.getContext('2d')!.getImageData(1, 1, 1, 1).data].slice(0, 3).join(','))).toBe('22,27,34')
})
