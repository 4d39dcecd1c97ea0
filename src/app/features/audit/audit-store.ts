/**
 * The Audit store: the audit of the open dataset with the current config (run on open and on config change): first
 * the audit from the footers (reads nothing: shown at once), then the row pass (every row's `audio_size` and text)
 * in the background with its progress, stoppable, whose report replaces it; and the deep audit (every row decoded in
 * the worker) with progress, cancel and resume. A row pass still reading when a deep audit starts goes on and its
 * report is shown when it lands (the deep audit takes far longer); the deep audit's report replaces it and stops the
 * row pass if it is still reading; a later run (a config change the rows see) replaces the deep report in turn. The
 * deep audit's partial state is saved through `persistence` (IndexedDB in the app) while it runs and when it is
 * cancelled, so a cancel or a reload loses at most the row groups in flight.
 *
 * A config change reads the rows again only when it changes what the row checks read (`rowsKey`,
 * src/engine/audit/rows-config.ts): a beta step, or any key they do not read, asks the worker for the config's findings
 * alone (`audit-config`, no row read) once the config has stayed put for `configDelayMs`, and patches them into the
 * result shown (docs/architecture.md "What a config change recomputes").
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { Progress } from '../../../engine/dataset/dataset.ts'
import type { AuditState } from '../../../engine/audit/rows/types.ts'
import type { EngineClient } from '../../../engine/worker/client.ts'
import type { AuditResult, OpenedAuditResult } from '../../../engine/worker/protocol/audit.ts'
import type { ConfigSpec } from '../../../engine/pipeline/config/resolve.ts'
import type { Finding } from '../../../engine/core/findings.ts'

/** Where partial deep-audit states are kept, by dataset key. */
export interface AuditPersistence {
  load(key: string): Promise<AuditState | null>
  save(key: string, state: AuditState): Promise<void>
  clear(key: string): Promise<void>
}

export type DeepStatus = 'idle' | 'running' | 'cancelled' | 'done' | 'error'

export interface AuditStoreState {
  status: 'idle' | 'running' | 'ready' | 'error'
  /** The latest audit (metadata, or deep once a deep run finished). */
  result: AuditResult | null
  /** The dataset handle `result` is of (`null` with no result). */
  resultDataset: number | null
  error: string | null
  deepStatus: DeepStatus
  deepProgress: Progress | null
  /** Row groups in the saved partial state of this dataset (what a deep run resumes from). */
  savedGroups: number
  /** Row groups the last deep run took from the saved state. */
  reusedGroups: number | null
  /**
   * The row pass that follows the audit from the footers: `running` while it reads (its progress in `rowProgress`,
   * row groups read of all), `stopped` when the user stopped it (the footers' result stays), `done` once its report
   * replaced the footers'.
   */
  rowStatus: 'idle' | 'running' | 'stopped' | 'done' | 'error'
  rowProgress: Progress | null
  /** The cheap audio check of every row that follows each metadata audit (src/engine/audit/quick-audio.ts). */
  quickStatus: 'idle' | 'running' | 'stopped' | 'done' | 'error'
  /** Its progress (rows checked of all). */
  quickProgress: Progress | null
  /**
   * The saved result shown instead of an audit run here (a merged `_mixscope_audit.json` beside the dataset, or a
   * file picked), for dataset handle `dataset`; `null` when the result is this explorer's own run.
   */
  loaded: (Omit<OpenedAuditResult, keyof AuditResult> & { dataset: number }) | null
  /** Audits started here (`run`): the rows are read once per run, so a config change that keeps `rowsKey` leaves it. */
  runs: number
  /** Config changes answered with the config's findings alone (`audit-config`), the rows' result kept. */
  configRefreshes: number
}

export interface AuditActions {
  /**
   * The audit from the footers, cancelling any audit running; then the metadata audit (every row read, no decoding)
   * in the background, in one request with (unless told not to) the cheap audio check of every row: the metadata
   * report comes as its partial, the one with the audio check as its result (the worker keeps the check per dataset,
   * so a config change does not read the audio again).
   */
  run(dataset: number, spec: ConfigSpec, options?: { quick?: boolean }): Promise<void>
  /**
   * What the view calls on open and on config change: keeps a saved result already shown for `dataset`; on the
   * first call for a dataset shows `_mixscope_audit.json` from its root when there is one. With a result of this
   * dataset shown, waits `configDelayMs` of stillness (a newer call cancels this one), then asks `audit-config`: when
   * its `rowsKey` is the result's, only the config's findings are replaced; else (and with no result) `run`.
   */
  start(dataset: number, spec: ConfigSpec): Promise<void>
  /** Shows a saved audit result (`file`, or the one beside the dataset) without running anything; false when there is none. */
  openSaved(dataset: number, file: Blob | null): Promise<boolean>
  /** Stops the row pass or the audio check in flight; the result shown so far stays (`run` starts them again). */
  stop(): void
  /** Reads how much of a deep audit is saved for `key`. */
  refreshSaved(key: string): Promise<void>
  /** Deep audit, resuming from the state saved for `key`. */
  runDeep(dataset: number, spec: ConfigSpec, key: string): Promise<void>
  /** Cancels the deep audit; its partial state is saved. */
  cancelDeep(): Promise<void>
  /** Forgets the saved partial state for `key`. */
  clearSaved(key: string): Promise<void>
}

export type AuditStore = AuditStoreState & AuditActions

export const initialAuditState: AuditStoreState = {
  status: 'idle', result: null, resultDataset: null, error: null, deepStatus: 'idle', deepProgress: null, savedGroups: 0, reusedGroups: null,
  rowStatus: 'idle', rowProgress: null, quickStatus: 'idle', quickProgress: null, loaded: null, runs: 0, configRefreshes: 0,
}

/** Quiet time after a config change before the Audit asks for the config's findings, ms (a slider's steps come faster). */
export const configDelayMs = 150

/** Milliseconds between saves of the partial state while a deep audit runs. */
export const saveEveryMs = 1500

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))
const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError'

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => { clearTimeout(timer); reject(new DOMException('audit: superseded', 'AbortError')) }, { once: true })
  })
}

/** `result` with `configFindings` as its config's findings (the report's `config_findings` too). */
function withConfigFindings<R extends AuditResult>(result: R, configFindings: Finding[]): R {
  return { ...result, configFindings, report: { ...result.report, config_findings: configFindings } }
}

/** Creates the store over a worker client, a persistence and a clock (fakes in tests). */
export function createAuditStore(client: Pick<EngineClient, 'request'>, persistence: AuditPersistence, now: () => number = () => Date.now(),
  options: { configDelayMs?: number } = {}): StoreApi<AuditStore> {
  let running: AbortController | null = null
  let deep: { controller: AbortController; dataset: number; key: string } | null = null
  /** The config change waiting for its `audit-config` answer (a newer one aborts it). */
  let refreshing: AbortController | null = null
  /**
   * The latest config's findings, for results of the same dataset and `rowsKey` that land after them (a run or a deep
   * audit started before a beta step carries the findings of the betas it started with).
   */
  let latestConfig: { dataset: number; rowsKey: string; configFindings: Finding[] } | null = null
  const delay = options.configDelayMs ?? configDelayMs
  /** `result` with the latest config's findings when they are for its dataset and rows. */
  const current = <R extends AuditResult>(result: R, dataset: number): R =>
    latestConfig && latestConfig.dataset === dataset && latestConfig.rowsKey === result.rowsKey ? withConfigFindings(result, latestConfig.configFindings) : result

  async function saveState(dataset: number, key: string): Promise<number> {
    const state = await client.request('audit-state', { dataset })
    if (!state) return 0
    await persistence.save(key, state)
    return Object.keys(state.groups).length
  }

  const besideTried = new Set<number>()

  return createStore<AuditStore>()((set, get) => ({
    ...initialAuditState,

    async start(dataset, spec) {
      refreshing?.abort()
      refreshing = null
      if (get().loaded?.dataset === dataset) return
      if (!besideTried.has(dataset)) {
        besideTried.add(dataset)
        // a missing or unreadable file beside the dataset is no reason not to audit it
        if (await get().openSaved(dataset, null).catch(() => false)) return
      }
      if (get().result !== null && get().resultDataset === dataset) {
        const own = new AbortController()
        refreshing = own
        try {
          await wait(delay, own.signal)
          const answer = await client.request('audit-config', { dataset, spec }, { signal: own.signal })
          if (refreshing !== own) return
          refreshing = null
          const result = get().result
          if (result && get().resultDataset === dataset && result.rowsKey === answer.rowsKey && get().loaded === null) {
            // the rows see the same config: their result stays, the config's findings are the new config's
            latestConfig = { dataset, rowsKey: answer.rowsKey, configFindings: answer.configFindings }
            set((s) => ({ result: current(result, dataset), configRefreshes: s.configRefreshes + 1 }))
            return
          }
        } catch (error) {
          if (refreshing !== own || isAbort(error)) return
          refreshing = null
          // the run below says what is wrong
        }
      }
      await get().run(dataset, spec)
    },

    async openSaved(dataset, file) {
      const opened = await client.request('audit-open', { dataset, file }).catch((error: unknown) => {
        if (file) set({ error: message(error) })
        throw error
      })
      if (!opened) return false
      running?.abort()
      running = null
      const { name, origin, shards, mismatch, ...result } = opened
      set({ status: 'ready', result, resultDataset: dataset, error: null, rowStatus: 'idle', rowProgress: null, quickStatus: 'idle', quickProgress: null, loaded: { dataset, name, origin, shards, mismatch } })
      return true
    },

    async run(dataset, spec, options = {}) {
      running?.abort()
      const own = new AbortController()
      running = own
      // a newer run, or a deep audit that finished (it stops this pass), supersedes this one; while a deep audit runs
      // (hours at 10⁷ rows) this pass's report is the best there is, so it is shown when it lands
      const superseded = () => running !== own
      // this run's findings are the config's of now
      latestConfig = null
      // a finished deep audit's report is of the config it ran with: this run's replaces it
      set((s) => ({ status: 'running', error: null, loaded: null, rowStatus: 'idle', rowProgress: null, quickStatus: 'idle', quickProgress: null, runs: s.runs + 1,
        ...(s.deepStatus === 'done' ? { deepStatus: 'idle' as const, reusedGroups: null } : {}) }))
      try {
        // what the footers say, at once; the rows are read next, in the background
        const footers = await client.request('audit', { dataset, spec, deep: false, state: null, footers: true }, { signal: own.signal })
        if (superseded()) return
        set({ status: 'ready', result: current(footers, dataset), resultDataset: dataset, rowStatus: 'running' })
        // the rows' report comes as a partial once every row is read, then the audio check reads (its own progress)
        const quick = options.quick !== false
        const result = await client.request('audit', { dataset, spec, deep: false, state: null, quick }, {
          signal: own.signal,
          onProgress: (progress) => {
            if (running !== own) return
            if (progress.phase === 'audit') set({ quickProgress: progress })
            else set({ rowProgress: progress })
          },
          onPartial: (rows) => {
            if (superseded()) return
            set({ status: 'ready', result: current(rows, dataset), resultDataset: dataset, rowStatus: 'done', rowProgress: null, quickStatus: 'running', quickProgress: null })
          },
        })
        if (superseded()) return
        set({ status: 'ready', result: current(result, dataset), resultDataset: dataset, rowStatus: 'done', rowProgress: null, ...(quick ? { quickStatus: 'done', quickProgress: null } : {}) })
      } catch (error) {
        if (running !== own || isAbort(error)) return
        if (get().quickStatus === 'running') set({ quickStatus: 'error', error: message(error) })
        else if (get().rowStatus === 'running') set({ rowStatus: 'error', rowProgress: null, error: message(error) })
        else set({ status: 'error', error: message(error) })
      } finally {
        if (running === own) running = null
      }
    },

    stop() {
      const { rowStatus, quickStatus } = get()
      if (rowStatus !== 'running' && quickStatus !== 'running') return
      running?.abort()
      running = null
      if (rowStatus === 'running') set({ rowStatus: 'stopped', rowProgress: null })
      else set({ quickStatus: 'stopped', quickProgress: null })
    },

    async refreshSaved(key) {
      const state = await persistence.load(key).catch(() => null)
      set({ savedGroups: state ? Object.keys(state.groups).length : 0 })
    },

    async runDeep(dataset, spec, key) {
      if (deep) deep.controller.abort()
      const controller = new AbortController()
      deep = { controller, dataset, key }
      const saved = await persistence.load(key).catch(() => null)
      set({ deepStatus: 'running', deepProgress: null, reusedGroups: null, error: null, loaded: null, savedGroups: saved ? Object.keys(saved.groups).length : 0 })
      let lastSave = now()
      let saving: Promise<unknown> = Promise.resolve()
      try {
        const result = await client.request('audit', { dataset, spec, deep: true, state: saved }, {
          signal: controller.signal,
          onProgress: (progress) => {
            if (deep?.controller !== controller) return
            set({ deepProgress: progress })
            if (progress.phase === 'deep' && now() - lastSave >= saveEveryMs) {
              lastSave = now()
              saving = saving.then(() => saveState(dataset, key)).then((n) => set({ savedGroups: n }), () => undefined)
            }
          },
        })
        await saving
        if (deep?.controller !== controller) return
        if (result.state) await persistence.save(key, result.state)
        deep = null
        // its report holds everything the row pass still reading would report: that pass stops, its line goes
        running?.abort()
        running = null
        set({ deepStatus: 'done', rowStatus: 'idle', rowProgress: null, quickStatus: 'idle', quickProgress: null, result: current(result, dataset), resultDataset: dataset, status: 'ready', reusedGroups: result.reusedGroups, savedGroups: result.state ? Object.keys(result.state.groups).length : 0 })
      } catch (error) {
        if (deep?.controller !== controller) return
        deep = null
        if (isAbort(error)) return // cancelDeep saves and sets the status
        set({ deepStatus: 'error', error: message(error) })
      }
    },

    async cancelDeep() {
      const current = deep
      if (!current) return
      deep = null
      current.controller.abort()
      // status and count change together: "Cancelled; N row groups are saved" never shows the count of the last
      // periodic save (0 when cancelled within the first save interval)
      const groups = await saveState(current.dataset, current.key).catch(() => 0)
      set({ deepStatus: 'cancelled', savedGroups: groups })
    },

    async clearSaved(key) {
      await persistence.clear(key)
      set({ savedGroups: 0 })
    },
  }))
}
