/** The app's view store instance, seeded from and kept in sync with the page URL's `view` parameter. */
import { createViewStore, viewIdOrDefault } from './view-store.ts'

export const viewStore = createViewStore(viewIdOrDefault(new URLSearchParams(window.location.search).get('view')))

/** Writes the current view into the URL (replaceState) whenever it changes; returns the unsubscribe. */
export function syncViewToPageUrl(): () => void {
  return viewStore.subscribe((state) => {
    const url = new URL(window.location.href)
    if (url.searchParams.get('view') === state.view) return
    url.searchParams.set('view', state.view)
    window.history.replaceState(window.history.state, '', url.href)
  })
}
