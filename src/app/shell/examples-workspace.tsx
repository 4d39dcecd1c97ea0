/**
 * The Examples tab: the list and the Inspector side by side (list + detail), so choosing an example keeps the
 * list's place and focus. The shell composes them: features do not import each other. When the Audit's cheap audio
 * check finishes, the list asks again, so its flags ("only flagged", the findings sort) include the rows it found; and
 * when the config changes, as the Audit's flags follow it (engine/audit/flagged.ts).
 */
import { useEffect } from 'react'
import { auditStore } from '../features/audit/audit-view.tsx'
import { ExamplesView } from '../features/examples/examples-view.tsx'
import { InspectorView } from '../features/inspector/inspector-view.tsx'
import { examplesStore } from '../stores/use-examples-store.ts'
import { configStore } from '../stores/config-store.ts'

export function ExamplesWorkspace() {
  useEffect(() => {
    // the check may have finished while this tab was not shown
    if (auditStore.getState().quickStatus === 'done' && examplesStore.getState().audioChecked === false) void examplesStore.getState().refresh()
    const stopAudit = auditStore.subscribe((state, previous) => {
      if (state.quickStatus === 'done' && previous.quickStatus !== 'done') void examplesStore.getState().refresh()
    })
    const stopConfig = configStore.subscribe(() => void examplesStore.getState().setFilter({}))
    return () => { stopAudit(); stopConfig() }
  }, [])
  return (
    <div className="workspace">
      <div className="workspace-list"><ExamplesView /></div>
      <aside className="workspace-detail" aria-label="Selected example"><InspectorView compact /></aside>
    </div>
  )
}
