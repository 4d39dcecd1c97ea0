/** Renders the selected view inside its tab panel. */
import { useStore } from 'zustand'
import { viewById } from './views.tsx'
import { viewStore } from '../stores/use-view-store.ts'

export function CurrentView() {
  const view = viewById(useStore(viewStore, (s) => s.view))
  const View = view.component
  return (
    <section id={`view-${view.id}`} role="tabpanel" aria-labelledby={`tab-${view.id}`}>
      <View />
    </section>
  )
}
