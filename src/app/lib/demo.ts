/** Where the bundled demo dataset lives and how the app opens at start. */
import type { DatasetRequest } from '../stores/dataset-store.ts'

/** The demo's root URL: `<base>/demo/version=0/` (public/demo/version=0, with its `_manifest.json`). */
export function demoRootUrl(): string {
  return new URL(`${import.meta.env.BASE_URL}demo/version=0/`, window.location.href).href
}

/** The demo as an open request. */
export function demoRequest(): DatasetRequest {
  return { description: { type: 'demo', url: demoRootUrl() }, label: 'Demo dataset' }
}

/** The dataset named by the page URL (`?dataset=<url>`), else the demo. */
export function initialRequest(): DatasetRequest {
  const named = new URLSearchParams(window.location.search).get('dataset')
  if (!named) return demoRequest()
  const url = new URL(named, window.location.href).href
  return { description: { type: 'url', url }, label: url }
}
