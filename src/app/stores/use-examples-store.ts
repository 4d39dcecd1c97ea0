/** The app's Examples store instance (over the worker client) and its React hook. */
import { useStore } from 'zustand'
import { engineClient } from '../engine-client.ts'
import { createExamplesStore, type ExamplesStore } from './examples-store.ts'

export const examplesStore = createExamplesStore(engineClient)

/** Selects from the Examples store; re-renders when the selected value changes. */
export function useExamplesStore<T>(selector: (state: ExamplesStore) => T): T {
  return useStore(examplesStore, selector)
}
