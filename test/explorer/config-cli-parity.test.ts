/**
 * One config resolver for the explorer and the CLI: the same preset + recipe + overrides give the same batches
 * (`plan-start`/`plan-export` vs `mixscope batches --jsonl`), the same weights (`mixture` vs `mixscope weights --json`),
 * the same audit (`audit` vs `mixscope audit --json`) and the same refusal (`config-resolve` findings vs the CLI's
 * stderr and exit 2), on the demo through the fs source.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { runAudit } from '../../src/cli/commands/audit.ts'
import { runBatches } from '../../src/cli/commands/batches.ts'
import { runWeights } from '../../src/cli/commands/weights.ts'
import { formatJson, type CliIo } from '../../src/cli/lib/io.ts'
import { main } from '../../src/cli/main.ts'
import type { ConfigSpec } from '../../src/engine/pipeline/config/resolve.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { RequestKind, RequestMessage, Requests } from '../../src/engine/worker/protocol.ts'

const demo = resolve(import.meta.dirname, '../../public/demo/version=0')
const dir = await mkdtemp(join(tmpdir(), 'mixscope-config-parity-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

const source = await createFsSource(demo)
const handle = createRequestHandler({ makeSource: () => source })
let nextId = 1
const call = <K extends RequestKind>(kind: K, params: Requests[K]['params']) =>
  handle({ kind, id: nextId++, ...params } as unknown as RequestMessage<K>, {}) as Promise<Requests[K]['result']>
const { dataset } = await call('open', { source: { type: 'url', url: 'unused' } })

async function cli(run: (argv: string[], io: CliIo) => Promise<number>, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = ''
  const code = await run(argv, { stdout: (t) => { stdout += t }, stderr: (t) => { stderr += t } })
  return { code, stdout, stderr }
}

// a flat recipe on top of a preset (the CLI refused --preset with --config before; the explorer layered them)
const recipeText = 'example_shuffle_window: 50\nmax_audio_len: 480_000\nmax_num_elements: 1_920_000\nbeta_corpus: 0.7\n'
const recipePath = join(dir, 'recipe.yaml')
await writeFile(recipePath, recipeText)
const spec: ConfigSpec = {
  preset: 'ctc-finetune', recipe: { name: recipePath, text: recipeText },
  overrides: [['seed', 11], ['beta_language', 0.3], ['split', 'train']],
}
const configArgs = ['--preset', 'ctc-finetune', '--config', recipePath, '--set', 'seed=11', '--set', 'beta_language=0.3']

describe('the CLI and the worker resolve a config the same way', () => {
  test('batches: preset + recipe + --set give the same JSONL as plan-export', async () => {
    const start = await call('plan-start', { dataset, spec, maxBatches: 6 })
    expect(start.config).toMatchObject({ seed: 11, example_shuffle_window: 50, max_audio_len: 480_000, beta_corpus: 0.7, beta_language: 0.3, min_audio_len: 32_000 })
    for (;;) if ((await call('plan-next', { session: start.session, count: 6 })).done) break
    const worker = new TextDecoder().decode(await call('plan-export', { session: start.session, format: 'jsonl' }))
    const r = await cli(runBatches, [demo, '--split', 'train', ...configArgs, '--max-batches', '6', '--jsonl'])
    expect(r.code).toBe(0)
    expect(worker.trim().split('\n')).toHaveLength(6)
    expect(r.stdout).toBe(worker)
  })

  test('weights: the same rows as the mixture view', async () => {
    const mixture = await call('mixture', { dataset, spec, draws: 0, steps: 1 })
    const r = await cli(runWeights, [demo, ...configArgs, '--json'])
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout) as { weights: Record<string, unknown>[] }
    const keys = Object.keys(report.weights[0])
    expect(report.weights).toEqual(JSON.parse(JSON.stringify(mixture.rows.map((row) => Object.fromEntries(keys.map((k) => [k, row[k as keyof typeof row]]))))))
    // betas 0.7 / 0.3 differ from the bare command's 0.5 / 0.5
    const bare = JSON.parse((await cli(runWeights, [demo, '--json'])).stdout) as { weights: { weight: number }[] }
    expect(bare.weights.map((w) => w.weight)).not.toEqual(report.weights.map((w) => w.weight))
  })

  test('audit: the same report as the Audit view (with its cheap audio check by default, and without)', async () => {
    const checked = await call('audit', { dataset, spec, deep: false, state: null, quick: true })
    const r = await cli(runAudit, [demo, ...configArgs, '--set', 'split=train', '--json'])
    expect(r.code).toBe(checked.report.findings.some((f) => f.severity === 'error') ? 1 : 0)
    expect(r.stdout).toBe(formatJson(checked.report))
    // the demo's planted undecodable row is found without --deep
    expect(checked.report.findings.some((f) => f.kind === 'undecodable-audio')).toBe(true)
    const metadata = await call('audit', { dataset, spec, deep: false, state: null })
    const m = await cli(runAudit, [demo, ...configArgs, '--set', 'split=train', '--json', '--no-audio-check'])
    expect(m.stdout).toBe(formatJson(metadata.report))
    expect(m.stdout).not.toBe(r.stdout)
  })

  test('config errors: the same findings; the worker refuses to plan, every CLI command exits 2', async () => {
    const bad: ConfigSpec = { preset: 'no-such-preset', recipe: null, overrides: [['max_audio_len', 'long']] }
    const resolved = await call('config-resolve', { spec: bad })
    const errors = resolved.findings.filter((f) => f.severity === 'error')
    expect(errors.map((f) => f.kind).sort()).toEqual(['config-preset-unknown', 'config-value-invalid'])
    await expect(call('plan-start', { dataset, spec: bad, maxBatches: 1 })).rejects.toMatchObject({ kind: 'plan-refused' })
    const badArgs = ['--preset', 'no-such-preset', '--set', 'max_audio_len=long']
    for (const argv of [['batches', demo, '--split', 'train', ...badArgs], ['weights', demo, ...badArgs], ['audit', demo, ...badArgs]]) {
      let stderr = ''
      const code = await main(argv, { stdout: () => undefined, stderr: (t) => { stderr += t } })
      expect(code, argv.join(' ')).toBe(2)
      for (const f of errors) expect(stderr, argv[0]).toContain(`error: ${f.kind}: ${f.message}`)
    }
  })
})
