/** Accessibility of the Overview (axe-core, WCAG 2.1 A/AA rules) in the light and the dark theme, at 1280×800. */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { waitForDataset } from './fixtures/overview-page.ts'

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the Overview has no axe violations (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme })
    await page.goto('/')
    await waitForDataset(page, 'Demo dataset')
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
    const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}× e.g. ${v.nodes[0]?.target.join(' ')})`)
    expect(summary).toEqual([])
  })
}
