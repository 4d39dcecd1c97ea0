/**
 * The Examples store: the filter, the optional seeded "N per language" sample, and the pages of matches fetched from
 * the worker (`examples-search`) as the virtualized list scrolls. Changing the filter or the dataset drops the pages
 * and aborts the request in flight; the first page after a change also brings the total and the facets.
 *
 * A streamed transcript search (the worker's text scan, above its row limit) answers with the matches found so far
 * and the scan's progress: while it runs, the store asks again every `scanPollMs` for the last, growing page (the
 * pages before it keep their rows: matches only append) until the scan is done or stopped. A streamed sort's first rows
 * change as rows are read: every page shown is asked again. A streamed sample lists its picks once the scan is done.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { Progress } from '../../engine/dataset/dataset.ts'
import type { EngineClient } from '../../engine/worker/client.ts'
import type { ExampleFilter, ExampleSample, ExamplePage, ExampleSort, ExampleSummary } from '../../engine/examples/search.ts'
import type { TextScanStatus } from '../../engine/examples/text-scan.ts'
import type { ConfigSpec } from '../../engine/pipeline/config/resolve.ts'

/** Rows per `examples-search` request. */
export const pageSize = 100
/** How often a running streamed search is asked for its progress (ms). */
export const scanPollMs = 400

export interface ExamplesState {
  /** Dataset handle the pages belong to (`null`: none open). */
  dataset: number | null
  filter: ExampleFilter
  /** Order of the list (`null`: dataset order). */
  sort: ExampleSort | null
  sample: ExampleSample | null
  status: 'idle' | 'loading' | 'ready' | 'error'
  error: string | null
  /** Scan progress (row groups read) while the worker builds its index. */
  progress: Progress | null
  /** Matches in all; `null` before the first page. */
  total: number | null
  facets: ExamplePage['facets'] | null
  /** Fetched pages by page number. */
  pages: Record<number, ExampleSummary[]>
  /** Bumped on every reset, so stale answers are dropped. */
  generation: number
  /** Whether the last page's flags include the audit's audio check (`null` before the first page). */
  audioChecked: boolean | null
  /**
   * Whether the last page's rows carry their metadata findings: `false` when it was listed by partition from the
   * footers, before every transcript was read (`null` before the first page).
   */
  rowFindings: boolean | null
  /** The streamed transcript search's progress, when the list comes from one (`null` otherwise). */
  scan: TextScanStatus | null
}

export interface ExamplesActions {
  /** Points the store at a dataset (dropping pages when it changes) and fetches the first page. */
  load(dataset: number | null): Promise<void>
  /** Sets the order of the list and refetches from the first page. */
  setSort(sort: ExampleSort | null): Promise<void>
  /** Merges `patch` into the filter and refetches from the first page. */
  setFilter(patch: Partial<ExampleFilter>): Promise<void>
  /** Sets (or clears, `null`) the N-per-language sample and refetches. */
  setSample(sample: ExampleSample | null): Promise<void>
  /**
   * Asks again with the same filter, sort and sample, keeping the total (and so the list's scroll place) until the
   * answer lands: the worker's findings changed (the audit's audio check finished).
   */
  refresh(): Promise<void>
  /** Fetches the pages covering matches `[start, end)` that are not there yet. */
  ensureRange(start: number, end: number): Promise<void>
  /** The match at `index`, when its page is fetched. */
  rowAt(index: number): ExampleSummary | undefined
  /** Stops the streamed search (its matches stay listed). */
  stopScan(): Promise<void>
  /** Continues a stopped streamed search from where it stopped. */
  continueScan(): Promise<void>
}

/** Options of `createExamplesStore`. */
export interface ExamplesStoreOptions {
  /** Rows above which a transcript search streams (`ExamplesSearchParams.indexRowLimit`; default the worker's). */
  indexRowLimit?: number
  /** The config the flags follow (`ExamplesSearchParams.spec`: the Audit's), read at each request; absent: the default config. */
  spec?: () => ConfigSpec
}

export type ExamplesStore = ExamplesState & ExamplesActions

export const initialExamplesState: ExamplesState = {
  dataset: null, filter: {}, sort: null, sample: null, status: 'idle', error: null, progress: null, total: null, facets: null, pages: {}, generation: 0,
  audioChecked: null, rowFindings: null, scan: null,
}

/** Creates the store over a client (a fake in tests). */
export function createExamplesStore(client: Pick<EngineClient, 'request'>, storeOptions: ExamplesStoreOptions = {}): StoreApi<ExamplesStore> {
  const inFlight = new Map<number, AbortController>()
  const limit = storeOptions.indexRowLimit === undefined ? {} : { indexRowLimit: storeOptions.indexRowLimit }
  let pollTimer: ReturnType<typeof setTimeout> | null = null

  return createStore<ExamplesStore>()((set, get) => {
    function reset(patch: Partial<ExamplesState>): void {
      for (const c of inFlight.values()) c.abort()
      inFlight.clear()
      stopPolling()
      set((s) => ({ ...patch, pages: {}, total: null, status: 'idle', error: null, progress: null, scan: null, generation: s.generation + 1 }))
    }

    function stopPolling(): void {
      if (pollTimer !== null) clearTimeout(pollTimer)
      pollTimer = null
    }

    /** While the streamed search runs: asks again for the last (growing) page, keeping the pages before it. */
    function pollScan(generation: number): void {
      stopPolling()
      pollTimer = setTimeout(() => {
        pollTimer = null
        if (get().generation !== generation || get().scan?.state !== 'running') return
        if (get().scan?.order === 'sort') {
          // a sort's first rows change while the rows are read: every page shown is asked again
          const shown = Object.keys(get().pages).map(Number)
          set({ pages: {} })
          for (const page of shown.length > 0 ? shown : [0]) void fetchPage(page)
          return
        }
        const last = Math.floor((get().total ?? 0) / pageSize)
        set((s) => {
          const pages = { ...s.pages }
          delete pages[last]
          return { pages }
        })
        void fetchPage(last)
      }, scanPollMs)
    }

    async function fetchPage(page: number): Promise<void> {
      const { dataset, filter, sample, sort, generation } = get()
      if (dataset === null || inFlight.has(page) || get().pages[page]) return
      const controller = new AbortController()
      inFlight.set(page, controller)
      if (get().total === null) set({ status: 'loading' })
      try {
        const result = await client.request('examples-search', { dataset, filter, sample, sort, offset: page * pageSize, limit: pageSize, ...limit, ...(storeOptions.spec ? { spec: storeOptions.spec() } : {}) }, {
          signal: controller.signal,
          onProgress: (progress) => { if (get().generation === generation) set({ progress }) },
        })
        if (get().generation !== generation) return
        set((s) => ({
          status: 'ready', progress: null, total: result.total, facets: result.facets, pages: { ...s.pages, [page]: result.rows }, audioChecked: result.audioChecked,
          rowFindings: result.rowFindings !== false, scan: result.scan ?? null,
        }))
        if (result.scan?.state === 'running') pollScan(generation)
      } catch (error) {
        if (get().generation !== generation || (error as Error).name === 'AbortError') return
        set({ status: 'error', error: (error as Error).message, progress: null })
      } finally {
        if (inFlight.get(page) === controller) inFlight.delete(page)
      }
    }

    return {
      ...initialExamplesState,
      async load(dataset) {
        if (dataset !== get().dataset) reset({ dataset })
        await fetchPage(0)
      },
      async setSort(sort) {
        reset({ sort })
        await fetchPage(0)
      },
      async setFilter(patch) {
        reset({ filter: { ...get().filter, ...patch } })
        await fetchPage(0)
      },
      async setSample(sample) {
        reset({ sample })
        await fetchPage(0)
      },
      async refresh() {
        if (get().dataset === null) return
        for (const c of inFlight.values()) c.abort()
        inFlight.clear()
        set((s) => ({ pages: {}, error: null, generation: s.generation + 1 }))
        await fetchPage(0)
      },
      async ensureRange(start, end) {
        const total = get().total
        const last = total === null ? 0 : Math.max(0, Math.min(end, total) - 1)
        const pages: Promise<void>[] = []
        for (let p = Math.floor(Math.max(0, start) / pageSize); p <= Math.floor(last / pageSize); p++) pages.push(fetchPage(p))
        await Promise.all(pages)
      },
      rowAt(index) {
        return get().pages[Math.floor(index / pageSize)]?.[index % pageSize]
      },
      async stopScan() {
        const { dataset, generation } = get()
        if (dataset === null || !get().scan) return
        stopPolling()
        const scan = await client.request('examples-scan', { dataset, action: 'stop' })
        if (get().generation === generation) set({ scan })
      },
      async continueScan() {
        const { dataset, generation } = get()
        if (dataset === null || !get().scan) return
        const scan = await client.request('examples-scan', { dataset, action: 'continue' })
        if (get().generation !== generation) return
        set({ scan })
        if (scan?.state === 'running') pollScan(generation)
      },
    }
  })
}
