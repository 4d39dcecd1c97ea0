/**
 * The Examples tab: the list and the Inspector side by side (list + detail), so choosing an example keeps the
 * list's place and focus. The shell composes them: features do not import each other.
 */
import { ExamplesView } from '../features/examples/examples-view.tsx'
import { InspectorView } from '../features/inspector/inspector-view.tsx'

export function ExamplesWorkspace() {
  return (
    <div className="workspace">
      <div className="workspace-list"><ExamplesView /></div>
      <aside className="workspace-detail" aria-label="Selected example"><InspectorView compact /></aside>
    </div>
  )
}
