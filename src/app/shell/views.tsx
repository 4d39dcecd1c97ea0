/**
 * The explorer's views, in tab order. A view is one entry here (its label and how to load its component) and its id
 * in `viewIds` (src/app/stores/view-store.ts). Views read the stores; they talk to the engine only through the worker
 * client, and switch views through the view store (never by importing this module: it loads them).
 *
 * Each view is a chunk of its own, loaded on demand (`loadView`): the page evaluates the shell and the view it opens
 * on, and the other views one at a time in idle time after (`preloadViews`), so no view's code is evaluated in the
 * task that evaluates another's. Evaluated together, the shell and all seven views were one task of 0.43–0.66 s
 * before the first chart, on 2 cores (docs/interpretations.md, "Views load on demand").
 */
import type { ComponentType } from 'react'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { whenIdle } from '../lib/when-idle.ts'
import { viewIds, type ViewId } from '../stores/view-store.ts'

export interface ViewDefinition {
  id: ViewId
  label: string
  /** Imports the view's chunk (once while it loads or once loaded; after a failure, the next call tries again). */
  load: () => Promise<ComponentType>
}

const definitions: Record<ViewId, Omit<ViewDefinition, 'id'>> = {
  overview: { label: 'Overview', load: () => import('../features/overview/overview-view.tsx').then((m) => m.OverviewView) },
  audit: { label: 'Audit', load: () => import('../features/audit/audit-view.tsx').then((m) => m.AuditView) },
  mixture: { label: 'Mixture', load: () => import('../features/mixture/mixture-view.tsx').then((m) => m.MixtureView) },
  batches: { label: 'Batches', load: () => import('../features/batches/batches-view.tsx').then((m) => m.BatchesView) },
  examples: { label: 'Examples', load: () => import('./examples-workspace.tsx').then((m) => m.ExamplesWorkspace) },
  inspector: { label: 'Inspector', load: () => import('../features/inspector/inspector-view.tsx').then((m) => m.InspectorView) },
  prepare: { label: 'Prepare', load: () => import('../features/prepare/prepare-view.tsx').then((m) => m.PrepareView) },
}

/** Loads views' chunks on demand, once each (`createViewLoader`). */
export interface ViewLoader {
  /** The components loaded so far, by id (a view renders at once when its component is here). */
  loaded: StoreApi<Partial<Record<ViewId, ComponentType>>>
  /**
   * Loads a view's chunk once and records its component in `loaded`. A failed load is forgotten, so the next call
   * tries again (a chunk request that failed on a flaky network), and rejects with the view named.
   */
  load(id: ViewId): Promise<ComponentType>
  /**
   * Loads every view not loaded yet, one per idle period, in tab order (at most `timeoutMs` late): a first visit then
   * finds its code evaluated. A view whose chunk fails to load is skipped here (its tab tries again when shown).
   * Returns a function that stops it.
   */
  preload(timeoutMs?: number): () => void
}

/** A loader over `imports` (each view's chunk import), running preloads through `idle` (tests pass their own). */
export function createViewLoader(imports: Record<ViewId, Omit<ViewDefinition, 'id'>>, idle = whenIdle): ViewLoader {
  const loaded = createStore<Partial<Record<ViewId, ComponentType>>>(() => ({}))
  const loading = new Map<ViewId, Promise<ComponentType>>()
  const load = (id: ViewId): Promise<ComponentType> => {
    let promise = loading.get(id)
    if (!promise) {
      promise = imports[id].load().then(
        (component) => { loaded.setState({ [id]: component }); return component },
        (error: unknown) => {
          loading.delete(id)
          throw new Error(`app: the ${imports[id].label} view failed to load: ${error instanceof Error ? error.message : String(error)}`)
        },
      )
      loading.set(id, promise)
    }
    return promise
  }
  const preload = (timeoutMs = 2000) => {
    const tried = new Set<ViewId>()
    let cancel = () => {}
    let stopped = false
    const next = () => {
      const id = viewIds.find((v) => !tried.has(v) && !loaded.getState()[v])
      if (stopped || !id) return
      tried.add(id)
      const again = () => { if (!stopped) cancel = idle(next, timeoutMs) }
      load(id).then(again, again)
    }
    cancel = idle(next, timeoutMs)
    return () => { stopped = true; cancel() }
  }
  return { loaded, load, preload }
}

const viewLoader = createViewLoader(definitions)
/** The app's views loaded so far (`ViewLoader.loaded`). */
export const loadedViews = viewLoader.loaded
/** Loads a view's chunk (`ViewLoader.load`). */
export const loadView = viewLoader.load
/** Loads the views not loaded yet in idle time (`ViewLoader.preload`). */
export const preloadViews = viewLoader.preload

export const views: ViewDefinition[] = viewIds.map((id) => ({ id, label: definitions[id].label, load: () => loadView(id) }))

