/** Batch planning in Chromium equals the CLI's `batches --jsonl`, byte for byte, for the same config. */
import { expect, test } from '@playwright/test'
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from './fixtures/paths.ts'

function cliJsonl(configPath: string, split: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('npx', ['--offline', 'mixscope', 'batches', 'public/demo/version=0', '--config', configPath, '--split', split, '--jsonl'],
      { cwd: repoRoot, timeout: 60_000, maxBuffer: 64 << 20 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)))
  })
}

const configs: Record<string, unknown>[] = [
  // training: TSV mixture of 17 partitions, rank 1 of 2, example and batch shuffles on
  { split: 'train', rank: 1, world_size: 2, beta_corpus: 0.5, beta_language: 0.5, min_audio_len: 32000, max_audio_len: 960000,
    max_num_elements: 960000, example_shuffle_window: 5, batch_shuffle_window: 3, seed: 7, max_num_batches: 12 },
  // evaluation: one pass, partition_filters applied to eval too, STATIC batches
  { split: 'dev', sync_mode: 'UNTIL_LAST', example_shuffle_window: 1, batch_shuffle_window: 1, batching_strategy: 'STATIC', batch_size: 3,
    min_audio_len: 1, 'fragment_streaming.partition_filters': '[("corpus", "in", ["mls", "fleurs"])]' },
]

let dir: string
test.beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'mixscope-e2e-plan-')) })
test.afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

for (const [i, config] of configs.entries()) {
  test(`browser plan of the demo equals the CLI's batches --jsonl (${config.split})`, async ({ page }) => {
    const json = JSON.stringify(config)
    const path = join(dir, `config-${i}.json`)
    await writeFile(path, json)
    const expected = await cliJsonl(path, config.split as string)
    expect(expected.split('\n').length).toBeGreaterThan(3)
    await page.goto('/e2e/harness/index.html')
    await page.waitForFunction(() => (globalThis as unknown as { mixscopeHarnessReady?: boolean }).mixscopeHarnessReady === true)
    const got = await page.evaluate((text) => (globalThis as unknown as { mixscopeHarness: { planDemoJsonl: (t: string) => Promise<string> } }).mixscopeHarness.planDemoJsonl(text), json)
    expect(got).toBe(expected)
  })
}
