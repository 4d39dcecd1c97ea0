/**
 * The Examples tab: the list and the Inspector side by side (list + detail), so choosing an example keeps the
 * list's place and focus. The shell composes them: features do not import each other. When the Audit's rows' report
 * lands, and again when its cheap audio check finishes, the list asks again, so its flags ("only flagged", the
 * findings sort) include the rows they found; and when the config changes, as the Audit's flags follow it
 * (engine/audit/flagged.ts).
 */
import { useEffect } from 'react'
import { auditStore } from '../features/audit/audit-view.tsx'
import { ExamplesView } from '../features/examples/examples-view.tsx'
import { InspectorView } from '../features/inspector/inspector-view.tsx'
import { examplesStore } from '../stores/use-examples-store.ts'
import { configStore } from '../stores/config-store.ts'

export function ExamplesWorkspace() {
  useEffect(() => {
    // the check, or the rows' report before it ("only flagged" past the row limit lists that report's rows while the
    // check reads), may have landed while this tab was not shown
    const examples = examplesStore.getState()
    const audit = auditStore.getState()
    if ((audit.quickStatus === 'done' && examples.audioChecked === false) || (audit.rowStatus === 'done' && examples.scan?.state === 'needs-audit')) void examples.refresh()
    const stopAudit = auditStore.subscribe((state, previous) => {
      if ((state.quickStatus === 'done' && previous.quickStatus !== 'done') || (state.rowStatus === 'done' && previous.rowStatus !== 'done')) void examplesStore.getState().refresh()
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
