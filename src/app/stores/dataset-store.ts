/**
 * The dataset store: what is open, what is opening, and how far along it is.
 * `report` is the last dataset that opened successfully; `status` describes the latest attempt, so a
 * cancelled or failed open keeps showing the dataset that was there before.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { Progress } from '../../engine/dataset/dataset.ts'
import type { EngineClient } from '../../engine/worker/client.ts'
import type { OpenResult, SourceDescription, SummaryFile } from '../../engine/worker/protocol/dataset.ts'

export type DatasetStatus = 'idle' | 'loading' | 'ready' | 'error' | 'cancelled'

/** What the user asked to open, with the words the UI shows for it. */
export interface DatasetRequest {
  description: SourceDescription
  /** e.g. `Demo dataset`, a folder name, a URL. */
  label: string
  /** A stats TSV the user picked: wins over the one found beside the root (docs/conventions.md "Stats TSV"). */
  summary?: SummaryFile
  /** The folder name when the dataset lives in the browser's storage (OPFS): it can be opened again after a reload. */
  browserStorage?: string
}

export interface DatasetState {
  status: DatasetStatus
  /** The open being run (status `loading`) or last attempted. */
  request: DatasetRequest | null
  /** Latest progress of the running open; `null` when none is running. */
  progress: Progress | null
  /** Latest progress of each phase the running open has reached (files listed, footers read, …); empty when idle. */
  phases: Partial<Record<Progress['phase'], Progress>>
  /** The dataset on screen and the request that opened it. */
  report: OpenResult | null
  reportLabel: string | null
  reportRequest: DatasetRequest | null
  /** Why the latest open failed (status `error`). */
  error: { message: string; kind: string } | null
  /**
   * The running open's latest provisional result (progressive open: `partial.provisional` says what its numbers are:
   * an estimate, exact numbers of the files read so far, or final stats while rows are still checked); `null` when
   * none came yet or nothing is running. Views show it, labelled, while `status` is `loading`.
   */
  partial: OpenResult | null
}

export interface DatasetActions {
  /** Opens a dataset, cancelling any open still running. Resolves when this open has settled. */
  open(request: DatasetRequest): Promise<void>
  /** Cancels the running open, if any. */
  cancel(): void
}

export type DatasetStore = DatasetState & DatasetActions

export const initialDatasetState: DatasetState = {
  status: 'idle', request: null, progress: null, phases: {}, report: null, reportLabel: null, reportRequest: null, error: null, partial: null,
}

/** What views show: the running open's provisional result while there is one, else the dataset that is open. */
export function shownReport(state: DatasetState): OpenResult | null {
  return (state.status === 'loading' && state.partial) || state.report
}

/**
 * The dataset views can work with: the running open's `validating` result (every file described, its handle valid,
 * the row checks still reading: docs/interpretations.md "Progressive open"), else the dataset that is open. The
 * Audit, Mixture, Batches, Examples and Inspector views start on it instead of waiting for every row to be checked.
 */
export function usableReport(state: DatasetState): OpenResult | null {
  if (state.status === 'loading' && state.partial?.provisional?.stage === 'validating') return state.partial
  return state.report
}

/** The dataset handle views work with (`usableReport`'s), `null` when none is usable yet. */
export function usableDataset(state: DatasetState): number | null {
  return usableReport(state)?.dataset ?? null
}

/** The running open's row checks (rows checked of all) while a usable dataset's rows are still read, else `null`. */
export function rowCheckProgress(state: DatasetState): Progress | null {
  if (state.status !== 'loading' || state.partial?.provisional?.stage !== 'validating') return null
  return state.phases.validate ?? null
}

/**
 * Creates a dataset store bound to an engine client.
 * @param client the worker client (a fake in tests)
 */
export function createDatasetStore(client: Pick<EngineClient, 'openDataset' | 'closeDataset'>): StoreApi<DatasetStore> {
  let running: AbortController | null = null

  return createStore<DatasetStore>()((set, get) => ({
    ...initialDatasetState,

    async open(request) {
      running?.abort()
      const controller = new AbortController()
      running = controller
      set({ status: 'loading', request, progress: null, phases: {}, error: null, partial: null })
      try {
        const report = await client.openDataset(request.description, {
          ...(request.summary ? { summary: request.summary } : {}),
          signal: controller.signal,
          onProgress: (progress) => {
            if (running === controller) set((s) => ({ progress, phases: { ...s.phases, [progress.phase]: progress } }))
          },
          onPartial: (partial) => {
            if (running === controller) set({ partial })
          },
        })
        if (running !== controller) return
        const previous = get().report
        set({ status: 'ready', progress: null, phases: {}, report, reportLabel: request.label, reportRequest: request, partial: null })
        if (previous && previous.dataset !== report.dataset) void client.closeDataset(previous.dataset).catch(() => undefined)
      } catch (error) {
        if (running !== controller) return
        const partial = get().partial
        if (error instanceof Error && error.name === 'AbortError' && partial?.provisional?.stage === 'validating') {
          // every file's numbers were in and the dataset usable: keep it, saying its rows were not all checked
          const previous = get().report
          const kept: OpenResult = { ...partial, provisional: { ...partial.provisional, rowChecksCancelled: true } }
          set({ status: 'ready', progress: null, phases: {}, report: kept, reportLabel: request.label, reportRequest: request, partial: null })
          if (previous && previous.dataset !== kept.dataset) void client.closeDataset(previous.dataset).catch(() => undefined)
        } else if (error instanceof Error && error.name === 'AbortError') set({ status: 'cancelled', progress: null, phases: {}, partial: null })
        else {
          const e = error as { message?: string; kind?: string }
          set({ status: 'error', progress: null, phases: {}, partial: null, error: { message: e.message ?? String(error), kind: e.kind ?? 'internal' } })
        }
      } finally {
        if (running === controller) running = null
      }
    },

    cancel() {
      // the open's own catch moves the status to `cancelled` once the client rejects
      running?.abort()
    },
  }))
}
