/**
 * The brush under a ranked chart: a strip over every rank with the shape of all the values in it (one area path, one
 * column per pixel), the window of ranks shown above as a band, and a handle at each end. Drag a handle to move that
 * end, drag the band to pan, click the strip elsewhere to centre the window there. Each handle is a slider (`role
 * slider`, arrow keys move one rank, Page Up / Page Down a tenth of the ranks, Home / End to the ends), so the window
 * moves from the keyboard too.
 */
import { useMemo, useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { clampRange, type RankRange } from '../../../lib/distribution.ts'
import { formatCount } from '../../../lib/format.ts'
import { rankColumns, valueScale } from './scales.ts'
import { useWidth } from './use-width.ts'

const stripHeight = 28
const height = 46
const handleWidth = 8

export interface RankBrushProps {
  /** The values in axis order (ranked, most first, or batches in stream order): the strip's picture. */
  values: readonly number[]
  range: RankRange
  onChange: (range: RankRange) => void
  /** px left and right of the strip, so it lines up with the plot above it. */
  left: number
  right: number
  /** The strip's picture on a log axis (as the chart above). */
  log?: boolean
  /** What the slots are, plural, e.g. `languages`. */
  noun: string
  /** Slot `i`'s name in the labels and the sliders (0-based), `#1`, `#2`… by default. */
  name?: (i: number) => string
  /** What one slot is in the sliders' names (`First rank shown`), `rank` by default. */
  unit?: string
}

/** The brush, filling its box's width. */
export function RankBrush(props: RankBrushProps) {
  const [ref, width] = useWidth<HTMLDivElement>()
  return (
    <div ref={ref} className="chart-box rank-brush" style={{ height }}>
      {width > 0 && <BrushStrip {...props} width={width} />}
    </div>
  )
}

type Drag = { mode: 'start' } | { mode: 'end' } | { mode: 'pan'; grab: number; from: RankRange }

function BrushStrip({ values, range, onChange, left, right, log, noun, name = rankName, unit = 'rank', width }: RankBrushProps & { width: number }) {
  const n = values.length
  const x0 = left, x1 = Math.max(left + 1, width - right), span = x1 - x0
  const edge = (i: number) => x0 + (i / n) * span
  const drag = useRef<Drag | null>(null)
  const area = useMemo(() => shape(values, x0, span, log ?? false), [values, x0, span, log])
  const size = range.end - range.start + 1
  const rankAt = (target: SVGElement, clientX: number) => {
    const box = (target.ownerSVGElement ?? target).getBoundingClientRect()
    return Math.min(n - 1, Math.max(0, Math.floor(((clientX - box.left - x0) / span) * n)))
  }
  const move = (next: RankRange) => {
    const r = clampRange(next, n)
    if (r.start !== range.start || r.end !== range.end) onChange(r)
  }
  const down = (e: PointerEvent<SVGElement>, mode: 'start' | 'end' | 'pan' | 'centre') => {
    e.preventDefault()
    e.stopPropagation()
    e.currentTarget.ownerSVGElement!.setPointerCapture(e.pointerId)
    const at = rankAt(e.currentTarget, e.clientX)
    if (mode === 'centre') {
      const start = Math.min(n - size, Math.max(0, at - Math.floor(size / 2)))
      move({ start, end: start + size - 1 })
      drag.current = { mode: 'pan', grab: at, from: { start, end: start + size - 1 } }
    } else drag.current = mode === 'pan' ? { mode, grab: at, from: range } : mode === 'start' ? { mode } : { mode }
  }
  const moved = (e: PointerEvent<SVGSVGElement>) => {
    const d = drag.current
    if (!d) return
    const at = rankAt(e.currentTarget, e.clientX)
    if (d.mode === 'start') move({ start: Math.min(at, range.end), end: range.end })
    else if (d.mode === 'end') move({ start: range.start, end: Math.max(at, range.start) })
    else {
      const width = d.from.end - d.from.start
      const start = Math.min(n - 1 - width, Math.max(0, d.from.start + at - d.grab))
      move({ start, end: start + width })
    }
  }
  const keys = (e: KeyboardEvent<SVGRectElement>, end: 'start' | 'end') => {
    const page = Math.max(1, Math.round(n / 10))
    const value = end === 'start' ? range.start : range.end
    const low = end === 'start' ? 0 : range.start, high = end === 'start' ? range.end : n - 1
    const next = { ArrowLeft: value - 1, ArrowDown: value - 1, ArrowRight: value + 1, ArrowUp: value + 1, PageDown: value - page, PageUp: value + page, Home: low, End: high }[e.key]
    if (next === undefined) return
    e.preventDefault()
    const v = Math.min(high, Math.max(low, next))
    move(end === 'start' ? { start: v, end: range.end } : { start: range.start, end: v })
  }
  const a = edge(range.start), b = edge(range.end + 1)
  const startLabel = name(range.start), endLabel = name(range.end)
  // the labels sit outside the window (start to its left, end to its right), inside the strip's ends
  const startX = Math.max(x0 + textWidth(startLabel), a - 3), endX = Math.min(x1 - textWidth(endLabel), b + 3)
  const handle = (end: 'start' | 'end', x: number, rank: number) => (
    <rect className="brush-handle" role="slider" tabIndex={0} x={x - handleWidth / 2} y={0} width={handleWidth} height={stripHeight} rx={2}
      aria-label={`${end === 'start' ? 'First' : 'Last'} ${unit} shown`} aria-valuemin={1} aria-valuemax={n} aria-valuenow={rank + 1}
      aria-valuetext={`${name(rank)} of ${formatCount(n)} ${noun}`} aria-orientation="horizontal"
      onPointerDown={(e) => down(e, end)} onKeyDown={(e) => keys(e, end)} />
  )
  return (
    <svg className="chart-svg" width={width} height={height}
      onPointerMove={moved} onPointerUp={() => { drag.current = null }} onPointerCancel={() => { drag.current = null }}>
      <rect className="brush-strip" x={x0} y={0} width={span} height={stripHeight} onPointerDown={(e) => down(e, 'centre')} />
      <path className="brush-shape" d={area} pointerEvents="none" />
      <rect className="brush-window" x={a} y={0} width={Math.max(1, b - a)} height={stripHeight} onPointerDown={(e) => down(e, 'pan')} />
      {handle('start', a, range.start)}
      {handle('end', b, range.end)}
      <text className="chart-tick brush-label" x={startX} y={stripHeight + 13} textAnchor="end" fontSize={12} aria-hidden="true">{startLabel}</text>
      <text className="chart-tick brush-label" x={endX} y={stripHeight + 13} textAnchor="start" fontSize={12} aria-hidden="true">{endLabel}</text>
    </svg>
  )
}

/** `#1` for slot 0: a rank. */
const rankName = (i: number) => `#${formatCount(i + 1)}`

/** The area path of `values` over `[x0, x0 + span]`, one column per px (the largest of its values), in the strip's height. */
function shape(values: readonly number[], x0: number, span: number, log: boolean): string {
  if (values.length === 0) return ''
  let max = 0, least = Infinity
  for (const v of values) if (v > 0) { if (v > max) max = v; if (v < least) least = v }
  const scale = valueScale(max > 0 ? max : 1, [stripHeight - 1, 3], String, log ? { log: true, floor: least < Infinity ? least / 2 : 0.5 } : {})
  const columns = rankColumns(values.length, span)
  const per = span / values.length
  let d = `M${x0},${stripHeight}`
  for (const c of columns) {
    let top = 0
    for (let k = c.from; k <= c.to; k++) if (values[k] > top) top = values[k]
    const y = top > 0 ? scale.at(top) : stripHeight
    d += `L${(x0 + c.from * per).toFixed(1)},${y.toFixed(1)}L${(x0 + (c.to + 1) * per).toFixed(1)},${y.toFixed(1)}`
  }
  return `${d}L${x0 + span},${stripHeight}Z`
}

/** About how wide `text` is in px at 12 px (the labels' font), to keep it inside the strip. */
function textWidth(text: string): number {
  return text.length * 7
}
