/** The app's view store instance, seeded from and kept in sync with the page URL's `view` parameter. */
import { whenIdle } from '../lib/when-idle.ts'
import { createViewStore, viewIdOrDefault } from './view-store.ts'

export const viewStore = createViewStore(viewIdOrDefault(new URLSearchParams(window.location.search).get('view')))

/**
 * Writes the current view into the URL (replaceState) whenever it changes, in the first idle period after the
 * switched view has painted (at most `idleTimeoutMs` late); returns the unsubscribe. A `replaceState` is a
 * same-document navigation, 20–40 ms of main-thread work in Chromium (and a favicon fetch after it) measured at 1,600
 * languages: written in the click's task, it delayed every tab switch's frame by that much, and written right after
 * that frame, it held back the next one (the view's own work after it shows). Quick switches write only the last
 * view; the unsubscribe also drops a pending write.
 */
export function syncViewToPageUrl(idleTimeoutMs = 1000): () => void {
  let pending = false
  let stopped = false
  const write = () => {
    pending = false
    if (stopped) return
    const view = viewStore.getState().view
    const url = new URL(window.location.href)
    if (url.searchParams.get('view') === view) return
    url.searchParams.set('view', view)
    window.history.replaceState(window.history.state, '', url.href)
  }
  const unsubscribe = viewStore.subscribe(() => {
    if (pending) return
    pending = true
    // a hidden page runs no animation frames: write at once
    if (document.visibilityState === 'hidden') write()
    else requestAnimationFrame(() => { whenIdle(write, idleTimeoutMs) })
  })
  return () => {
    stopped = true
    unsubscribe()
  }
}
