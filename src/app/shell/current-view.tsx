/**
 * Renders the selected view inside its tab panel, once its chunk has loaded (views.tsx `loadView`; until then the
 * panel says it is loading, or why the load failed, with a retry). The Overview, Audit, Mixture and Batches stay mounted (hidden)
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
import { memo, useEffect, useState, type ComponentType } from 'react'
import { useStore } from 'zustand'
import { loadedViews, views, type ViewDefinition } from './views.tsx'
import { viewStore } from '../stores/use-view-store.ts'
import type { ViewId } from '../stores/view-store.ts'
import { ViewIdContext } from '../stores/view-active.ts'

const kept: ReadonlySet<ViewId> = new Set(['overview', 'audit', 'mixture', 'batches'])
/** The views memoized: showing one does not re-render the hidden ones (they take no props). */
const memoized = new WeakMap<ComponentType, ComponentType>()
function memoizedView(component: ComponentType): ComponentType {
  let view = memoized.get(component)
  if (!view) memoized.set(component, (view = memo(component)))
  return view
}

/** A view whose chunk is still loading: loads it, says so, and offers a retry if the load failed. */
function ViewLoading({ view }: { view: ViewDefinition }) {
  const [error, setError] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    view.load().catch((e: Error) => { if (live) setError(e.message) })
    return () => { live = false }
  }, [view, attempt])
  if (error) {
    return (
      <div className="empty-state" role="alert">
        <h3>The {view.label} view did not load</h3>
        <p>{error}</p>
        <button type="button" onClick={() => { setError(null); setAttempt((a) => a + 1) }}>Try again</button>
      </div>
    )
  }
  return <p className="hint view-loading" aria-busy="true">Loading the {view.label} view…</p>
}

export function CurrentView() {
  const current = useStore(viewStore, (s) => s.view)
  const loaded = useStore(loadedViews)
  const [visited, setVisited] = useState<ReadonlySet<ViewId>>(() => new Set([current]))
  if (!visited.has(current)) setVisited(new Set([...visited, current]))
  return (
    <>
      {views.filter((v) => v.id === current || (kept.has(v.id) && visited.has(v.id))).map((v) => {
        const component = loaded[v.id]
        const View = component ? memoizedView(component) : null
        return (
          <section key={v.id} id={`view-${v.id}`} className="view-panel" role="tabpanel" aria-labelledby={`tab-${v.id}`} hidden={v.id !== current}>
            <ViewIdContext value={v.id}>{View ? <View /> : <ViewLoading view={v} />}</ViewIdContext>
          </section>
        )
      })}
    </>
  )
}
