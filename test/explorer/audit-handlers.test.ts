/** The explorer's audit kinds on the demo (fs source): known defects, config checks, resumable deep audit. */
import { describe, expect, test } from 'vitest'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Progress } from '../../src/engine/dataset/dataset.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { RequestKind, RequestMessage, Requests } from '../../src/engine/worker/protocol.ts'
import type { ConfigSpec } from '../../src/engine/pipeline/config/resolve.ts'

const demo = resolve(import.meta.dirname, '../../public/demo/version=0')
const defects = JSON.parse(readFileSync(resolve(demo, '../defects.json'), 'utf8')) as { id: string; kind: string }[]
const spec: ConfigSpec = { preset: 'ctc-finetune', recipe: null, overrides: { split: 'train' } }

async function demoHandler() {
  const source = await createFsSource(demo)
  const handle = createRequestHandler({ makeSource: () => source })
  let id = 1
  const call = <K extends RequestKind>(kind: K, params: Requests[K]['params'], options: { signal?: AbortSignal; onProgress?: (p: Progress) => void; onPartial?: (p: unknown) => void } = {}) =>
    handle({ kind, id: id++, ...params } as unknown as RequestMessage<K>, options) as Promise<Requests[K]['result']>
  const opened = await call('open', { source: { type: 'url', url: 'unused' } })
  return { call, dataset: opened.dataset }
}

const ids = (findings: { path: string; row: number | null; kind: string }[]) => new Set(findings.map((f) => `${f.kind} ${f.path}:${f.row}`))

describe('audit handlers', () => {
  test('footers: true answers the audit from the footers: the config findings, no row read, no row finding', async () => {
    const { call, dataset } = await demoHandler()
    const footers = await call('audit', { dataset, spec, deep: false, state: null, footers: true })
    const rows = await call('audit', { dataset, spec, deep: false, state: null })
    expect(footers.level).toBe('footers')
    expect(rows.level).toBe('rows')
    expect(footers.configFindings).toEqual(rows.configFindings)
    expect(footers.report.totals.rows).toBe(rows.report.totals.rows)
    expect(footers.report.findings.filter((f) => f.row !== null)).toEqual([])
    expect(rows.report.findings.filter((f) => f.row !== null).length).toBeGreaterThan(0)
    // with the audio check: the rows' report first (a partial, no audio read), the same with the audio check after
    const partials: Requests['audit']['result'][] = []
    const phases = new Set<string>()
    const checked = await call('audit', { dataset, spec, deep: false, state: null, quick: true }, {
      onPartial: (p) => partials.push(p as Requests['audit']['result']), onProgress: (p) => phases.add(p.phase),
    })
    expect(partials).toHaveLength(1)
    expect(partials[0].report.options.quick).toBe(false)
    expect(partials[0].report.totals.rows_audio_checked).toBe(0)
    expect(partials[0].report.findings).toEqual(rows.report.findings)
    expect(checked.report.options.quick).toBe(true)
    expect(checked.report.totals.rows_audio_checked).toBe(rows.report.totals.rows)
    expect(checked.report.findings.length).toBeGreaterThan(rows.report.findings.length)
    expect([...phases].sort()).toEqual(['audit', 'stats'])
  })

  test('metadata audit finds the demo defects that need no decoding; flagged JSONL lists their rows', async () => {
    const { call, dataset } = await demoHandler()
    const result = await call('audit', { dataset, spec, deep: false, state: null })
    const found = ids(result.report.findings)
    for (const d of defects.filter((x) => x.kind !== 'undecodable-audio')) expect(found).toContain(`${d.kind} ${d.id}`)
    expect(result.state).toBeNull()
    const flagged = result.flaggedJsonl.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)
    for (const d of defects.filter((x) => x.kind !== 'undecodable-audio')) expect(flagged).toContain(d.id)
    // config check on the dataset: the preset is fine here, reference defaults are not (example_shuffle_window 0)
    expect(result.configFindings.filter((f) => f.severity === 'error')).toEqual([])
    const defaults = await call('audit', { dataset, spec: { preset: null, recipe: null, overrides: {} }, deep: false, state: null })
    expect(defaults.configFindings.some((f) => f.severity === 'error')).toBe(true)
  })

  test('deep audit: cancel keeps a partial state, resuming reuses it and gives the full report', async () => {
    const { call, dataset } = await demoHandler()
    const full = await call('audit', { dataset, spec, deep: true, state: null })
    expect(ids(full.report.findings)).toContain(`undecodable-audio ${defects.find((d) => d.kind === 'undecodable-audio')!.id}`)
    const groups = Object.keys(full.state!.groups).length
    expect(groups).toBe(full.report.totals.row_groups)

    const other = await demoHandler()
    const controller = new AbortController()
    const run = other.call('audit', { dataset: other.dataset, spec, deep: true, state: null }, {
      signal: controller.signal,
      onProgress: (p) => { if (p.phase === 'deep' && p.done >= 20) controller.abort() },
    })
    await expect(run).rejects.toBeTruthy()
    const partial = await other.call('audit-state', { dataset: other.dataset })
    const kept = Object.keys(partial!.groups).length
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThan(groups)
    const resumed = await other.call('audit', { dataset: other.dataset, spec, deep: true, state: partial })
    expect(resumed.reusedGroups).toBe(kept)
    expect(resumed.report).toEqual(full.report)
  })
})
