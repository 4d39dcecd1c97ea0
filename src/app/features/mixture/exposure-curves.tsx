/**
 * Hours of each language's data the model has seen by every step up to N, log–log, one line per language: the
 * focused languages (the language focus every view shares), else the four most and the four least seen. The
 * "What the model sees" table below lists every language without a focus (the focused ones with one); clicking one
 * there focuses it here.
 */
import { useMemo } from 'react'
import type { ExposureCurveRow, ExposureReport } from '../../../engine/mixture/exposure-report.ts'
import { categorical } from '../../components/charts/theme.ts'
import { GridLines } from '../../components/charts/svg/band-bar-chart.tsx'
import { valueScale } from '../../components/charts/svg/scales.ts'
import { useWidth } from '../../components/charts/svg/use-width.ts'
import { formatCount, formatHours } from '../../lib/format.ts'
import { languageLabel } from '../../lib/language-names.ts'

const margin = { left: 64, right: 16, top: 10, bottom: 40 }
const height = 300

/** The languages the chart draws: the focused ones that have a curve (at most 8), else the 4 most and 4 least seen. */
export function curveLanguages(rows: readonly ExposureCurveRow[], focus: ReadonlySet<string>): ExposureCurveRow[] {
  const drawn = rows.filter((r) => r.hours_drawn !== null && r.hours_drawn > 0)
  if (focus.size > 0) return drawn.filter((r) => focus.has(r.language)).slice(0, 8)
  const sorted = [...drawn].sort((a, b) => (b.hours_drawn ?? 0) - (a.hours_drawn ?? 0) || (a.language < b.language ? -1 : 1))
  return sorted.length <= 8 ? sorted : [...sorted.slice(0, 4), ...sorted.slice(-4)]
}

export function ExposureCurves({ exposure, focus }: { exposure: Pick<ExposureReport, 'languages' | 'steps' | 'curve_steps'>; focus: ReadonlySet<string> }) {
  const [ref, width] = useWidth<HTMLDivElement>()
  const shown = useMemo(() => curveLanguages(exposure.languages, focus), [exposure, focus])
  const label = `Line chart, log–log: hours of data seen against training step for ${shown.length} of ${exposure.languages.length} languages (${shown.map((r) => r.language).join(', ')}); the table "What the model sees" lists every language.`
  return (
    <div>
      <div ref={ref} className="chart-box" style={{ height }} role="img" aria-label={label}>
        {width > 0 && shown.length > 0 && <Plot exposure={exposure} rows={shown} width={width} />}
      </div>
      <ul className="chart-legend" aria-label="Languages drawn">
        {shown.map((r, i) => (
          <li key={r.language}><span className="swatch" style={{ background: categorical(i) }} aria-hidden="true" />
            {languageLabel(r.language)} <span className="hint">{formatHours(r.hours_drawn ?? 0)} by step {formatCount(exposure.steps)}</span></li>
        ))}
      </ul>
    </div>
  )
}

function Plot({ exposure, rows, width }: { exposure: Pick<ExposureReport, 'curve_steps'>; rows: ExposureCurveRow[]; width: number }) {
  const plot = { left: margin.left, top: margin.top, right: Math.max(margin.left + 1, width - margin.right), bottom: height - margin.bottom }
  const steps = exposure.curve_steps
  const values = rows.flatMap((r) => r.curve.filter((v): v is number => v !== null && v > 0))
  const lo = Math.min(...values)
  const hi = Math.max(...values)
  const x = valueScale(Math.max(steps[steps.length - 1]!, 10), [plot.left, plot.right], (v) => formatCount(v), { log: true, floor: 1, count: 6 })
  const y = valueScale(hi, [plot.bottom, plot.top], (v) => formatHours(v), { log: true, floor: lo / 2, count: 5 })
  return (
    <svg className="chart-svg" width={width} height={height} aria-hidden="true">
      <GridLines ticks={y.ticks} columns plot={plot} />
      {rows.map((r, i) => {
        const d = r.curve.map((v, k) => (v !== null && v > 0 ? `${x.at(steps[k]!).toFixed(1)},${y.at(v).toFixed(1)}` : null)).filter((p) => p !== null)
        return <path key={r.language} className="chart-line" d={`M${d.join('L')}`} fill="none" stroke={categorical(i)} strokeWidth={2} />
      })}
      <line className="chart-axis-line" x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} />
      {y.ticks.map((t) => <text key={t.value} className="chart-tick" x={plot.left - 6} y={t.at} textAnchor="end" dominantBaseline="middle" fontSize={12}>{t.label}</text>)}
      {x.ticks.map((t) => <text key={t.value} className="chart-tick" x={t.at} y={plot.bottom + 14} textAnchor="middle" fontSize={12}>{t.label}</text>)}
      <text className="chart-axis-title" x={(plot.left + plot.right) / 2} y={height - 6} textAnchor="middle" fontSize={12}>optimizer step (log)</text>
      <text className="chart-axis-title" transform={`translate(12 ${(plot.top + plot.bottom) / 2}) rotate(-90)`} textAnchor="middle" fontSize={12}>hours seen (log)</text>
    </svg>
  )
}
