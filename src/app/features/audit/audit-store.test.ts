import { describe, expect, test } from 'vitest'
import type { AuditState } from '../../../engine/audit/rows/types.ts'
import type { Progress } from '../../../engine/dataset/dataset.ts'
import type { RequestOptions } from '../../../engine/worker/client.ts'
import type { Requests } from '../../../engine/worker/protocol.ts'
import { auditRowsKey, finding, resolveConfig } from '../../../engine/index.ts'
import { createAuditStore, saveEveryMs, type AuditPersistence } from './audit-store.ts'
import { configSpec, initialConfigState } from '../../stores/config-store.ts'
import { filterFindings, groupByKind, joinFindings, partitionOf, sortFindingsBy } from './audit-findings.ts'

const spec = { preset: null, recipe: null, overrides: {} }
const state = (groups: string[]): AuditState => ({ format: 'mixscope-audit-state', version: 1, fingerprint: 'f', groups: Object.fromEntries(groups.map((g) => [g, []])) })

function memoryPersistence(): AuditPersistence & { data: Map<string, AuditState> } {
  const data = new Map<string, AuditState>()
  return { data, load: async (k) => data.get(k) ?? null, save: async (k, s) => { data.set(k, structuredClone(s)) }, clear: async (k) => { data.delete(k) } }
}

describe('audit store', () => {
  test('deep audit: saves while running, cancel saves the worker state, the next run resumes from it', async () => {
    const persistence = memoryPersistence()
    let workerState = state([])
    const deepCalls: (AuditState | null)[] = []
    let finish: ((v: unknown) => void) | null = null
    let progress: ((p: Progress) => void) | undefined
    const client = {
      request: async <K extends keyof Requests>(kind: K, params: Requests[K]['params'], options: RequestOptions = {}): Promise<Requests[K]['result']> => {
        if (kind === 'audit-state') return structuredClone(workerState) as Requests[K]['result']
        const p = params as Requests['audit']['params']
        deepCalls.push(p.state)
        progress = options.onProgress
        return new Promise((resolve, reject) => {
          finish = resolve as (v: unknown) => void
          options.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
        })
      },
    }
    let clock = 0
    const store = createAuditStore(client, persistence, () => clock)
    const run = store.getState().runDeep(1, spec, 'k')
    await new Promise((r) => setTimeout(r, 0))
    expect(store.getState().deepStatus).toBe('running')
    workerState = state(['a#0', 'a#1'])
    clock += saveEveryMs
    progress?.({ phase: 'deep', done: 2, total: 10, requests: 0, bytes: 0 })
    await new Promise((r) => setTimeout(r, 0))
    expect(Object.keys(persistence.data.get('k')!.groups)).toEqual(['a#0', 'a#1'])
    workerState = state(['a#0', 'a#1', 'b#0'])
    await store.getState().cancelDeep()
    await run
    expect(store.getState()).toMatchObject({ deepStatus: 'cancelled', savedGroups: 3 })

    const again = store.getState().runDeep(1, spec, 'k')
    await new Promise((r) => setTimeout(r, 0))
    expect(Object.keys(deepCalls[1]!.groups)).toEqual(['a#0', 'a#1', 'b#0'])
    const done = state(['a#0', 'a#1', 'b#0', 'b#1'])
    finish!({ report: { findings: [] }, configFindings: [], flaggedJsonl: '', state: done, reusedGroups: 3 })
    await again
    expect(store.getState()).toMatchObject({ deepStatus: 'done', reusedGroups: 3, savedGroups: 4, status: 'ready' })
    expect(Object.keys(persistence.data.get('k')!.groups)).toHaveLength(4)
    await store.getState().clearSaved('k')
    expect(persistence.data.has('k')).toBe(false)
  })

  test('a saved result beside the dataset is shown instead of running, kept on config change, replaced by "Audit here"', async () => {
    const calls: string[] = []
    let beside = true
    const saved = { report: { findings: [], options: { deep: true } }, configFindings: [], flaggedJsonl: '', state: null, reusedGroups: 0, name: '_mixscope_audit.json', origin: 'beside', shards: 4, mismatch: null }
    const client = {
      request: async <K extends keyof Requests>(kind: K, params: Requests[K]['params']): Promise<Requests[K]['result']> => {
        const a = params as Requests['audit']['params']
        calls.push(kind === 'audit' ? `audit${a.footers ? ' footers' : a.quick ? ' quick' : ''}` : `${kind}${(params as Requests['audit-open']['params']).file ? ' file' : ''}`)
        if (kind === 'audit-open') return (beside || (params as Requests['audit-open']['params']).file ? saved : null) as Requests[K]['result']
        const rowsKey = JSON.stringify(a.spec.preset)
        if (kind === 'audit-config') return { configFindings: [], rowsKey } as Requests[K]['result']
        return { report: { findings: [], options: { deep: false } }, configFindings: [], flaggedJsonl: '', state: null, reusedGroups: 0, rowsKey } as unknown as Requests[K]['result']
      },
    }
    const store = createAuditStore(client, memoryPersistence(), undefined, { configDelayMs: 0 })
    await store.getState().start(1, spec)
    expect(calls).toEqual(['audit-open'])
    expect(store.getState()).toMatchObject({ status: 'ready', loaded: { dataset: 1, origin: 'beside', shards: 4 } })
    await store.getState().start(1, { ...spec, preset: 'ctc-finetune' })
    expect(calls).toEqual(['audit-open'])
    await store.getState().run(1, spec)
    expect(calls).toEqual(['audit-open', 'audit footers', 'audit quick'])
    expect(store.getState().loaded).toBeNull()
    // looked for once per dataset: a config change then audits; another dataset without one audits at once
    await store.getState().start(1, { ...spec, preset: 'ctc-finetune' })
    expect(calls.slice(3)).toEqual(['audit-config', 'audit footers', 'audit quick'])
    beside = false
    await store.getState().start(2, spec)
    expect(calls.slice(6)).toEqual(['audit-open', 'audit footers', 'audit quick'])
    expect(await store.getState().openSaved(2, new Blob(['{}']))).toBe(true)
    expect(calls.at(-1)).toBe('audit-open file')
    expect(store.getState().loaded).toMatchObject({ dataset: 2 })
  })

  test('the footers\' audit is shown at once; the row pass reports progress, can be stopped, and its report replaces it', async () => {
    const footers = { report: { findings: [], options: { deep: false } }, configFindings: [], flaggedJsonl: '', state: null, reusedGroups: 0, level: 'footers' }
    const rows = { ...footers, level: 'rows' }
    const checked = { ...rows, report: { findings: [], options: { deep: false, quick: true } } }
    let progress: ((p: Progress) => void) | undefined
    let partial: ((p: unknown) => void) | undefined
    let finishRows: ((v: unknown) => void) | null = null
    const client = {
      request: async <K extends keyof Requests>(kind: K, params: Requests[K]['params'], options: RequestOptions<never> = {}): Promise<Requests[K]['result']> => {
        const a = params as Requests['audit']['params']
        if (a.footers) return footers as unknown as Requests[K]['result']
        progress = options.onProgress
        partial = options.onPartial as ((p: unknown) => void) | undefined
        return new Promise((resolve, reject) => {
          finishRows = resolve as (v: unknown) => void
          options.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
        })
      },
    }
    const store = createAuditStore(client, memoryPersistence())
    let run = store.getState().run(1, spec)
    await new Promise((r) => setTimeout(r, 0))
    expect(store.getState()).toMatchObject({ status: 'ready', rowStatus: 'running', result: { level: 'footers' } })
    progress?.({ phase: 'stats', done: 3, total: 10, requests: 0, bytes: 0 })
    expect(store.getState().rowProgress).toMatchObject({ done: 3, total: 10 })
    expect(store.getState().quickProgress).toBeNull()
    store.getState().stop()
    await run
    expect(store.getState()).toMatchObject({ status: 'ready', rowStatus: 'stopped', rowProgress: null, result: { level: 'footers' }, error: null })
    // run again: the rows' report (a partial) replaces the footers' while the audio check reads, then its result
    run = store.getState().run(1, spec)
    await new Promise((r) => setTimeout(r, 0))
    partial!(rows)
    expect(store.getState()).toMatchObject({ rowStatus: 'done', quickStatus: 'running', result: { level: 'rows' } })
    progress?.({ phase: 'audit', done: 4, total: 10, requests: 0, bytes: 0 })
    expect(store.getState().quickProgress).toMatchObject({ done: 4 })
    finishRows!(checked)
    await run
    expect(store.getState()).toMatchObject({ rowStatus: 'done', quickStatus: 'done', result: checked })
  })

  test('a row pass that lands while a deep audit runs is shown; the deep report replaces it and stops a pass still reading; a new run replaces the deep report', async () => {
    const footers = { report: { findings: [], options: { deep: false } }, configFindings: [], flaggedJsonl: '', state: null, reusedGroups: 0, level: 'footers' }
    const rows = { ...footers, level: 'rows' }
    const deepResult = { ...rows, report: { findings: [], options: { deep: true } }, state: state(['a#0']), reusedGroups: 0 }
    const pending = { rows: [] as ((v: unknown) => void)[], deep: [] as ((v: unknown) => void)[] }
    const aborted = { rows: 0, deep: 0 }
    const client = {
      request: async <K extends keyof Requests>(kind: K, params: Requests[K]['params'], options: RequestOptions<never> = {}): Promise<Requests[K]['result']> => {
        if (kind === 'audit-state') return state(['a#0']) as Requests[K]['result']
        const a = params as Requests['audit']['params']
        if (a.footers) return footers as unknown as Requests[K]['result']
        const which = a.deep ? 'deep' : 'rows'
        return new Promise((resolve, reject) => {
          pending[which].push(resolve as (v: unknown) => void)
          options.signal?.addEventListener('abort', () => { aborted[which]++; reject(new DOMException('aborted', 'AbortError')) })
        })
      },
    }
    const tick = () => new Promise((r) => setTimeout(r, 0))
    const store = createAuditStore(client, memoryPersistence())
    // the row pass reads; a deep audit starts beside it; the row pass's report lands first and is shown
    let run = store.getState().run(1, spec, { quick: false })
    await tick()
    let deep = store.getState().runDeep(1, spec, 'k')
    await tick()
    expect(store.getState()).toMatchObject({ rowStatus: 'running', deepStatus: 'running', result: { level: 'footers' } })
    pending.rows[0]!(rows)
    await run
    expect(store.getState()).toMatchObject({ rowStatus: 'done', deepStatus: 'running', result: { level: 'rows' } })
    pending.deep[0]!(deepResult)
    await deep
    expect(store.getState()).toMatchObject({ deepStatus: 'done', result: { report: { options: { deep: true } } } })

    // a config change the rows see runs again: its report replaces the deep one (which was of the old config)
    run = store.getState().run(1, spec, { quick: false })
    await tick()
    expect(store.getState()).toMatchObject({ deepStatus: 'idle', rowStatus: 'running', result: { level: 'footers' } })
    // a deep audit that finishes while the row pass still reads stops it and takes its place
    deep = store.getState().runDeep(1, spec, 'k')
    await tick()
    pending.deep[1]!(deepResult)
    await deep
    await run
    expect(aborted.rows).toBe(1)
    expect(store.getState()).toMatchObject({ deepStatus: 'done', rowStatus: 'idle', rowProgress: null, result: { report: { options: { deep: true } } } })
    // the stopped pass's report, were it to land late, is not shown
    pending.rows[1]!(rows)
    await tick()
    expect(store.getState().result).toMatchObject({ report: { options: { deep: true } } })
  })

  test('a beta step keeps the rows\' result and replaces only the config\'s findings; max_audio_len audits again', async () => {
    // the worker's answers, keyed as the worker keys them: auditRowsKey of the resolved config (rows-config.ts)
    const calls: string[] = []
    const betasOf = (spec: Requests['audit']['params']['spec']) => { const c = resolveConfig(spec).config; return `${c.beta_corpus}/${c.beta_language}` }
    const client = {
      request: async <K extends keyof Requests>(kind: K, params: Requests[K]['params'], options: RequestOptions<never> = {}): Promise<Requests[K]['result']> => {
        const a = params as Requests['audit']['params']
        if (options.signal?.aborted) throw new DOMException('aborted', 'AbortError')
        calls.push(kind === 'audit' ? `audit${a.footers ? ' footers' : ''}` : kind)
        const rowsKey = auditRowsKey(resolveConfig(a.spec).config)
        const configFindings = [finding('info', 'mixture-sampling-range', '', `betas ${betasOf(a.spec)}`)]
        if (kind === 'audit-open') return null as Requests[K]['result']
        if (kind === 'audit-config') return { configFindings, rowsKey } as Requests[K]['result']
        return { report: { findings: [], options: { deep: false }, config_findings: configFindings }, configFindings, flaggedJsonl: '', state: null, reusedGroups: 0, level: a.footers ? 'footers' : 'rows', rowsKey } as unknown as Requests[K]['result']
      },
    }
    const store = createAuditStore(client, memoryPersistence(), undefined, { configDelayMs: 5 })
    const config = { ...initialConfigState, betaCorpus: 0.5, betaLanguage: 0.5 }
    await store.getState().start(1, configSpec(config))
    expect(calls).toEqual(['audit-open', 'audit footers', 'audit'])
    const rows = store.getState().result!
    expect(store.getState()).toMatchObject({ runs: 1, configRefreshes: 0 })
    // three quick slider steps: the first two are cancelled by the next (debounced), the last asks audit-config once
    calls.length = 0
    const steps = [0.51, 0.52, 0.53].map((b) => store.getState().start(1, configSpec({ ...config, betaLanguage: b })))
    await Promise.all(steps)
    expect(calls).toEqual(['audit-config'])
    expect(store.getState()).toMatchObject({ runs: 1, configRefreshes: 1, status: 'ready' })
    const after = store.getState().result!
    expect(after.report.findings).toBe(rows.report.findings)
    expect(after.configFindings.map((f) => f.message)).toEqual(['betas 0.5/0.53'])
    expect(after.report.config_findings).toEqual(after.configFindings)
    // max_audio_len is read by the rows: audited again, with that config's findings
    calls.length = 0
    await store.getState().start(1, configSpec({ ...config, betaLanguage: 0.53, fields: { max_audio_len: 100_000 } }))
    expect(calls).toEqual(['audit-config', 'audit footers', 'audit'])
    expect(store.getState()).toMatchObject({ runs: 2, configRefreshes: 1 })
    expect(store.getState().result!.rowsKey).not.toBe(after.rowsKey)
  })

  test('findings: joined without duplicates, grouped errors first, filtered and sorted', () => {
    const a = finding('warning', 'empty-text', 'c=x/l=y/p.parquet', 'empty', { row: 1, row_group: 0 })
    const b = finding('error', 'undecodable-audio', 'c=x/l=y/p.parquet', 'bad flac', { row: 3, row_group: 0 })
    const c = finding('error', 'config-x', '', 'window 0')
    const all = joinFindings([['validation', [a]], ['config', [c]], ['audit', [a, b]]])
    expect(all).toHaveLength(3)
    expect(all.find((f) => f.kind === 'empty-text')?.source).toBe('validation')
    expect(groupByKind(all).map((g) => `${g.severity} ${g.kind}`)).toEqual(['error config-x', 'error undecodable-audio', 'warning empty-text'])
    expect(filterFindings(all, new Set(['empty-text']), '').map((f) => f.kind)).toEqual(['empty-text'])
    expect(filterFindings(all, new Set(), 'FLAC').map((f) => f.kind)).toEqual(['undecodable-audio'])
    expect(sortFindingsBy(all, 'where', true).map((f) => f.kind)).toEqual(['undecodable-audio', 'empty-text', 'config-x'])
    expect(partitionOf('corpus=a/split=b/language=c/part-0.parquet')).toBe('corpus=a/split=b/language=c')
  })
})
