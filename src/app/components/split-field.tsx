/**
 * The split training reads, chosen from the splits the dataset has (a dropdown), or typed (`train_mls` selects the
 * `train` split of corpus `mls`, as the reference reads it); a split that selects nothing says so next to the field.
 */
import { useId, useState } from 'react'

/** The split value and corpus a split string selects (`train_mls` → train of mls: cut at the first `_`). */
export function parseSplitString(text: string): { split: string; corpus: string | null } {
  const cut = text.indexOf('_')
  return cut < 0 ? { split: text, corpus: null } : { split: text.slice(0, cut), corpus: text.slice(cut + 1) }
}

/** Why `text` selects nothing in a dataset with these splits and corpora, or `null`. */
export function splitProblem(text: string, splits: readonly string[], corpora: readonly string[]): string | null {
  if (text.trim() === '') return 'enter a split'
  const { split, corpus } = parseSplitString(text)
  if (!splits.includes(split)) return `the dataset has no split “${split}” (it has ${splits.join(', ') || 'none'})`
  if (corpus !== null && !corpora.includes(corpus)) return `“${text}” selects corpus “${corpus}”, which the dataset does not have (${corpora.join(', ')})`
  return null
}

export function SplitField({ value, splits, corpora, onChange, id: given }: {
  value: string
  splits: readonly string[]
  corpora: readonly string[]
  onChange: (split: string) => void
  id?: string
}) {
  const own = useId()
  const id = given ?? own
  const known = splits.includes(value)
  const [typing, setTyping] = useState(!known && value !== '')
  const problem = splits.length > 0 ? splitProblem(value, splits, corpora) : null
  return (
    <div className="field">
      <label htmlFor={id}>Split</label>
      <div className="split-field">
        <select id={id} value={typing || !known ? '\u0000other' : value} aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => {
            if (e.target.value === '\u0000other') setTyping(true)
            else { setTyping(false); onChange(e.target.value) }
          }}>
          {splits.map((s) => <option key={s} value={s}>{s}</option>)}
          <option value={'\u0000other'}>other (type it)…</option>
        </select>
        {(typing || !known) && (
          <input type="text" aria-label="Split string" value={value} spellCheck={false} placeholder="train_mls"
            aria-invalid={problem !== null} onChange={(e) => onChange(e.target.value)} />
        )}
      </div>
      {problem && <p id={`${id}-problem`} className="field-problem" role="alert">{problem}: training would find no files.</p>}
    </div>
  )
}
