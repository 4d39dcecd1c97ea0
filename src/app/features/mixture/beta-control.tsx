/** A beta in [0, 1]: a slider and a typed value, both labelled, with the reason a typed value is not used; `null` shows the config's value. */
import { useId } from 'react'
import { NumberField } from '../../components/number-field.tsx'

export function BetaControl({ label, value, configured, onChange }: { label: string; value: number | null; configured: number | null; onChange: (v: number | null) => void }) {
  const id = useId()
  const effective = value ?? configured ?? 0.5
  return (
    <div className="beta-control">
      <div className="field">
        <label htmlFor={`${id}-range`}>{label}</label>
        <input id={`${id}-range`} type="range" min={0} max={1} step={0.01} value={effective} aria-valuetext={String(effective)}
          onChange={(e) => onChange(Number(e.target.value))} />
      </div>
      <NumberField label={`${label} (typed)`} value={effective} rule={{ min: 0, max: 1 }} onValue={(v) => onChange(v)}
        note={`0 = every partition equal, 1 = by hours${value === null ? ' · from the config' : ''}`} />
      {value !== null && <button type="button" onClick={() => onChange(null)}>Use config ({configured ?? 'unset'})</button>}
    </div>
  )
}
