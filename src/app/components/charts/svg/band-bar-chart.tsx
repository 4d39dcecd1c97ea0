/**
 * A bar chart drawn as plain SVG: one bar per category slot, as columns (categories along x) or rows (categories
 * down y), on a linear or log value axis, with grid lines, dashed reference lines at slots, a hover band and box,
 * and a click that picks a slot. Every bar is a `rect.chart-bar`, every axis label a `text.chart-tick`.
 *
 * It renders in a few ms at 1,600 bars (scales.ts says why these charts are not recharts): the bars are one memoized
 * layer, so hovering redraws only the band and the box.
 */
import { memo, useMemo, useState, type KeyboardEvent, type PointerEvent } from 'react'
import { ChartTooltip, type TooltipContent } from './chart-tooltip.tsx'
import { band, labelledSlots, valueScale, type Tick } from './scales.ts'
import { useWidth } from './use-width.ts'

/**
 * One bar: `value` null draws none (a zero on a log axis); `fill` is a CSS colour. With `parts` the bar is a stack of
 * them, first at the base (`value` their sum; linear axis only), each a `rect.chart-segment`.
 */
export interface BandBar {
  key: string
  value: number | null
  fill: string
  parts?: readonly { value: number; fill: string }[]
}

/** Space around the plot, px. */
export interface Margin {
  top: number
  right: number
  bottom: number
  left: number
}

export interface BandBarChartProps {
  /** The bars in axis order (left to right, or top to bottom). */
  bars: readonly BandBar[]
  orientation: 'columns' | 'rows'
  /** px. */
  height: number
  margin: Margin
  /** The value axis: its tick labels, log or linear, its floor on a log axis, whole-number ticks. */
  value: { format: (v: number) => string; log?: boolean; floor?: number; integer?: boolean; count?: number }
  /** Slot `i`'s label on the category axis. */
  categoryLabel: (i: number) => string
  /** Columns only: labels turned −50° (many narrow slots); else flat, and thinned to fit. */
  angled?: boolean
  /** A title under the x axis. */
  axisTitle?: string
  /** Columns only: a title along the value (y) axis, e.g. `languages`; the left margin leaves room for it. */
  valueTitle?: string
  /**
   * With `onPick`, the chart is one keyboard stop named this (a slider over the slots): ← → (↑ ↓ for rows), Home and
   * End move a highlighted slot whose hover box shows, Enter or Space picks it. Without it the chart is not focusable.
   */
  keyboardLabel?: string
  /** Dashed lines through the centre of these slots. */
  references?: readonly { at: number; stroke: string }[]
  /** What the hover box says about slot `i`. */
  tooltip: (i: number) => TooltipContent
  /** Called with the slot clicked (the chart shows a pointer cursor when set). */
  onPick?: (i: number) => void
  /** The fraction of a slot left empty between bars. */
  gap?: number
}

const tickFont = 12
const angledFont = 11
/** Angled labels longer than this are clipped (with `…`), so the room they take below the plot is bounded. */
export const angledLabelChars = 32
/** The angle of angled labels (degrees, counter-clockwise from the axis). */
const angledDegrees = 50
/** A generous width of one character of an angled label (11 px sans-serif: most glyphs are narrower). */
const angledCharWidth = 7

/**
 * The room angled labels of up to `chars` characters take below the plot (`down`: from the plot's bottom edge, the
 * 8 px gap included) and left of their bar (`left`): what a chart's bottom and left margins must leave them so none
 * is cut off by the svg's edge or drawn under what follows it (the ranked chart's brush).
 */
export function angledLabelRoom(chars: number): { down: number; left: number } {
  const w = Math.min(chars, angledLabelChars) * angledCharWidth
  const a = (angledDegrees * Math.PI) / 180
  return { down: Math.ceil(8 + w * Math.sin(a) + angledFont * Math.cos(a)), left: Math.ceil(w * Math.cos(a) + angledFont * Math.sin(a) / 2) }
}

/** The chart, filling its box's width; `height` px tall. */
export function BandBarChart(props: BandBarChartProps) {
  const [ref, width] = useWidth<HTMLDivElement>()
  return (
    <div ref={ref} className="chart-box" style={{ height: props.height }}>
      {width > 0 && <BandBarPlot {...props} width={width} />}
    </div>
  )
}

function BandBarPlot({ bars, orientation, height, margin, value, categoryLabel, angled, axisTitle, valueTitle, keyboardLabel, references, tooltip, onPick, gap = 0.1, width }: BandBarChartProps & { width: number }) {
  const columns = orientation === 'columns'
  const plot = { left: margin.left, top: margin.top, right: Math.max(margin.left + 1, width - margin.right), bottom: Math.max(margin.top + 1, height - margin.bottom) }
  const plotWidth = plot.right - plot.left, plotHeight = plot.bottom - plot.top
  const max = useMemo(() => bars.reduce((m, b) => (b.value !== null && b.value > m ? b.value : m), 0), [bars])
  const count = value.count ?? (columns ? 5 : Math.max(2, Math.floor(plotWidth / 90)))
  const scale = useMemo(() => valueScale(max, columns ? [plot.bottom, plot.top] : [plot.left, plot.right], value.format,
    { log: value.log, floor: value.floor, integer: value.integer, count }), [max, columns, plot.bottom, plot.top, plot.left, plot.right, value.format, value.log, value.floor, value.integer, count])
  const slots = useMemo(() => (columns ? band(bars.length, plot.left, plotWidth, gap) : band(bars.length, plot.top, plotHeight, gap)),
    [columns, bars.length, plot.left, plot.top, plotWidth, plotHeight, gap])
  const rects = useMemo(() => bars.flatMap((b, i): Rect[] => {
    if (b.value === null) return []
    if (b.parts) {
      // a stack: each part from where the one before it ended
      let sum = 0
      return b.parts.filter((p) => p.value > 0).map((p, k) => {
        const from = scale.at(sum), to = scale.at(sum += p.value)
        return columns
          ? { key: `${b.key}/${k}`, x: slots.barAt(i), y: to, w: slots.width, h: from - to, fill: p.fill, part: true }
          : { key: `${b.key}/${k}`, x: from, y: slots.barAt(i), w: to - from, h: slots.width, fill: p.fill, part: true }
      })
    }
    const end = scale.at(b.value)
    // a value above the floor is at least a pixel long: a bar that rounds to nothing reads as no data
    const length = Math.max(b.value > 0 ? 1 : 0, Math.abs(scale.base - end))
    return [columns
      ? { key: b.key, x: slots.barAt(i), y: scale.base - length, w: slots.width, h: length, fill: b.fill }
      : { key: b.key, x: scale.base, y: slots.barAt(i), w: length, h: slots.width, fill: b.fill }]
  }), [bars, scale, slots, columns])
  const [hover, setHover] = useState<{ i: number; x: number; y: number } | null>(null)
  const pointAt = (e: PointerEvent<SVGRectElement>) => {
    const box = e.currentTarget.ownerSVGElement!.getBoundingClientRect()
    const x = e.clientX - box.left, y = e.clientY - box.top
    const i = slots.indexAt(columns ? x : y)
    return i < 0 ? null : { i, x, y }
  }
  // the keyboard's slot: shown as the hover is, at the slot's centre
  const keyTo = (i: number) => {
    const c = slots.centre(i)
    setHover(columns ? { i, x: c, y: plot.top + plotHeight / 2 } : { i, x: plot.left + plotWidth / 2, y: c })
  }
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const now = hover?.i ?? -1
    const next = { ArrowRight: now + 1, ArrowDown: now + 1, ArrowLeft: now - 1, ArrowUp: now - 1, Home: 0, End: bars.length - 1 }[e.key]
    if (next !== undefined) {
      e.preventDefault()
      keyTo(Math.max(0, Math.min(bars.length - 1, now < 0 && next < 0 ? 0 : next)))
    } else if ((e.key === 'Enter' || e.key === ' ') && hover && onPick) {
      e.preventDefault()
      onPick(hover.i)
    }
  }
  const keyText = hover && hover.i < bars.length ? (() => { const t = tooltip(hover.i); return [t.title, ...t.lines].join(', ') })() : 'no bar chosen: use the arrow keys'
  const labelled = columns ? labelledSlots(bars.length, slots.step, angled ? 16 : longestLabel(bars.length, categoryLabel) * 7 + 8) : bars.map((_, i) => i)
  return (
    <>
      <svg className="chart-svg" width={width} height={height} aria-hidden="true">
        <GridLines ticks={scale.ticks} columns={columns} plot={plot} />
        {hover && (columns
          ? <rect className="chart-hover" x={plot.left + hover.i * slots.step} y={plot.top} width={slots.step} height={plotHeight} />
          : <rect className="chart-hover" x={plot.left} y={plot.top + hover.i * slots.step} width={plotWidth} height={slots.step} />)}
        <BarsLayer rects={rects} />
        {references?.map((r) => {
          const c = slots.centre(r.at)
          return columns
            ? <line key={r.at} className="chart-reference" x1={c} x2={c} y1={plot.top} y2={plot.bottom} stroke={r.stroke} />
            : <line key={r.at} className="chart-reference" x1={plot.left} x2={plot.right} y1={c} y2={c} stroke={r.stroke} />
        })}
        <line className="chart-axis-line" x1={plot.left} x2={columns ? plot.right : plot.left} y1={plot.bottom} y2={columns ? plot.bottom : plot.top} />
        <g className="chart-value-axis">
          {scale.ticks.map((t) => columns
            ? <text key={t.value} className="chart-tick" x={plot.left - 6} y={t.at} textAnchor="end" dominantBaseline="middle" fontSize={tickFont}>{t.label}</text>
            : <text key={t.value} className="chart-tick" x={t.at} y={plot.bottom + 14} textAnchor="middle" fontSize={tickFont}>{t.label}</text>)}
        </g>
        <g className="chart-category-axis">
          {labelled.map((i) => {
            const c = slots.centre(i)
            if (!columns) return <text key={i} className="chart-tick" x={plot.left - 6} y={c} textAnchor="end" dominantBaseline="middle" fontSize={tickFont}>{clip(categoryLabel(i), Math.floor((margin.left - 8) / 7))}</text>
            return angled
              ? <text key={i} className="chart-tick" transform={`translate(${c},${plot.bottom + 8}) rotate(-${angledDegrees})`} textAnchor="end" dominantBaseline="middle" fontSize={angledFont}>{clip(categoryLabel(i), angledLabelChars)}</text>
              : <text key={i} className="chart-tick" x={c} y={plot.bottom + 14} textAnchor="middle" fontSize={tickFont}>{categoryLabel(i)}</text>
          })}
        </g>
        {valueTitle && columns && <text className="chart-axis-title" transform={`translate(12,${plot.top + plotHeight / 2}) rotate(-90)`} textAnchor="middle" fontSize={tickFont}>{valueTitle}</text>}
        {axisTitle && <text className="chart-axis-title" x={plot.left + plotWidth / 2} y={height - 6} textAnchor="middle" fontSize={tickFont}>{axisTitle}</text>}
        <rect className="chart-overlay" x={plot.left} y={plot.top} width={plotWidth} height={plotHeight} fill="transparent"
          style={onPick ? { cursor: 'pointer' } : undefined}
          onPointerMove={(e) => setHover(pointAt(e))} onPointerLeave={() => setHover(null)}
          onClick={(e) => { const p = pointAt(e as unknown as PointerEvent<SVGRectElement>); if (p && onPick) onPick(p.i) }} />
      </svg>
      {hover && hover.i < bars.length && <ChartTooltip content={tooltip(hover.i)} x={hover.x} y={hover.y} width={width} height={height} />}
      {onPick && keyboardLabel && bars.length > 0 && (
        <div className="chart-keys" role="slider" tabIndex={0} aria-label={keyboardLabel} aria-orientation={columns ? 'horizontal' : 'vertical'}
          aria-valuemin={1} aria-valuemax={bars.length} aria-valuenow={(hover?.i ?? 0) + 1} aria-valuetext={keyText}
          onKeyDown={onKey} onFocus={() => { if (!hover) keyTo(0) }} onBlur={() => setHover(null)} />
      )}
    </>
  )
}

interface Rect { key: string; x: number; y: number; w: number; h: number; fill: string; part?: boolean }

/** The bars; memoized so a hover (the band, the box) does not redraw 1,600 of them. */
const BarsLayer = memo(function BarsLayer({ rects }: { rects: readonly Rect[] }) {
  return (
    <g className="chart-bars">
      {rects.map((r) => <rect key={r.key} className={r.part ? 'chart-segment' : 'chart-bar'} x={r.x} y={r.y} width={r.w} height={r.h} fill={r.fill} />)}
    </g>
  )
})

/** Dashed lines across the plot at the value ticks. */
export function GridLines({ ticks, columns, plot }: { ticks: readonly Tick[]; columns: boolean; plot: { left: number; top: number; right: number; bottom: number } }) {
  return (
    <g className="chart-grid">
      {ticks.map((t) => columns
        ? <line key={t.value} x1={plot.left} x2={plot.right} y1={t.at} y2={t.at} />
        : <line key={t.value} x1={t.at} x2={t.at} y1={plot.top} y2={plot.bottom} />)}
    </g>
  )
}

/** The longest label's length in characters (for the flat labels' spacing), over at most 200 sampled slots. */
function longestLabel(count: number, label: (i: number) => string): number {
  let most = 1
  const every = Math.max(1, Math.floor(count / 200))
  for (let i = 0; i < count; i += every) most = Math.max(most, label(i).length)
  return most
}

/** `text` cut to `chars` characters with an ellipsis. */
function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`
}
