/**
 * Playwright e2e: Debian's Chromium against `vite preview` of the production build (`npm run test:e2e` builds
 * first), so the CSP and the bundled worker are what users get. WebGPU is enabled (SwiftShader) for the
 * harness specs; the Overview specs do not need it.
 */
import { defineConfig, devices } from '@playwright/test'
import { chromiumArgs } from './test/helpers/chromium-args.ts'

const ci = Boolean(process.env.CI)
/** `E2E_PORT` moves the preview server (two runs on one machine); the specs read it through e2e/fixtures/paths.ts. */
const port = Number(process.env.E2E_PORT ?? 4173)

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results',
  forbidOnly: ci,
  retries: ci ? 1 : 0,
  // the machines are small and shared: a single worker keeps timings honest
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: ci ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs(['--enable-unsafe-webgpu']) },
      },
    },
  ],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !ci,
    timeout: 60_000,
  },
})
