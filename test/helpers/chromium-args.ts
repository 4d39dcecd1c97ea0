/**
 * Command-line flags for the Debian Chromium that e2e tests and benchmarks launch.
 *
 * Chromium 156 in headless mode loads the address bar's popup as two hidden WebUI pages
 * (`chrome://omnibox-popup.top-chrome/`, one for "AI mode") whose renderer keeps running: measured on the 2-core
 * machine, 0.66 s of CPU in 5 s of an idle `data:` page (13 % of a core), besides what it costs the browser
 * process. A desktop browser has the same pages, hidden and idle; here they are a background load that every
 * timing shares, the page's long tasks included. Disabling the three features removes both pages.
 *
 * Chromium keeps the last `--disable-features` it is given, so the flag repeats the features Playwright 1.65
 * disables itself (its `chromiumSwitches.ts`); leaving them out would turn e.g. `PaintHolding` back on.
 */

/** Features Playwright 1.65 disables (chromiumSwitches.ts), which a second `--disable-features` must repeat. */
const playwrightDisabledFeatures = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
]

/** The address bar's popup pages (WebUI renderers that run in the background of a headless browser). */
const omniboxPopupFeatures = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup']

/** `--no-sandbox` (root in a container), the `--disable-features` above, then `extra`. */
export function chromiumArgs(extra: string[] = []): string[] {
  return ['--no-sandbox', `--disable-features=${[...playwrightDisabledFeatures, ...omniboxPopupFeatures].join(',')}`, ...extra]
}
