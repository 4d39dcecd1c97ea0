/**
 * Horizontal bar chart of hours (or rows) per group (language, corpus, split), sorted as given (most hours first),
 * with an optional log scale and tooltips carrying the exact values. A table beside it carries the same numbers.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { formatCount, formatHours } from '../../lib/format.ts'

/** At most this many bars; the table lists every group. */
export const maxBars = 40

export interface ChartGroup {
  key: string
  hours: number
  rows: number
}

export function HoursChart({ groups, noun, metric, log, label = (k) => k }: {
  groups: ChartGroup[]
  /** `language`, `corpus`, `split`: used in the accessible name. */
  noun: string
  metric: 'hours' | 'rows'
  log: boolean
  /** Tooltip title of a key (e.g. the language's name). */
  label?: (key: string) => string
}) {
  const shown = groups.slice(0, maxBars).map((g) => ({ ...g, value: log && g[metric] <= 0 ? null : g[metric] }))
  const height = Math.max(120, shown.length * 26 + 40)
  const axisWidth = Math.min(180, 16 + 8 * Math.max(4, ...shown.map((g) => g.key.length)))
  const positive = shown.map((g) => g.value).filter((v): v is number => v !== null && v > 0)
  const format = (v: number) => (metric === 'hours' ? formatHours(v) : formatCount(v))
  return (
    <div className="chart" role="img"
      aria-label={`Bar chart of ${metric} per ${noun}${log ? ' (log scale)' : ''} (${shown.length} of ${groups.length}); the table beside it lists the same values.`}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={shown} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          {log
            ? <XAxis type="number" scale="log" domain={[Math.min(...positive, 1) / 2, 'auto']} allowDataOverflow tickFormatter={format} />
            : <XAxis type="number" tickFormatter={format} />}
          <YAxis type="category" dataKey="key" width={axisWidth} interval={0} />
          <Tooltip
            formatter={(_v, _n, item) => {
              const g = item.payload as ChartGroup
              return [`${g.hours} h · ${formatCount(g.rows)} rows`, metric === 'hours' ? 'Hours (exact)' : 'Rows']
            }}
            labelFormatter={(key) => `${label(String(key))}${label(String(key)) === String(key) ? '' : ` (${String(key)})`}`}
          />
          <Bar dataKey="value" name={metric} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      {groups.length > maxBars && <p className="hint">Showing the {maxBars} {noun}s with the most hours.</p>}
    </div>
  )
}
