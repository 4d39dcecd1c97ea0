/**
 * Charts that carry a long tail (1,600 languages) in a fixed height: the histogram of a value per item on a log
 * axis, the cumulative coverage curve, and the top N with the rest summarized as one bar. Each draws at most a few
 * hundred marks; clicking a bar hands its items to `onSelect` (the views focus those languages). Drawn as plain SVG
 * (svg/scales.ts says why).
 */
import { useMemo } from 'react'
import { countBelow, coverageCurve, itemsForShare, logHistogram } from '../../lib/distribution.ts'
import { formatCount, formatShare, plural } from '../../lib/format.ts'
import { BandBarChart } from './svg/band-bar-chart.tsx'
import { LineChart } from './svg/line-chart.tsx'
import { categorical } from './theme.ts'

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
  const bars = useMemo(() => bins.map((b, i) => ({ key: String(i), value: b.count, fill: categorical(0) })), [bins])
  const below = thresholds ? countBelow(items.map((i) => i.value), thresholds) : []
  const binOf = (v: number) => bins.findIndex((b) => v >= b.lo && v < b.hi)
  const references = (thresholds ?? []).map(binOf).filter((b) => b >= 0).map((at) => ({ at, stroke: 'var(--warning)' }))
  const range = (i: number) => `${format(bins[i].lo)} – ${format(bins[i].hi)}`
  return (
    <figure className="chart-figure">
      <div className="chart" role={onSelect ? 'group' : 'img'} aria-label={`${label}: histogram of ${plural(items.length, noun[0], noun[1])} on a log axis (${bins.length} bins); the table lists every value.`}>
        <BandBarChart bars={bars} orientation="columns" height={220} margin={{ top: 8, right: 8, bottom: 44, left: 56 }} gap={0.04}
          value={{ format: formatCount, integer: true }} categoryLabel={(i) => format(bins[i].lo)} axisTitle={`${label} (log scale)`} valueTitle={noun[1]} references={references}
          keyboardLabel={`Bins of the ${label} histogram (Enter focuses a bin's ${noun[1]})`}
          tooltip={(i) => ({ title: range(i), lines: [`${formatCount(bins[i].count)} ${bins[i].count === 1 ? noun[0] : noun[1]}`] })}
          onPick={onSelect ? (i) => onSelect(bins[i].items.map((k) => items[k].key), range(i)) : undefined} />
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
  const line = useMemo(() => points.map((p) => ({ x: p.rank, y: p.share })), [points])
  return (
    <figure className="chart-figure">
      <div className="chart" role="img" aria-label={`Cumulative coverage: share of ${label} held by the top ${noun[1]}; ${marks.map((m) => `${m.rank} hold ${formatShare(m.share)}`).join(', ')}.`}>
        <LineChart points={line} height={220} margin={{ top: 8, right: 16, bottom: 44, left: 44 }} stroke={categorical(1)}
          x={{ format: formatCount, integer: true }} y={{ format: percent, max: 1 }} axisTitle={`top ${noun[1]} (ranked by ${label})`}
          references={marks.map((m) => m.rank)}
          tooltip={(p) => ({ title: `top ${formatCount(p.x)} ${p.x === 1 ? noun[0] : noun[1]}`, lines: [`${formatShare(p.y)} of ${label}`] })} />
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
  const data = useMemo(() => sorted.slice(0, n), [sorted, n])
  const rest = sorted.slice(n)
  const total = sorted.reduce((s, r) => s + r.value, 0)
  const restValue = rest.reduce((s, r) => s + r.value, 0)
  const height = 40 + data.length * 22
  const bars = useMemo(() => data.map((d) => ({ key: d.key, value: d.value, fill: selected?.has(d.key) ? 'var(--accent-strong)' : categorical(0) })), [data, selected])
  return (
    <figure className="chart-figure">
      <div className="chart" role={onSelect ? 'group' : 'img'} aria-label={`${chartLabel} (top ${data.length} of ${formatCount(items.length)}${rest.length > 0 ? ', the rest summed below' : ''}); the table lists every value.`}>
        <BandBarChart bars={bars} orientation="rows" height={height} margin={{ top: 4, right: 16, bottom: 24, left: 88 }} gap={0.15}
          value={{ format }} categoryLabel={(i) => data[i].key}
          tooltip={(i) => ({ title: label(data[i].key), lines: [format(data[i].value)] })}
          keyboardLabel={`Bars of the top ${data.length} (Enter focuses one)`}
          onPick={onSelect ? (i) => onSelect(data[i].key) : undefined} />
      </div>
      {rest.length > 0 && (
        <figcaption>
          <span className="stat">+ <strong>{formatCount(rest.length)}</strong> other {rest.length === 1 ? noun[0] : noun[1]}: <strong>{format(restValue)}</strong> ({formatShare(total > 0 ? restValue / total : 0)})</span>
        </figcaption>
      )}
    </figure>
  )
}

/** `v` (a share, 0–1) as a whole percentage. */
const percent = (v: number) => `${Math.round(v * 100)}%`
