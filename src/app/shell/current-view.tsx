/**
 * Renders the selected view inside its tab panel. The Overview, Audit, Mixture and Batches stay mounted (hidden)
 * once visited, so coming back to one is a display switch that keeps its scroll, filters and charts instead of a
 * re-render; Examples and Inspector share the Inspector's player and mount only while shown.
 *
 * A hidden view is `hidden` but keeps its layout (styles.css `.view-panel[hidden]`: content-visibility, not
 * display: none): with display: none every chart's ResizeObserver saw 0 × 0, recharts drew nothing, virtualized
 * tables dropped their rows, and showing the view again re-rendered and re-laid out all of it (hundreds of ms at
 * 1,600 languages). Kept this way, showing a view is a paint. `content-visibility: hidden` already keeps its contents
 * out of the tab order and the accessibility tree (CSS Containment 2, "skipped contents"; e2e/hidden-views.spec.ts);
 * `inert` as well made every switch recalculate the style of both panels' whole subtrees (27–42 ms of the 50–140 ms
 * a switch took at 1,600 languages).
 */
import { memo, useState } from 'react'
import { useStore } from 'zustand'
import { views } from './views.tsx'
import { viewStore } from '../stores/use-view-store.ts'
import type { ViewId } from '../stores/view-store.ts'
import { ViewIdContext } from '../stores/view-active.ts'

const kept: ReadonlySet<ViewId> = new Set(['overview', 'audit', 'mixture', 'batches'])
/** The views memoized: showing one does not re-render the hidden ones (they take no props). */
const memoized = new Map(views.map((v) => [v.id, memo(v.component)]))

export function CurrentView() {
  const current = useStore(viewStore, (s) => s.view)
  const [visited, setVisited] = useState<ReadonlySet<ViewId>>(() => new Set([current]))
  if (!visited.has(current)) setVisited(new Set([...visited, current]))
  return (
    <>
      {views.filter((v) => v.id === current || (kept.has(v.id) && visited.has(v.id))).map((v) => {
        const View = memoized.get(v.id)!
        return (
          <section key={v.id} id={`view-${v.id}`} className="view-panel" role="tabpanel" aria-labelledby={`tab-${v.id}`} hidden={v.id !== current}>
            <ViewIdContext value={v.id}><View /></ViewIdContext>
          </section>
        )
      })}
    </>
  )
}
