/** GPU vs CPU feature parity inside Chromium (WebGPU on SwiftShader here): every op within its tolerance. */
import { expect, test } from '@playwright/test'
import type { DspParityReport } from './harness/dsp.harness.ts'

test('feature ops agree between WebGPU and the CPU reference in the browser', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/e2e/harness/index.html')
  await page.waitForFunction(() => (window as unknown as { mixscopeHarnessReady?: boolean }).mixscopeHarnessReady === true)
  const report = await page.evaluate(() => {
    const h = (window as unknown as { mixscopeHarness: { dspGpuVsCpu: (s: number) => Promise<DspParityReport> } }).mixscopeHarness
    return h.dspGpuVsCpu(1.5)
  })
  test.skip(report.unavailable !== null && process.env.CI !== 'true', `no WebGPU adapter: ${report.unavailable}`)
  expect(report.unavailable, 'CI=true needs WebGPU in Chromium').toBeNull()
  console.log(`dsp parity on ${report.adapter}: ${JSON.stringify(report)}`)
  expect(report.submissionsPerBatch).toBe(1)
  // fbank: max |GPU − CPU| ≤ 1e-4 over every value, quiet mel bins included (both follow knf's float32 order of
  // operations; the GPU's FFT is float-float). A float32 FFT gives ~1e-2 on the tone.
  expect(report.fbank).toBeLessThanOrEqual(1e-4)
  expect(report.fbankTone).toBeLessThanOrEqual(1e-4)
  expect(report.standardize).toBeLessThanOrEqual(2e-3)
  expect(report.bf16Identical).toBe(true)
  expect(report.normalize).toBeLessThanOrEqual(1e-5)
  expect(report.masksIdentical).toBe(true)
  expect(report.specAugment).toBeLessThanOrEqual(1e-5)
  expect(report.spectrogramDb).toBeLessThanOrEqual(0.01)
  expect(report.fft512).toBeLessThanOrEqual(1e-5)
  expect(report.fft400).toBeLessThanOrEqual(1e-5)
  expect(report.gpuErrors).toEqual([])
})
