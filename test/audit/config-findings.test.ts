/**
 * The audit with its config checks is one engine function (`auditWithConfig`, src/engine/audit/configured.ts): the
 * explorer's `audit` kind and `mixscope audit --json` give the same config findings on the demo with the
 * `ctc-finetune` preset (the 100-epoch replay and the warm-up row are warnings there), in the report's
 * `config_findings`; the text output and the Markdown report list them too.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.ts'
import type { AuditReport } from '../../src/engine/audit/rows/types.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { RequestKind, RequestMessage, Requests } from '../../src/engine/worker/protocol.ts'

const demo = resolve(import.meta.dirname, '../../public/demo/version=0')
const dir = await mkdtemp(join(tmpdir(), 'mixscope-audit-config-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

const source = await createFsSource(demo)
const handle = createRequestHandler({ makeSource: () => source })
let nextId = 1
const call = <K extends RequestKind>(kind: K, params: Requests[K]['params']) =>
  handle({ kind, id: nextId++, ...params } as unknown as RequestMessage<K>, {}) as Promise<Requests[K]['result']>

async function cli(...argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = ''
  const code = await main(argv, { stdout: (t) => { stdout += t }, stderr: () => undefined })
  return { code, stdout }
}

const shape = (findings: AuditReport['config_findings']) => findings.map(({ kind, severity, path, row, message }) => ({ kind, severity, path, row, message }))

describe('the audit\'s config findings: explorer and CLI', () => {
  test('mixscope audit --preset ctc-finetune --json has the Audit view\'s config findings', async () => {
    const { dataset } = await call('open', { source: { type: 'url', url: 'unused' } })
    const explorer = await call('audit', { dataset, spec: { preset: 'ctc-finetune', recipe: null, overrides: [] }, deep: false, state: null, quick: true })
    const md = join(dir, 'report.md')
    const r = await cli('audit', demo, '--preset', 'ctc-finetune', '--json', '--report', md)
    const report = JSON.parse(r.stdout) as AuditReport
    expect(shape(report.config_findings)).toEqual(shape(explorer.configFindings))
    expect(report.config_findings.map((f) => f.kind)).toEqual(expect.arrayContaining(['fragment-epoch-replay', 'warmup-row-dropped']))
    expect(report.config_findings.find((f) => f.kind === 'warmup-row-dropped')).toMatchObject({ severity: 'warning', path: '' })
    // the explorer's result is the report itself; the data's findings are the same too
    expect(explorer.configFindings).toEqual(explorer.report.config_findings)
    expect(shape(report.findings)).toEqual(shape(explorer.report.findings))
    expect(await readFile(md, 'utf8')).toMatch(/## Config on this dataset\n\n(- .*\n)*- warning: `warmup-row-dropped` /)
    const text = await cli('audit', demo, '--preset', 'ctc-finetune')
    expect(text.stdout).toMatch(/^config: warning: fragment-epoch-replay: training streams precompute 100 epochs/m)
    expect(text.code).toBe(r.code)
  })

  test('a config the training refuses on this dataset is an error finding: exit 1', async () => {
    const { dataset } = await call('open', { source: { type: 'url', url: 'unused' } })
    // the reference defaults (example_shuffle_window 0, no mixture betas beside a stats TSV) are refused on the demo
    const explorer = await call('audit', { dataset, spec: { preset: null, recipe: null, overrides: [['example_shuffle_window', 0]] }, deep: false, state: null })
    const errors = explorer.configFindings.filter((f) => f.severity === 'error')
    expect(errors.length).toBeGreaterThan(0)
    const r = await cli('audit', demo, '--no-audio-check', '--json', '--set', 'example_shuffle_window=0')
    const report = JSON.parse(r.stdout) as AuditReport
    expect(shape(report.config_findings)).toEqual(shape(explorer.configFindings))
    expect(report.findings.some((f) => f.severity === 'error')).toBe(false)
    expect(r.code).toBe(1)
  })

  test('without --preset, --config or --set there is no training config: the audit says so and checks none', async () => {
    const r = await cli('audit', demo, '--no-audio-check', '--json')
    const report = JSON.parse(r.stdout) as AuditReport
    expect(report.config_findings.map((f) => [f.kind, f.severity])).toEqual([['no-training-config', 'info']])
    expect(r.code).toBe(0)
  })
})
