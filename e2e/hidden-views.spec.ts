/**
 * Views kept mounted while another tab is shown (src/app/shell/current-view.tsx): their contents are out of the tab
 * order, out of the accessibility tree and not visible, and they come back as they were.
 */
import { expect, test } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'

test('a hidden view\'s controls are not reachable by Tab, not in the accessibility tree, and come back when shown', async ({ page }) => {
  await page.goto('/?view=overview')
  await waitForDataset(page, 'Demo dataset')
  const hours = page.getByRole('radio', { name: 'Hours' })
  await expect(hours).toBeVisible()
  await page.getByRole('tab', { name: 'Audit' }).click()
  await expect(page.locator('#view-overview')).toHaveAttribute('hidden', '')
  // Playwright's role engine and Chromium's own accessibility tree both leave it out
  await expect(hours).toHaveCount(0)
  const tree = await page.locator('body').ariaSnapshot()
  expect(tree).not.toContain('radio "Hours"')
  // its contents are skipped (an ancestor with content-visibility: hidden), not merely scrolled away
  expect(await page.locator('#view-overview input[name="overview-metric"]').first().evaluate((el) => el.checkVisibility())).toBe(false)
  // Tab through the whole page: focus never lands inside the hidden Overview
  const landed: string[] = []
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab')
    const inHidden = await page.evaluate(() => document.activeElement?.closest('.view-panel[hidden]')?.id ?? null)
    if (inHidden) landed.push(inHidden)
  }
  expect(landed).toEqual([])
  await page.getByRole('tab', { name: 'Overview' }).click()
  await expect(hours).toBeVisible()
  await expect(hours).toBeChecked()
})

test('the URL follows tab switches (the last of quick ones), and a reload opens that view', async ({ page }) => {
  await page.goto('/?view=overview')
  await waitForDataset(page, 'Demo dataset')
  const view = () => new URL(page.url()).searchParams.get('view')
  for (const tab of ['Audit', 'Mixture', 'Batches']) await page.getByRole('tab', { name: tab }).click()
  await expect.poll(view).toBe('batches')
  await page.reload()
  await expect(page.getByRole('tab', { name: 'Batches' })).toHaveAttribute('aria-selected', 'true')
})
