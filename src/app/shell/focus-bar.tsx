/** The language focus every view filters to (set by clicking bars and rows), with one-click removal. */
import { languageLabel } from '../lib/language-names.ts'
import { focusStore, useFocusStore } from '../stores/focus-store.ts'

const shownChips = 8

export function FocusBar() {
  const languages = useFocusStore((s) => s.languages)
  if (languages.length === 0) return null
  return (
    <div className="focus-bar" role="region" aria-label="Language focus">
      <strong>Focus:</strong>
      {languages.slice(0, shownChips).map((l) => (
        <span key={l} className="chip" title={languageLabel(l)}>
          <code>{l}</code>
          <button type="button" aria-label={`Remove ${l} from the focus`} onClick={() => focusStore.getState().toggle(l)}>×</button>
        </span>
      ))}
      {languages.length > shownChips && <span className="hint">and {languages.length - shownChips} more</span>}
      <button type="button" onClick={() => focusStore.getState().clear()}>Clear focus ({languages.length})</button>
      <span className="hint">Every view shows these languages only.</span>
    </div>
  )
}
