/**
 * Renders the selected view inside its tab panel. The Overview, Audit, Mixture and Batches stay mounted (hidden)
 * once visited, so coming back to one is a display switch that keeps its scroll, filters and charts instead of a
 * re-render; Examples and Inspector share the Inspector's player and mount only while shown.
 */
import { useState } from 'react'
import { useStore } from 'zustand'
import { views } from './views.tsx'
import { viewStore } from '../stores/use-view-store.ts'
import type { ViewId } from '../stores/view-store.ts'

const kept: ReadonlySet<ViewId> = new Set(['overview', 'audit', 'mixture', 'batches'])

export function CurrentView() {
  const current = useStore(viewStore, (s) => s.view)
  const [visited, setVisited] = useState<ReadonlySet<ViewId>>(() => new Set([current]))
  if (!visited.has(current)) setVisited(new Set([...visited, current]))
  return (
    <>
      {views.filter((v) => v.id === current || (kept.has(v.id) && visited.has(v.id))).map((v) => {
        const View = v.component
        return (
          <section key={v.id} id={`view-${v.id}`} role="tabpanel" aria-labelledby={`tab-${v.id}`} hidden={v.id !== current}>
            <View />
          </section>
        )
      })}
    </>
  )
}
