// Engine entry points exposed to Playwright tests (page.evaluate). Each helper module registers itself here.
const harness: Record<string, unknown> = {}
;(globalThis as unknown as { mixscopeHarness: typeof harness }).mixscopeHarness = harness
export default harness
