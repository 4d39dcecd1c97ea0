/**
 * A line over a linear x axis drawn as plain SVG (one `path.chart-line`), with dashed reference lines at given x
 * values and a hover cursor on the nearest point. Used for the coverage curve (scales.ts says why not recharts).
 */
import { useMemo, useState } from 'react'
import { ChartTooltip, type TooltipContent } from './chart-tooltip.tsx'
import { GridLines, type Margin } from './band-bar-chart.tsx'
import { valueScale } from './scales.ts'
import { useWidth } from './use-width.ts'

/** One point of the line, in data units. */
export interface LinePoint {
  x: number
  y: number
}

export interface LineChartProps {
  /** Ascending in `x`. */
  points: readonly LinePoint[]
  height: number
  margin: Margin
  x: { format: (v: number) => string; integer?: boolean }
  /** The y axis runs from 0 to `max`. */
  y: { format: (v: number) => string; max: number }
  stroke: string
  axisTitle?: string
  /** Dashed vertical lines at these x values. */
  references?: readonly number[]
  tooltip: (p: LinePoint) => TooltipContent
}

/** The chart, filling its box's width. */
export function LineChart(props: LineChartProps) {
  const [ref, width] = useWidth<HTMLDivElement>()
  return (
    <div ref={ref} className="chart-box" style={{ height: props.height }}>
      {width > 0 && <LinePlot {...props} width={width} />}
    </div>
  )
}

function LinePlot({ points, height, margin, x, y, stroke, axisTitle, references, tooltip, width }: LineChartProps & { width: number }) {
  const plot = { left: margin.left, top: margin.top, right: Math.max(margin.left + 1, width - margin.right), bottom: Math.max(margin.top + 1, height - margin.bottom) }
  const maxX = points.length > 0 ? points[points.length - 1].x : 1
  const xScale = useMemo(() => valueScale(maxX, [plot.left, plot.right], x.format, { integer: x.integer, count: Math.max(2, Math.floor((plot.right - plot.left) / 70)) }),
    [maxX, plot.left, plot.right, x.format, x.integer])
  const yScale = useMemo(() => valueScale(y.max, [plot.bottom, plot.top], y.format, { count: 5 }), [y.max, plot.bottom, plot.top, y.format])
  const path = useMemo(() => points.map((p, i) => `${i === 0 ? 'M' : 'L'}${xScale.at(p.x).toFixed(1)},${yScale.at(p.y).toFixed(1)}`).join(''), [points, xScale, yScale])
  const [hover, setHover] = useState<{ i: number; px: number; py: number } | null>(null)
  return (
    <>
      <svg className="chart-svg" width={width} height={height} aria-hidden="true">
        <GridLines ticks={yScale.ticks} columns plot={plot} />
        {references?.map((r) => <line key={r} className="chart-reference" x1={xScale.at(r)} x2={xScale.at(r)} y1={plot.top} y2={plot.bottom} stroke="var(--border-strong)" />)}
        <path className="chart-line" d={path} fill="none" stroke={stroke} strokeWidth={2} />
        <line className="chart-axis-line" x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} />
        {yScale.ticks.map((t) => <text key={t.value} className="chart-tick" x={plot.left - 6} y={t.at} textAnchor="end" dominantBaseline="middle" fontSize={12}>{t.label}</text>)}
        {xScale.ticks.map((t) => <text key={t.value} className="chart-tick" x={t.at} y={plot.bottom + 14} textAnchor="middle" fontSize={12}>{t.label}</text>)}
        {axisTitle && <text className="chart-axis-title" x={(plot.left + plot.right) / 2} y={height - 6} textAnchor="middle" fontSize={12}>{axisTitle}</text>}
        {hover && (
          <g className="chart-cursor">
            <line x1={xScale.at(points[hover.i].x)} x2={xScale.at(points[hover.i].x)} y1={plot.top} y2={plot.bottom} />
            <circle cx={xScale.at(points[hover.i].x)} cy={yScale.at(points[hover.i].y)} r={4} fill={stroke} />
          </g>
        )}
        <rect className="chart-overlay" x={plot.left} y={plot.top} width={plot.right - plot.left} height={plot.bottom - plot.top} fill="transparent"
          onPointerLeave={() => setHover(null)}
          onPointerMove={(e) => {
            if (points.length === 0) return
            const box = e.currentTarget.ownerSVGElement!.getBoundingClientRect()
            const px = e.clientX - box.left, py = e.clientY - box.top
            setHover({ i: nearest(points, xScale, px), px, py })
          }} />
      </svg>
      {hover && <ChartTooltip content={tooltip(points[hover.i])} x={hover.px} y={hover.py} width={width} height={height} />}
    </>
  )
}

/** The index of the point whose x is nearest px `px` (points ascending in x; binary search). */
function nearest(points: readonly LinePoint[], scale: { at: (v: number) => number }, px: number): number {
  let lo = 0, hi = points.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (scale.at(points[mid].x) < px) lo = mid + 1
    else hi = mid
  }
  if (lo > 0 && Math.abs(scale.at(points[lo - 1].x) - px) < Math.abs(scale.at(points[lo].x) - px)) return lo - 1
  return lo
}
