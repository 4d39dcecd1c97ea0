/** Which explorer view is shown; kept in the page URL (`?view=`) so a link reproduces it. */
import { createStore } from 'zustand/vanilla'

/**
 * Every view's id, in tab order (the `?view=` values). src/app/shell/views.tsx gives each its label and component;
 * the ids live here so features can switch views through the store without importing the shell (which imports them).
 */
export const viewIds = ['overview', 'audit', 'mixture', 'batches', 'examples', 'inspector'] as const

export type ViewId = (typeof viewIds)[number]

/** `id` when it names a view, else the first view. */
export function viewIdOrDefault(id: string | null): ViewId {
  return (viewIds as readonly string[]).includes(id ?? '') ? (id as ViewId) : viewIds[0]
}

export interface ViewState {
  view: ViewId
}

export interface ViewActions {
  show(view: ViewId): void
}

export type ViewStore = ViewState & ViewActions

/** Creates the view store, starting at `initial`. */
export function createViewStore(initial: ViewId) {
  return createStore<ViewStore>((set) => ({
    view: initial,
    show: (view) => set({ view }),
  }))
}
