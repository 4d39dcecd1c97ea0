/**
 * The Prepare view's state: the input picked, the options, what the engine recognized (the scan), and the run
 * (progress, paused, done, cancelled). Talks to the engine only through the worker client.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { EngineClient } from '../../../engine/worker/client.ts'
import type { PrepareOutput, PrepareScanResult } from '../../../engine/worker/protocol/prepare.ts'
import type { SourceDescription } from '../../../engine/worker/protocol/dataset.ts'
import type { PrepareProgress } from '../../../engine/prepare/run.ts'
import type { PrepareReport } from '../../../engine/prepare/types.ts'
import type { InputFormat } from '../../../engine/prepare/inputs/types.ts'

/** The options the form edits (docs/conventions.md "Dataprep"). */
export interface PrepareForm {
  inputFormat: InputFormat | ''
  corpus: string
  /** Language of every row (blank: from the input). */
  language: string
  split: string
  audioFormat: 'flac' | 'ogg'
  textColumn: string
  normalizeText: boolean
  /** Decisions for input codes: code → xxx_Script. */
  decisions: Record<string, string>
}

export type PrepareStatus = 'idle' | 'scanning' | 'scanned' | 'running' | 'paused' | 'done' | 'cancelled' | 'error'

export interface PrepareState {
  input: { description: SourceDescription; label: string } | null
  form: PrepareForm
  status: PrepareStatus
  scan: PrepareScanResult | null
  /** Where the last run wrote (to resume and to open the result). */
  output: { output: PrepareOutput; label: string } | null
  progress: PrepareProgress | null
  report: PrepareReport | null
  error: string | null
}

export interface PrepareActions {
  pick(description: SourceDescription, label: string): Promise<void>
  update(patch: Partial<PrepareForm>): void
  decide(code: string, language: string): Promise<void>
  rescan(): Promise<void>
  /** Converts into `output` (a run cancelled before resumes after its last finished file). */
  run(output: PrepareOutput, label: string): Promise<void>
  pause(): Promise<void>
  resume(): Promise<void>
  cancel(): void
}

export type PrepareStore = PrepareState & PrepareActions

export const initialForm: PrepareForm = { inputFormat: '', corpus: '', language: '', split: '', audioFormat: 'flac', textColumn: '', normalizeText: true, decisions: {} }

/** The engine's options for a form. */
export function formOptions(form: PrepareForm) {
  const language = [...(form.language.trim() ? [form.language.trim()] : []), ...Object.entries(form.decisions).map(([k, v]) => `${k}=${v}`)]
  return {
    ...(form.inputFormat ? { inputFormat: form.inputFormat } : {}),
    ...(form.corpus.trim() ? { corpus: form.corpus.trim() } : {}),
    ...(language.length ? { language } : {}),
    ...(form.split.trim() ? { split: form.split.trim() } : {}),
    ...(form.textColumn.trim() ? { textColumn: form.textColumn.trim() } : {}),
    audioFormat: form.audioFormat,
    normalizeText: form.normalizeText,
  }
}

/** Creates the store bound to an engine client. */
export function createPrepareStore(client: Pick<EngineClient, 'request'>): StoreApi<PrepareStore> {
  let running: AbortController | null = null
  let scanning: AbortController | null = null
  return createStore<PrepareStore>()((set, get) => ({
    input: null, form: initialForm, status: 'idle', scan: null, output: null, progress: null, report: null, error: null,

    async pick(description, label) {
      set({ input: { description, label }, form: { ...get().form, decisions: {} }, report: null, progress: null, output: null })
      await get().rescan()
    },

    update(patch) {
      set({ form: { ...get().form, ...patch } })
    },

    async decide(code, language) {
      set({ form: { ...get().form, decisions: { ...get().form.decisions, [code]: language } } })
      await get().rescan()
    },

    async rescan() {
      const input = get().input
      if (!input) return
      scanning?.abort()
      const controller = new AbortController()
      scanning = controller
      set({ status: 'scanning', error: null, scan: null })
      try {
        const scan = await client.request('prepare-scan', { source: input.description, options: formOptions(get().form) }, { signal: controller.signal })
        if (scanning === controller) set({ status: 'scanned', scan })
      } catch (error) {
        if (scanning !== controller || (error as Error).name === 'AbortError') return
        set({ status: 'error', error: (error as Error).message })
      }
    },

    async run(output, label) {
      const scan = get().scan
      if (!scan) return
      running?.abort()
      const controller = new AbortController()
      running = controller
      set({ status: 'running', output: { output, label }, error: null, report: null, progress: null })
      const poll = setInterval(() => {
        void client.request('prepare-control', { job: scan.job, action: 'status' }).then((progress) => {
          if (running === controller && progress) set({ progress })
        }, () => undefined)
      }, 250)
      try {
        const report = await client.request('prepare-run', { job: scan.job, output }, { signal: controller.signal })
        if (running === controller) {
          const progress = await client.request('prepare-control', { job: scan.job, action: 'status' }).catch(() => null)
          set({ status: 'done', report, progress: progress ?? get().progress })
        }
      } catch (error) {
        if (running !== controller) return
        if ((error as Error).name === 'AbortError') set({ status: 'cancelled' })
        else set({ status: 'error', error: (error as Error).message })
      } finally {
        clearInterval(poll)
        if (running === controller) running = null
      }
    },

    async pause() {
      const scan = get().scan
      if (!scan || get().status !== 'running') return
      await client.request('prepare-control', { job: scan.job, action: 'pause' })
      set({ status: 'paused' })
    },

    async resume() {
      const scan = get().scan
      if (!scan || get().status !== 'paused') return
      await client.request('prepare-control', { job: scan.job, action: 'resume' })
      set({ status: 'running' })
    },

    cancel() {
      running?.abort()
    },
  }))
}
