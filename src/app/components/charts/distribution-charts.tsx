/**
 * Charts that carry a long tail (1,600 languages) in a fixed height: the histogram of a value per item on a log
 * axis, the cumulative coverage curve, and the top N with the rest summarized as one bar. Each draws at most a few
 * hundred marks; clicking a bar hands its items to `onSelect` (the views focus those languages).
 */
import { useMemo } from 'react'
import { Bar, BarChart, CartesianGrid, Cell, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { countBelow, coverageCurve, itemsForShare, logHistogram } from '../../lib/distribution.ts'
import { formatCount, formatShare, plural } from '../../lib/format.ts'
import { categorical, tickStyle, tooltipProps } from './theme.ts'

/** One item of a distribution: its key (a language code) and value. */
export interface Item {
  key: string
  value: number
}

/** Histogram of `items`' values on log bins (4 per decade); a bar's click selects its items. */
export function LogHistogram({ items, noun, format, thresholds, onSelect, label }: {
  items: readonly Item[]
  /** `[singular, plural]`, e.g. `['language', 'languages']`. */
  noun: [string, string]
  format: (v: number) => string
  /** Values to count under, e.g. 1 h and 10 min; each is drawn as a reference line. */
  thresholds?: number[]
  onSelect?: (keys: string[], what: string) => void
  label: string
}) {
  const { bins, nonPositive } = useMemo(() => logHistogram(items.map((i) => i.value)), [items])
  const data = bins.map((b, i) => ({ i, count: b.count, range: `${format(b.lo)} – ${format(b.hi)}`, mid: Math.sqrt(b.lo * b.hi), lo: b.lo, hi: b.hi }))
  const below = thresholds ? countBelow(items.map((i) => i.value), thresholds) : []
  const binOf = (v: number) => data.findIndex((d) => v >= d.lo && v < d.hi)
  return (
    <figure className="chart-figure">
      <div className="chart" role="img" aria-label={`${label}: histogram of ${plural(items.length, noun[0], noun[1])} on a log axis (${data.length} bins); the table lists every value.`}>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 28, left: 0 }} barCategoryGap={1}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--grid)" />
            <XAxis dataKey="i" tick={tickStyle} interval="preserveStartEnd" tickFormatter={(i: number) => format(data[i]?.lo ?? 0)}
              label={{ value: `${label} (log scale)`, position: 'insideBottom', offset: -16, fill: 'var(--muted)', fontSize: 12 }} />
            <YAxis tick={tickStyle} allowDecimals={false} width={44} />
            <Tooltip {...tooltipProps} labelFormatter={(i) => data[Number(i)]?.range ?? ''} formatter={(v) => [formatCount(Number(v)), noun[1]]} />
            {thresholds?.map((t) => { const b = binOf(t); return b >= 0 ? <ReferenceLine key={t} x={b} stroke="var(--warning)" strokeDasharray="4 3" /> : null })}
            <Bar dataKey="count" isAnimationActive={false} cursor={onSelect ? 'pointer' : undefined}
              onClick={(_, index) => { const b = bins[index]; if (b && onSelect) onSelect(b.items.map((k) => items[k].key), `${format(b.lo)} – ${format(b.hi)}`) }}>
              {data.map((d) => <Cell key={d.i} fill={categorical(0)} />)}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption>
        {thresholds?.map((t, k) => <span key={t} className="stat"><strong>{formatCount(below[k])}</strong> {below[k] === 1 ? noun[0] : noun[1]} under {format(t)}</span>)}
        {nonPositive > 0 && <span className="stat"><strong>{formatCount(nonPositive)}</strong> with none</span>}
        {onSelect && <span className="hint">Click a bar to focus its {noun[1]}.</span>}
      </figcaption>
    </figure>
  )
}

/** The share of the total held by the top-k items, k on the x axis; the ranks holding 50%, 80% and 95% are named. */
export function CoverageCurve({ items, noun, label }: { items: readonly Item[]; noun: [string, string]; label: string }) {
  const values = useMemo(() => items.map((i) => i.value), [items])
  const points = useMemo(() => coverageCurve(values), [values])
  const marks = [0.5, 0.8, 0.95].map((share) => ({ share, rank: itemsForShare(values, share) }))
  return (
    <figure className="chart-figure">
      <div className="chart" role="img" aria-label={`Cumulative coverage: share of ${label} held by the top ${noun[1]}; ${marks.map((m) => `${m.rank} hold ${formatShare(m.share)}`).join(', ')}.`}>
        <ResponsiveContainer width="100%" height={220}>
          <LineChart data={points} margin={{ top: 8, right: 12, bottom: 28, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
            <XAxis dataKey="rank" type="number" domain={[0, 'dataMax']} tick={tickStyle} allowDecimals={false}
              label={{ value: `top ${noun[1]} (ranked by ${label})`, position: 'insideBottom', offset: -16, fill: 'var(--muted)', fontSize: 12 }} />
            <YAxis domain={[0, 1]} tick={tickStyle} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} width={44} />
            <Tooltip {...tooltipProps} cursor={{ stroke: 'var(--muted)' }} labelFormatter={(r) => `top ${formatCount(Number(r))} ${noun[1]}`} formatter={(v) => [formatShare(Number(v)), `share of ${label}`]} />
            {marks.map((m) => <ReferenceLine key={m.share} x={m.rank} stroke="var(--border-strong)" strokeDasharray="3 3" />)}
            <Line dataKey="share" dot={false} stroke={categorical(1)} strokeWidth={2} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption>
        {marks.map((m) => <span key={m.share} className="stat"><strong>{formatCount(m.rank)}</strong> {m.rank === 1 ? noun[0] : noun[1]} hold {formatShare(m.share)}</span>)}
      </figcaption>
    </figure>
  )
}

/**
 * The top `n` items as horizontal bars; the rest is summed in the caption (a bar for it would dwarf the top at
 * 1,600 items). Clicking a bar toggles its item.
 */
export function TopBars({ items, n = 15, noun, format, label, onSelect, selected, chartLabel }: {
  items: readonly Item[]
  n?: number
  noun: [string, string]
  format: (v: number) => string
  label: (key: string) => string
  onSelect?: (key: string) => void
  selected?: ReadonlySet<string>
  /** The accessible name's start, e.g. `Bar chart of hours per language`. */
  chartLabel: string
}) {
  const sorted = useMemo(() => [...items].sort((a, b) => b.value - a.value), [items])
  const data = sorted.slice(0, n)
  const rest = sorted.slice(n)
  const total = sorted.reduce((s, r) => s + r.value, 0)
  const restValue = rest.reduce((s, r) => s + r.value, 0)
  const height = 40 + data.length * 22
  return (
    <figure className="chart-figure">
      <div className="chart" role="img" aria-label={`${chartLabel} (top ${data.length} of ${formatCount(items.length)}${rest.length > 0 ? ', the rest summed below' : ''}); the table lists every value.`}>
        <ResponsiveContainer width="100%" height={height}>
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }} barCategoryGap={3}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="var(--grid)" />
            <XAxis type="number" tick={tickStyle} tickFormatter={format} />
            <YAxis type="category" dataKey="key" width={84} interval={0} tick={tickStyle} />
            <Tooltip {...tooltipProps} labelFormatter={(k) => label(String(k))} formatter={(v) => [format(Number(v)), '']} separator="" />
            <Bar dataKey="value" isAnimationActive={false} cursor={onSelect ? 'pointer' : undefined}
              onClick={(_, index) => { const d = data[index]; if (d && onSelect) onSelect(d.key) }}>
              {data.map((d) => <Cell key={d.key} fill={selected?.has(d.key) ? 'var(--accent-strong)' : categorical(0)} />)}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      {rest.length > 0 && (
        <figcaption>
          <span className="stat">+ <strong>{formatCount(rest.length)}</strong> other {rest.length === 1 ? noun[0] : noun[1]}: <strong>{format(restValue)}</strong> ({formatShare(total > 0 ? restValue / total : 0)})</span>
        </figcaption>
      )}
    </figure>
  )
}
