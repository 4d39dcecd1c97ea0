/**
 * A number typed by hand that explains itself: the text stays as typed, the value goes out only when it parses and
 * is in range, and the reason it does not shows next to the field (letters, out of range, not a whole number), so
 * results are never silently computed from another value than the one on screen.
 */
import { useId, useState } from 'react'

export interface NumberRule {
  min?: number
  max?: number
  integer?: boolean
  /** An empty field means "as configured" (`null`) instead of an error. */
  optional?: boolean
}

/** Why `text` is not a valid number under `rule`, or `null` with the value. */
export function parseNumberField(text: string, rule: NumberRule): { value: number | null; problem: string | null } {
  const t = text.trim()
  if (t === '') return rule.optional ? { value: null, problem: null } : { value: null, problem: 'enter a number' }
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(t.replaceAll('_', ''))) return { value: null, problem: `“${t}” is not a number` }
  const value = Number(t.replaceAll('_', ''))
  if (rule.integer && !Number.isInteger(value)) return { value: null, problem: `${t} is not a whole number` }
  if (rule.min !== undefined && value < rule.min) return { value: null, problem: `must be at least ${rule.min}, got ${t}` }
  if (rule.max !== undefined && value > rule.max) return { value: null, problem: `must be at most ${rule.max}, got ${t}` }
  return { value, problem: null }
}

export function NumberField({ label, value, rule, onValue, placeholder, note, id: given }: {
  label: string
  /** The value in the store (`null`: as configured). */
  value: number | null
  rule: NumberRule
  onValue: (value: number | null) => void
  placeholder?: string
  /** A line under the field (e.g. what the value means). */
  note?: string
  id?: string
}) {
  const own = useId()
  const id = given ?? own
  const [text, setText] = useState(value === null ? '' : String(value))
  const [shown, setShown] = useState(value)
  if (shown !== value) {
    // the store changed from elsewhere (URL, reset, slider): show it
    setShown(value)
    setText(value === null ? '' : String(value))
  }
  const { problem } = parseNumberField(text, rule)
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" inputMode="decimal" value={text} placeholder={placeholder} aria-invalid={problem !== null}
        aria-describedby={problem ? `${id}-problem` : note ? `${id}-note` : undefined} spellCheck={false}
        onChange={(e) => {
          setText(e.target.value)
          const parsed = parseNumberField(e.target.value, rule)
          if (parsed.problem === null) {
            setShown(parsed.value)
            onValue(parsed.value)
          }
        }} />
      {problem ? <p id={`${id}-problem`} className="field-problem" role="alert">{label}: {problem}; still using {value ?? 'the config’s value'}</p>
        : note ? <p id={`${id}-note`} className="field-note">{note}</p> : null}
    </div>
  )
}
