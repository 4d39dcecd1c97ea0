/** A beta in [0, 1]: a slider and a typed value, both labelled; `null` shows the config's value. */
import { useId, useState } from 'react'

export function BetaControl({ label, value, configured, onChange }: { label: string; value: number | null; configured: number | null; onChange: (v: number | null) => void }) {
  const id = useId()
  const effective = value ?? configured ?? 0.5
  const [text, setText] = useState(String(effective))
  const [shown, setShown] = useState(effective)
  if (shown !== effective) {
    setShown(effective)
    setText(String(effective))
  }
  const typed = Number(text)
  const bad = text.trim() === '' || !Number.isFinite(typed) || typed < 0 || typed > 1
  return (
    <div className="beta-control">
      <label htmlFor={`${id}-range`}>{label}</label>
      <input id={`${id}-range`} type="range" min={0} max={1} step={0.01} value={effective} aria-valuetext={String(effective)}
        onChange={(e) => onChange(Number(e.target.value))} />
      <label htmlFor={`${id}-number`} className="visually-hidden">{label} (typed)</label>
      <input id={`${id}-number`} type="number" min={0} max={1} step="any" value={text} aria-invalid={bad}
        onChange={(e) => {
          setText(e.target.value)
          const v = Number(e.target.value)
          if (e.target.value.trim() !== '' && Number.isFinite(v) && v >= 0 && v <= 1) {
            setShown(v)
            onChange(v)
          }
        }} />
      {value !== null && <button type="button" onClick={() => onChange(null)}>Use config ({configured ?? 'unset'})</button>}
    </div>
  )
}
