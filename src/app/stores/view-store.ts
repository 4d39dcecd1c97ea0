/** Which explorer view is shown; kept in the page URL (`?view=`) so a link reproduces it. */
import { createStore } from 'zustand/vanilla'

export interface ViewState {
  view: string
}

export interface ViewActions {
  show(view: string): void
}

export type ViewStore = ViewState & ViewActions

/** Creates the view store, starting at `initial`. */
export function createViewStore(initial: string) {
  return createStore<ViewStore>((set) => ({
    view: initial,
    show: (view) => set({ view }),
  }))
}
