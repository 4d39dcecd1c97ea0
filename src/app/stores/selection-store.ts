/**
 * The selection store: which example and which batch the explorer points at. Views link to an example by calling
 * `selectionStore.getState().select(id, batch)` and then `viewStore.getState().show('inspector')`.
 * The selection lives in the page URL (`?example=<id>&batch=<index>`) so a link reproduces it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useStore } from 'zustand'

export interface SelectionState {
  /** The selected example's id (docs/conventions.md "Example id"), or `null`. */
  exampleId: string | null
  /** The selected batch's index in the plan (0-based), or `null`. */
  batchIndex: number | null
}

export interface SelectionActions {
  /** Selects an example and, optionally, the batch it came from (`batchIndex` omitted: no batch). */
  select(exampleId: string | null, batchIndex?: number | null): void
}

export type SelectionStore = SelectionState & SelectionActions

export const emptySelection: SelectionState = { exampleId: null, batchIndex: null }

/** Creates a selection store starting at `initial`. */
export function createSelectionStore(initial: SelectionState = emptySelection): StoreApi<SelectionStore> {
  return createStore<SelectionStore>()((set) => ({
    ...initial,
    select: (exampleId, batchIndex = null) => set({ exampleId, batchIndex }),
  }))
}

/** Reads `example=` and `batch=` from a query string (`?a=b&…`); a batch that is not a whole number ≥ 0 is ignored. */
export function selectionFromSearch(search: string): SelectionState {
  const params = new URLSearchParams(search)
  const exampleId = params.get('example')
  const batch = params.get('batch')
  const batchIndex = batch !== null && /^\d+$/.test(batch) ? Number(batch) : null
  return { exampleId: exampleId === '' ? null : exampleId, batchIndex }
}

/** `href` with its `example` and `batch` parameters set to `selection` (absent when `null`; other parameters kept). */
export function withSelectionParams(href: string, selection: SelectionState): string {
  const url = new URL(href)
  if (selection.exampleId === null) url.searchParams.delete('example')
  else url.searchParams.set('example', selection.exampleId)
  if (selection.batchIndex === null) url.searchParams.delete('batch')
  else url.searchParams.set('batch', String(selection.batchIndex))
  return url.href
}

/** Replaces the history entry's URL whenever the selection changes; returns the unsubscribe. */
export function syncSelectionToPageUrl(store: StoreApi<SelectionStore>): () => void {
  return store.subscribe((state) => {
    const next = withSelectionParams(window.location.href, state)
    if (next !== window.location.href) window.history.replaceState(window.history.state, '', next)
  })
}

const inBrowser = typeof window !== 'undefined' && typeof window.location !== 'undefined'

/** The app's selection store, seeded from the page URL and kept in it (in a browser; empty elsewhere). */
export const selectionStore: StoreApi<SelectionStore> = createSelectionStore(
  inBrowser ? selectionFromSearch(window.location.search) : emptySelection,
)
if (inBrowser) syncSelectionToPageUrl(selectionStore)

/** Selects from the app's selection store; re-renders when the selected value changes. */
export function useSelectionStore<T>(selector: (state: SelectionStore) => T): T {
  return useStore(selectionStore, selector)
}
