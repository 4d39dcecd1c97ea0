/** The app's Batches store instance (over the worker client) and its hook. */
import { useStore } from 'zustand'
import { engineClient } from '../engine-client.ts'
import { createBatchesStore, type BatchesStore } from './batches-store.ts'

export const batchesStore = createBatchesStore(engineClient)

/** Selects from the Batches store. */
export function useBatchesStore<T>(selector: (state: BatchesStore) => T): T {
  return useStore(batchesStore, selector)
}
