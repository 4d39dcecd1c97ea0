/**
 * Every item ranked, most first, zoomable to any rank range: the bars of the ranks in the window, and under them a
 * brush over all of them (svg/rank-brush.tsx: the shape of every value, the window, a slider at each end), in a
 * `group` (not an `img`: the brush's handles are controls). The window moves by dragging the brush or its handles
 * (arrow keys on a focused handle), by typing the first and last rank, or with the buttons (top, earlier, later, zoom
 * in, zoom out, all). Clicking a bar toggles its item (the views focus that language). Plain SVG (svg/scales.ts says
 * why): a window wider than the plot has pixels draws one column per pixel, each the largest of its ranks.
 */
import { memo, useMemo, useState } from 'react'
import { clampRange, panRange, rankItems, zoomRange, type RankRange } from '../../lib/distribution.ts'
import { formatCount, formatShare } from '../../lib/format.ts'
import { NumberField } from '../number-field.tsx'
import type { Item } from './distribution-charts.tsx'
import { angledLabelRoom, BandBarChart } from './svg/band-bar-chart.tsx'
import { RankBrush } from './svg/rank-brush.tsx'
import { rankColumns } from './svg/scales.ts'
import { categorical } from './theme.ts'

/** Ranks shown at first. */
const initialWindow = 40
/** The plot's margins at least (the bottom and left grow with the labels): the brush lines up with the plot (left, right). */
const baseMargin = { top: 8, right: 16, bottom: 68, left: 80 }
/** The chart's height above its bottom margin (the plot and its top margin), whatever room the labels take. */
const aboveLabels = 208
/** At most this many columns in the window (past it, a column stands for several ranks): about one per px at 1,920 px. */
const mostColumns = 1600

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
    let least = Infinity
    for (const p of points) if (p.value > 0 && p.value < least) least = p.value
    return least < Infinity ? least / 2 : 1
  }, [points])
  const values = useMemo(() => points.map((p) => p.value), [points])
  // the window's columns: one per rank, or past `mostColumns` one per run of ranks (its first, largest, value)
  const columns = useMemo(() => rankColumns(shown.length, mostColumns), [shown.length])
  const bars = useMemo(() => columns.map((c) => {
    const p = shown[c.from]
    let focused = false
    for (let k = c.from; k <= c.to && !focused; k++) focused = selected?.has(shown[k].key) ?? false
    return { key: p.key, value: log && !(p.value > 0) ? null : p.value, fill: focused ? 'var(--accent-strong)' : categorical(0) }
  }), [columns, shown, selected, log])
  // the labels of the window's columns, angled under the plot: the margins leave them room (long partition names such
  // as `commonvoice/eng_Latn` were cut off by the svg's bottom edge, over the brush)
  const margin = useMemo(() => {
    let chars = 1
    for (const c of columns) chars = Math.max(chars, shown[c.from]?.key.length ?? 0)
    const room = angledLabelRoom(chars)
    return { ...baseMargin, bottom: Math.max(baseMargin.bottom, room.down), left: Math.max(baseMargin.left, room.left) }
  }, [columns, shown])
  if (n === 0) return null
  const move = (next: RankRange) => setAsked(clampRange(next, n))
  const describe = (i: number) => {
    const c = columns[i], p = shown[c.from]
    if (c.from === c.to) return { title: `#${formatCount(p.rank)} ${label(p.key)} (${p.key})`, lines: [`${format(p.value)} ${metric}`] }
    const last = shown[c.to]
    return { title: `#${formatCount(p.rank)}–#${formatCount(last.rank)} (${formatCount(c.to - c.from + 1)} ${noun[1]})`, lines: [`${format(last.value)} – ${format(p.value)} ${metric}`, 'click to zoom into these ranks'] }
  }
  const pick = (i: number) => {
    const c = columns[i]
    if (c.from === c.to) { if (onSelect) onSelect(shown[c.from].key); return }
    move({ start: range.start + c.from, end: range.start + c.from + initialWindow - 1 })
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
        <BandBarChart bars={bars} orientation="columns" height={aboveLabels + margin.bottom} margin={margin} gap={bars.length > 200 ? 0 : 0.1}
          value={{ format, log, floor: log ? logFloor : undefined }} angled categoryLabel={(i) => shown[columns[i].from].key}
          tooltip={describe} onPick={onSelect || columns.length < shown.length ? pick : undefined}
          keyboardLabel={`Ranked bars (Enter ${columns.length < shown.length ? 'zooms into a bar' : 'focuses one'})`} />
        <RankBrush values={values} range={range} onChange={move} left={margin.left} right={margin.right} log={log} noun={noun[1]} />
      </div>
      <figcaption>
        <span className="stat">Ranks <strong>{formatCount(range.start + 1)}–{formatCount(range.end + 1)}</strong> of {formatCount(n)}: <strong>{format(inWindow)}</strong> ({formatShare(total > 0 ? inWindow / total : 0)} of the {metric})</span>
        <span className="hint">Drag the brush (or its handles) under the bars to zoom into any rank range; click a bar to focus its {noun[0]}.</span>
      </figcaption>
    </figure>
  )
})
