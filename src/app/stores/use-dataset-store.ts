/** The app's dataset store instance and its React hook. */
import { useStore } from 'zustand'
import { engineClient } from '../engine-client.ts'
import { createDatasetStore, type DatasetStore } from './dataset-store.ts'

export const datasetStore = createDatasetStore(engineClient)

/** Selects from the dataset store; re-renders when the selected value changes. */
export function useDatasetStore<T>(selector: (state: DatasetStore) => T): T {
  return useStore(datasetStore, selector)
}
