/**
 * Keeps the page URL in step with the open dataset, so a link reproduces the view: `?dataset=<url>` for a URL
 * dataset, no parameter for the demo. Local folders cannot be named in a URL; the parameter is then dropped.
 */
import type { StoreApi } from 'zustand/vanilla'
import type { DatasetStore } from '../stores/dataset-store.ts'
import type { SourceDescription } from '../../engine/worker/protocol/dataset.ts'

/** The `dataset` parameter for a source: its URL, or `null` (demo, local folders). */
export function datasetParam(description: SourceDescription): string | null {
  return description.type === 'url' ? description.url : null
}

/**
 * A URL dataset's description with the page's `?redirect_origins=` (comma-separated origins, or `*`) as the origins a
 * redirect may lead to besides the dataset's own (docs/hostile-input.md "HTTP"); other descriptions as they are.
 */
export function withRedirectOrigins(description: SourceDescription, search: string): SourceDescription {
  const value = new URLSearchParams(search).get('redirect_origins')
  if (description.type !== 'url' || !value) return description
  return { ...description, redirectOrigins: value.split(',').map((o) => o.trim()).filter(Boolean) }
}

/** Rewrites `href`'s `dataset` parameter (other parameters kept). */
export function withDatasetParam(href: string, value: string | null): string {
  const url = new URL(href)
  if (value === null) url.searchParams.delete('dataset')
  else url.searchParams.set('dataset', value)
  return url.href
}

/** Subscribes to the store; on each successful open, replaces the history entry's URL. Returns the unsubscribe. */
export function syncDatasetToPageUrl(store: StoreApi<DatasetStore>): () => void {
  return store.subscribe((state, previous) => {
    if (state.status !== 'ready' || state.report === previous.report || !state.request) return
    const next = withDatasetParam(window.location.href, datasetParam(state.request.description))
    if (next !== window.location.href) window.history.replaceState(window.history.state, '', next)
  })
}
