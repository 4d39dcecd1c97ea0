/**
 * The explorer's tab bar (a `tablist`, arrow keys move between tabs). The Audit tab carries the number of error
 * findings (or, with none, of warnings) as a badge whose words, and whose count they are, are the tab's name and
 * tooltip ("Audit, 3 errors found while opening; run the Audit for row checks"): the audit's count once it has a
 * result for this dataset, the open's (validate's file, partition and row findings) until then
 * (src/app/stores/audit-link-store.ts).
 */
import { useStore } from 'zustand'
import { views } from './views.tsx'
import { viewStore } from '../stores/use-view-store.ts'
import { useProblemCounts } from '../stores/audit-link-store.ts'
import { formatCount, plural } from '../lib/format.ts'

/**
 * The Audit tab's badge: errors, else warnings (quieter); `null` when there are neither. `label` says whose count it
 * is (the open's, before the Audit ran, or the Audit's), and is the tab's accessible name and tooltip.
 */
function useAuditBadge(): { severity: 'error' | 'warning'; count: number; words: string; label: string } | null {
  const problems = useProblemCounts()
  if (!problems) return null
  const { error, warning } = problems.counts.findings
  const severity = error > 0 ? 'error' : warning > 0 ? 'warning' : null
  if (!severity) return null
  const count = severity === 'error' ? error : warning
  const words = plural(count, severity)
  const soFar = problems.opening ? ' so far' : ''
  const label = !problems.audited
    ? `${words} found while opening${soFar}; run the Audit for row checks`
    : problems.level === 'footers'
      ? `${words} in the Audit so far (footers read; its row checks are running)`
      : `${words} found by the Audit`
  return { severity, count, words, label }
}

export function ViewTabs() {
  const current = useStore(viewStore, (s) => s.view)
  const badge = useAuditBadge()
  const onKey = (event: React.KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (step === 0) return
    const next = views[(index + step + views.length) % views.length]
    viewStore.getState().show(next.id)
    document.getElementById(`tab-${next.id}`)?.focus()
  }
  return (
    <nav className="view-tabs" role="tablist" aria-label="Views">
      {views.map((v, i) => (
        <button key={v.id} id={`tab-${v.id}`} role="tab" type="button" aria-selected={v.id === current}
          aria-controls={`view-${v.id}`} tabIndex={v.id === current ? 0 : -1}
          aria-label={v.id === 'audit' && badge ? `${v.label}, ${badge.label}` : undefined}
          title={v.id === 'audit' && badge ? badge.label : undefined}
          onClick={() => viewStore.getState().show(v.id)} onKeyDown={(e) => onKey(e, i)}>
          {v.label}
          {v.id === 'audit' && badge && (
            // the space keeps the visible text ("Audit 4") inside the tab's name ("Audit, 4 errors")
            <>{' '}<span className={`tab-badge ${badge.severity}`} aria-hidden="true" data-severity={badge.severity} data-count={badge.count}>
              {formatCount(badge.count)}
            </span></>
          )}
        </button>
      ))}
    </nav>
  )
}
