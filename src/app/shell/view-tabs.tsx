/** The explorer's tab bar (a `tablist`, arrow keys move between tabs). */
import { useStore } from 'zustand'
import { views } from './views.tsx'
import { viewStore } from '../stores/use-view-store.ts'

export function ViewTabs() {
  const current = useStore(viewStore, (s) => s.view)
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
          onClick={() => viewStore.getState().show(v.id)} onKeyDown={(e) => onKey(e, i)}>
          {v.label}
        </button>
      ))}
    </nav>
  )
}
