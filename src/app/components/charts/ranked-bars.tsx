/**
 * Every item ranked, most first, zoomable to any rank range: the bars of the ranks in the window, and under them a
 * brush over all of them (recharts `Brush`; no panorama chart inside it: a nested chart's hidden y axis took over
 * the bars' axis), in a `group` (not an `img`: the brush handles inside are controls). The window moves by dragging the brush or its handles (arrow keys on a focused handle), by typing the
 * first and last rank, or with the buttons (top, earlier, later, zoom in, zoom out, all). Clicking a bar toggles its
 * item (the views focus that language).
 */
import { memo, useMemo, useState } from 'react'
import { Bar, BarChart, Brush, CartesianGrid, Rectangle, ResponsiveContainer, Tooltip, XAxis, YAxis, type BarShapeProps } from 'recharts'
import { clampRange, panRange, rankItems, zoomRange, type RankRange } from '../../lib/distribution.ts'
import { formatCount, formatShare } from '../../lib/format.ts'
import { NumberField } from '../number-field.tsx'
import type { Item } from './distribution-charts.tsx'
import { categorical, noGridLines, tickStyle, tooltipProps } from './theme.ts'

/** Ranks shown at first. */
const initialWindow = 40
/** Above this many bars in the window, the axis names every few bars (the tooltip names each). */
const namedBars = 60

interface Point {
  rank: number
  key: string
  value: number
}

/** Memoized: the Overview renders it from a deferred copy of its items (a background pass), so equal props skip it. */
export const RankedBars = memo(function RankedBars({ items, noun, format, label, onSelect, selected, chartLabel, metric }: {
  items: readonly Item[]
  noun: [string, string]
  format: (v: number) => string
  /** A key's readable name (tooltips). */
  label: (key: string) => string
  onSelect?: (key: string) => void
  selected?: ReadonlySet<string>
  /** The accessible name's start, e.g. `Bar chart of hours per language`. */
  chartLabel: string
  /** What the value is, e.g. `hours`. */
  metric: string
}) {
  const points: Point[] = useMemo(() => rankItems(items), [items])
  const n = points.length
  const [asked, setAsked] = useState<RankRange>({ start: 0, end: initialWindow - 1 })
  const [log, setLog] = useState(false)
  const range = clampRange(asked, n)
  const total = useMemo(() => points.reduce((s, p) => s + p.value, 0), [points])
  const inWindow = useMemo(() => points.slice(range.start, range.end + 1).reduce((s, p) => s + p.value, 0), [points, range.start, range.end])
  const size = range.end - range.start + 1
  const shown = useMemo(() => points.slice(range.start, range.end + 1), [points, range.start, range.end])
  const logFloor = useMemo(() => {
    const positive = points.filter((p) => p.value > 0).map((p) => p.value)
    return positive.length > 0 ? Math.min(...positive) / 2 : 1
  }, [points])
  if (n === 0) return null
  const move = (next: RankRange) => setAsked(clampRange(next, n))
  const shape = (props: BarShapeProps) => {
    const p = props.payload as Point
    return <Rectangle {...props} fill={selected?.has(p.key) ? 'var(--accent-strong)' : categorical(0)} />
  }
  return (
    <figure className="chart-figure ranked-bars">
      <div className="ranked-controls" role="group" aria-label="Rank range">
        <NumberField id="ranked-from" label="From rank" value={range.start + 1} rule={{ min: 1, max: n, integer: true }}
          onValue={(v) => { if (v !== null) move({ start: v - 1, end: Math.max(v - 1, range.end) }) }} />
        <NumberField id="ranked-to" label="To rank" value={range.end + 1} rule={{ min: 1, max: n, integer: true }}
          onValue={(v) => { if (v !== null) move({ start: Math.min(range.start, v - 1), end: v - 1 }) }} />
        <div className="row">
          <button type="button" onClick={() => move({ start: 0, end: size - 1 })} disabled={range.start === 0}>Top</button>
          <button type="button" onClick={() => move(panRange(range, -1, n))} disabled={range.start === 0}>← Earlier</button>
          <button type="button" onClick={() => move(panRange(range, 1, n))} disabled={range.end === n - 1}>Later →</button>
          <button type="button" onClick={() => move(zoomRange(range, 0.5, n))} disabled={size <= 5}>Zoom in</button>
          <button type="button" onClick={() => move(zoomRange(range, 2, n))} disabled={size === n}>Zoom out</button>
          <button type="button" onClick={() => move({ start: 0, end: n - 1 })} disabled={size === n}>All {formatCount(n)}</button>
          <label className="check"><input type="checkbox" checked={log} onChange={(e) => setLog(e.target.checked)} /> Logarithmic axis</label>
        </div>
      </div>
      <div className="chart" role="group" data-start={range.start + 1} data-end={range.end + 1}
        aria-label={`${chartLabel}, ranked: ranks ${formatCount(range.start + 1)} to ${formatCount(range.end + 1)} of ${formatCount(n)} ${noun[1]}${log ? ' (log scale)' : ''}; the table lists every value.`}>
        {/* the bars draw only the ranks in the window: recharts works over all of its data on every render, and
            1,600–8,000 bars (categorical axis, selectors, text measuring) were seconds of main-thread work */}
        <ResponsiveContainer width="100%" height={276}>
          <BarChart data={shown} margin={{ top: 8, right: 16, bottom: 4, left: 8 }} barCategoryGap={size > 200 ? 0 : 1}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} verticalCoordinatesGenerator={noGridLines} stroke="var(--grid)" />
            <XAxis dataKey="key" tick={{ ...tickStyle, fontSize: 11 }} angle={-50} textAnchor="end" height={64} interval={size > namedBars ? 'preserveStartEnd' : 0} />
            {log
              ? <YAxis scale="log" domain={[logFloor, 'auto']} allowDataOverflow tick={tickStyle} tickFormatter={format} width={72} interval={0} />
              : <YAxis tick={tickStyle} tickFormatter={format} width={72} interval={0} />}
            <Tooltip {...tooltipProps} labelFormatter={(_k, payload) => { const p = payload?.[0]?.payload as Point | undefined; return p ? `#${formatCount(p.rank)} ${label(p.key)} (${p.key})` : '' }}
              formatter={(v) => [format(Number(v)), metric]} />
            <Bar dataKey="value" isAnimationActive={false} cursor={onSelect ? 'pointer' : undefined} shape={shape}
              onClick={(d) => { const p = (d as { payload?: Point }).payload; if (p && onSelect) onSelect(p.key) }} />
          </BarChart>
        </ResponsiveContainer>
        {/* the brush over every rank, in a chart of its own with nothing else in it (no axis, no bars: cheap at any
            count; a chart nested inside the brush took over the bars' y axis). Keyed by the number of ranks:
            recharts' Brush keeps scale state from the previous data for one render when the data changes length
            under it (a progressive open's snapshots), and draws NaN positions */}
        <ResponsiveContainer width="100%" height={44}>
          <BarChart data={points} margin={{ top: 0, right: 16, bottom: 0, left: 80 }}>
            <Brush key={n} dataKey="rank" startIndex={range.start} endIndex={range.end} height={44} travellerWidth={10} stroke="var(--accent)" fill="var(--panel)"
              tickFormatter={(rank: number) => `#${formatCount(rank)}`} ariaLabel={`Rank range ${range.start + 1} to ${range.end + 1}: drag, or arrow keys on a handle`}
              onChange={(r) => { if (r.startIndex !== undefined && r.endIndex !== undefined && (r.startIndex !== range.start || r.endIndex !== range.end)) move({ start: r.startIndex, end: r.endIndex }) }} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption>
        <span className="stat">Ranks <strong>{formatCount(range.start + 1)}–{formatCount(range.end + 1)}</strong> of {formatCount(n)}: <strong>{format(inWindow)}</strong> ({formatShare(total > 0 ? inWindow / total : 0)} of the {metric})</span>
        <span className="hint">Drag the brush (or its handles) under the bars to zoom into any rank range; click a bar to focus its {noun[0]}.</span>
      </figcaption>
    </figure>
  )
})
