/**
 * Sampling probability against natural share of the hours, log–log, one dot per mark (the view merges nearby
 * partitions into one mark), the diagonal dashed: above it a partition is drawn more often than its hours alone would
 * make it. Plain SVG (components/charts/svg/scales.ts says why): as a recharts scatter each of its few hundred marks
 * was a component of recharts' own, and a beta step re-rendered them all (about 0.1 s of main thread per step at
 * 1,600 languages); here they are plain circles, each with its values as a native tooltip, drawn only when the marks
 * change (the view keeps them while equal in value).
 */
import { categorical } from '../../components/charts/theme.ts'
import { GridLines } from '../../components/charts/svg/band-bar-chart.tsx'
import { valueScale, type ValueScale } from '../../components/charts/svg/scales.ts'
import { useWidth } from '../../components/charts/svg/use-width.ts'
import { formatShare } from '../../lib/format.ts'

/** One mark: a natural share `x`, a sampling probability `y` (both > 0), and how many partitions it stands for. */
export interface ScatterMark {
  x: number
  y: number
  n: number
}

const margin = { left: 68, right: 16, top: 8, bottom: 40 }

/** The scatter, `height` px tall, over `[floor, 1]` on both axes. */
export function ShareScatter({ marks, floor, height }: { marks: readonly ScatterMark[]; floor: number; height: number }) {
  const [ref, width] = useWidth<HTMLDivElement>()
  return (
    <div ref={ref} className="chart-box" style={{ height }}>
      {width > 0 && <Plot marks={marks} floor={floor} width={width} height={height} />}
    </div>
  )
}

function Plot({ marks, floor, width, height }: { marks: readonly ScatterMark[]; floor: number; width: number; height: number }) {
  const plot = { left: margin.left, top: margin.top, right: Math.max(margin.left + 1, width - margin.right), bottom: height - margin.bottom }
  const x = valueScale(1, [plot.left, plot.right], formatShare, { log: true, floor, count: 6 })
  const y = valueScale(1, [plot.bottom, plot.top], formatShare, { log: true, floor, count: 5 })
  const low = Math.max(floor, 1e-300)
  return (
    <svg className="chart-svg" width={width} height={height} aria-hidden="true">
      <GridLines ticks={y.ticks} columns plot={plot} />
      <GridLines ticks={x.ticks} columns={false} plot={plot} />
      <line className="chart-reference" x1={x.at(low)} y1={y.at(low)} x2={x.at(1)} y2={y.at(1)} stroke="var(--border-strong)" />
      <Dots marks={marks} x={x} y={y} />
      <line className="chart-axis-line" x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} />
      <line className="chart-axis-line" x1={plot.left} x2={plot.left} y1={plot.top} y2={plot.bottom} />
      {y.ticks.map((t) => <text key={t.value} className="chart-tick" x={plot.left - 6} y={t.at} textAnchor="end" dominantBaseline="middle" fontSize={12}>{t.label}</text>)}
      {x.ticks.map((t) => <text key={t.value} className="chart-tick" x={t.at} y={plot.bottom + 14} textAnchor="middle" fontSize={12}>{t.label}</text>)}
      <text className="chart-axis-title" x={(plot.left + plot.right) / 2} y={height - 6} textAnchor="middle" fontSize={12}>natural share of hours (log)</text>
      <text className="chart-axis-title" transform={`translate(14 ${(plot.top + plot.bottom) / 2}) rotate(-90)`} textAnchor="middle" dominantBaseline="middle" fontSize={12}>sampling probability (log)</text>
    </svg>
  )
}

/** The marks, one circle each. */
function Dots({ marks, x, y }: { marks: readonly ScatterMark[]; x: ValueScale; y: ValueScale }) {
  const fill = categorical(0)
  return (
    <g className="chart-dots" fill={fill} fillOpacity={0.75}>
      {marks.map((m, i) => (
        <circle key={i} cx={x.at(m.x).toFixed(1)} cy={y.at(m.y).toFixed(1)} r={3}>
          <title>{`natural share ${formatShare(m.x)}, sampling probability ${formatShare(m.y)}${m.n > 1 ? ` (${m.n} partitions)` : ''}`}</title>
        </circle>
      ))}
    </g>
  )
}
