/**
 * Worker activity for the status bar: requests in flight, counted by wrapping the client's methods once (the
 * client has no activity hook; see the helper's report). Every call through `engineClient` is counted.
 */
import { createStore } from 'zustand/vanilla'
import type { EngineClient } from '../../../engine/worker/client.ts'

export interface ActivityState {
  /** Requests sent and not settled yet (the status bar's busy / idle). */
  inFlight: number
  /** Requests settled since the page loaded. */
  settled: number
}

export const activityStore = createStore<ActivityState>()(() => ({ inFlight: 0, settled: 0 }))

const instrumented = new WeakSet<EngineClient>()

function track<T>(promise: Promise<T>): Promise<T> {
  activityStore.setState((s) => ({ inFlight: s.inFlight + 1 }))
  const done = () => activityStore.setState((s) => ({ inFlight: s.inFlight - 1, settled: s.settled + 1 }))
  promise.then(done, done)
  return promise
}

/** Wraps `request`, `openDataset` and `closeDataset` of `client` so each call is counted (once per client). */
export function instrumentClient(client: EngineClient): void {
  if (instrumented.has(client)) return
  instrumented.add(client)
  const { request, openDataset, closeDataset } = client
  // the status bar's own polling does not make the worker look busy
  client.request = ((kind, params, options) => {
    const pending = request(kind, params, options)
    return kind === 'engine-status' ? pending : track(pending)
  }) as EngineClient['request']
  client.openDataset = (source, options) => track(openDataset(source, options))
  client.closeDataset = (dataset) => track(closeDataset(dataset))
}
