/**
 * Horizontal bars of hours (or rows) per group (corpus, split), most first; past `maxBars` the rest is one bar.
 * Tooltips carry the exact values; the table beside it carries the same numbers as text.
 */
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { categorical, splitColour, tickStyle, tooltipProps } from '../../components/charts/theme.ts'
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
  const shown = [...top, ...(rest.length > 0 ? [{ key: `${rest.length} more`, hours: rest.reduce((s, g) => s + g.hours, 0), rows: rest.reduce((s, g) => s + g.rows, 0) }] : [])]
    .map((g) => ({ ...g, value: log && g[metric] <= 0 ? null : g[metric] }))
  const height = Math.max(100, shown.length * 28 + 40)
  const positive = shown.map((g) => g.value).filter((v): v is number => v !== null && v > 0)
  const format = (v: number) => (metric === 'hours' ? formatHours(v) : formatCount(v))
  return (
    <div className="chart" role="img"
      aria-label={`Bar chart of ${metric} per ${noun}${log ? ' (log scale)' : ''} (${groups.length} ${noun === 'corpus' ? 'corpora' : `${noun}s`}); the table beside it lists the same values.`}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={shown} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }} barCategoryGap={4}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="var(--grid)" />
          {log
            ? <XAxis type="number" scale="log" domain={[Math.min(...positive, 1) / 2, 'auto']} allowDataOverflow tickFormatter={format} tick={tickStyle} />
            : <XAxis type="number" tickFormatter={format} tick={tickStyle} />}
          <YAxis type="category" dataKey="key" width={110} interval={0} tick={tickStyle} />
          <Tooltip {...tooltipProps} formatter={(_v, _n, item) => {
            const g = item.payload as ChartGroup
            return [`${formatHours(g.hours)} (${exactText(g.hours, 'h')}) · ${formatCount(g.rows)} rows`, '']
          }} separator="" />
          <Bar dataKey="value" name={metric} isAnimationActive={false}>
            {shown.map((g, i) => <Cell key={g.key} fill={noun === 'split' ? splitColour(g.key) : categorical(i)} />)}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}
