// Engine entry points exposed to Playwright tests (page.evaluate): every `*.harness.ts` file beside this one
// adds its functions to `window.mixscopeHarness` (audio.harness.ts, dsp.harness.ts, ...).
const harness: Record<string, unknown> = {}
;(globalThis as unknown as { mixscopeHarness: typeof harness }).mixscopeHarness = harness
const modules = import.meta.glob<{ register: (h: Record<string, unknown>) => void }>('./*.harness.ts', { eager: true })
for (const name of Object.keys(modules).sort()) modules[name].register(harness)
;(globalThis as unknown as { mixscopeHarnessReady: boolean }).mixscopeHarnessReady = true
