/**
 * The page's first act, before React and the views are evaluated (main.tsx loads them once `appCanLoad` settles): the
 * demo (or `?dataset=`) starts opening, which starts the engine worker. Chromium starts a worker only after the page's
 * main thread has been free for a moment, so evaluating the views first would hold the worker, and the open, back by
 * that long; instead the views are evaluated while the worker loads its engine and reads, on the other core. The URL
 * stays in step with the open dataset and the current view for the page's lifetime.
 */
import { engineClient } from './engine-client.ts'
import { initialRequest } from './lib/demo.ts'
import { syncDatasetToPageUrl } from './lib/url-state.ts'
import { datasetStore } from './stores/use-dataset-store.ts'
import { syncViewToPageUrl } from './stores/use-view-store.ts'

/** The longest the page waits for the worker's `started` before it evaluates its views anyway (ms). */
export const workerStartWaitMs = 250

syncDatasetToPageUrl(datasetStore)
syncViewToPageUrl()
void datasetStore.getState().open(initialRequest())

/** Settles once the worker runs, or after `workerStartWaitMs`, whichever comes first. */
export const appCanLoad: Promise<void> = Promise.race([
  engineClient.started(),
  new Promise<void>((resolve) => setTimeout(resolve, workerStartWaitMs)),
])
