/** The app's view store, seeded from and kept in sync with the page URL's `view` parameter. */
import { createViewStore } from '../stores/view-store.ts'
import { viewById } from './views.tsx'

export const viewStore = createViewStore(viewById(new URLSearchParams(window.location.search).get('view')).id)

/** Writes the current view into the URL (replaceState) whenever it changes; returns the unsubscribe. */
export function syncViewToPageUrl(): () => void {
  return viewStore.subscribe((state) => {
    const url = new URL(window.location.href)
    if (url.searchParams.get('view') === state.view) return
    url.searchParams.set('view', state.view)
    window.history.replaceState(window.history.state, '', url.href)
  })
}
