/** The app's dataset store instance and its React hook. */
import { useStore } from 'zustand'
import { engineClient } from '../engine-client.ts'
import { withRedirectOrigins } from '../lib/url-state.ts'
import { createDatasetStore, type DatasetStore } from './dataset-store.ts'

/** The worker client, URL datasets given the page's `?redirect_origins=`. */
export const datasetStore = createDatasetStore({
  openDataset: (description, options) => engineClient.openDataset(withRedirectOrigins(description, window.location.search), options),
  closeDataset: (...args) => engineClient.closeDataset(...args),
})

/** Selects from the dataset store; re-renders when the selected value changes. */
export function useDatasetStore<T>(selector: (state: DatasetStore) => T): T {
  return useStore(datasetStore, selector)
}
