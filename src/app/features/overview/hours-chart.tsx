/**
 * Horizontal bars of hours (or rows) per group (corpus, split), most first; past `maxBars` the rest is one bar.
 * Tooltips carry the exact values; the table beside it carries the same numbers as text. Plain SVG
 * (components/charts/svg/scales.ts says why).
 */
import { BandBarChart } from '../../components/charts/svg/band-bar-chart.tsx'
import { categorical, splitColour } from '../../components/charts/theme.ts'
import { exactText, formatCount, formatHours } from '../../lib/format.ts'

/** At most this many bars; the table lists every group. */
export const maxBars = 12

export interface ChartGroup {
  key: string
  hours: number
  rows: number
}

export function HoursChart({ groups, noun, metric, log }: {
  groups: ChartGroup[]
  /** `corpus`, `split`: used in the accessible name and the colours. */
  noun: string
  metric: 'hours' | 'rows'
  log: boolean
}) {
  const top = groups.slice(0, maxBars)
  const rest = groups.slice(maxBars)
  const shown: ChartGroup[] = [...top, ...(rest.length > 0 ? [{ key: `${rest.length} more`, hours: rest.reduce((s, g) => s + g.hours, 0), rows: rest.reduce((s, g) => s + g.rows, 0) }] : [])]
  const bars = shown.map((g, i) => ({ key: g.key, value: log && g[metric] <= 0 ? null : g[metric], fill: noun === 'split' ? splitColour(g.key) : categorical(i) }))
  const height = Math.max(100, shown.length * 28 + 40)
  const positive = bars.map((b) => b.value).filter((v): v is number => v !== null && v > 0)
  const format = metric === 'hours' ? formatHours : formatCount
  return (
    <div className="chart" role="img"
      aria-label={`Bar chart of ${metric} per ${noun}${log ? ' (log scale)' : ''} (${groups.length} ${noun === 'corpus' ? 'corpora' : `${noun}s`}); the table beside it lists the same values.`}>
      <BandBarChart bars={bars} orientation="rows" height={height} margin={{ top: 4, right: 16, bottom: 24, left: 114 }} gap={0.15}
        value={{ format, log, floor: log ? Math.min(...positive, 1) / 2 : undefined }} categoryLabel={(i) => shown[i].key}
        tooltip={(i) => ({ title: shown[i].key, lines: [`${formatHours(shown[i].hours)} (${exactText(shown[i].hours, 'h')})`, `${formatCount(shown[i].rows)} rows`] })} />
    </div>
  )
}
