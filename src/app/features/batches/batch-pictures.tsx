/**
 * The streamed batches as pictures: per batch a stacked bar of its examples by language (the top languages, the
 * rest as "other"), with a brush to move along thousands of batches; a heat map of how many batches have which
 * longest example and which padding share; the histogram of batches per length bucket. Clicking a batch opens it.
 * Plain SVG (components/charts/svg/scales.ts says why).
 */
import { useMemo, useState } from 'react'
import type { BatchSummary } from '../../../engine/batches/batch-summary.ts'
import type { PlanStartResult } from '../../../engine/worker/protocol/plan.ts'
import { BandBarChart } from '../../components/charts/svg/band-bar-chart.tsx'
import { RankBrush } from '../../components/charts/svg/rank-brush.tsx'
import { categorical } from '../../components/charts/theme.ts'
import { formatCount, formatSamples, formatShare } from '../../lib/format.ts'

/** Languages drawn as their own colour; the rest are "other". */
const topLanguages = 7
/** Padding bins of the heat map (share of the padded batch that is padding). */
const paddingBins = 10

/** Examples per language per batch, for the top languages over all streamed batches. */
export function languageStacks(batches: readonly BatchSummary[]): { languages: string[]; rows: Record<string, number>[] } {
  const totals = new Map<string, number>()
  for (const b of batches) for (const p of b.partitions) totals.set(p.language, (totals.get(p.language) ?? 0) + p.count)
  const languages = [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, topLanguages).map(([l]) => l)
  const keep = new Set(languages)
  const rows = batches.map((b) => {
    const row: Record<string, number> = { index: b.index, other: 0 }
    for (const l of languages) row[l] = 0
    for (const p of b.partitions) row[keep.has(p.language) ? p.language : 'other'] += p.count
    return row
  })
  return { languages: totals.size > topLanguages ? [...languages, 'other'] : languages, rows }
}

/** The bucket a batch fell in: the first bucket whose max length holds its longest example (`-1`: none). */
export function bucketOf(longest: number, sizes: readonly { seqLen: number }[]): number {
  for (let i = 0; i < sizes.length; i++) if (longest <= sizes[i].seqLen) return i
  return -1
}

/** Batches per (length bucket, padding bin). */
export function paddingHeat(batches: readonly BatchSummary[], sizes: readonly { seqLen: number }[]): { buckets: number[]; counts: number[][]; max: number; top: number } {
  const used = [...new Set(batches.map((b) => bucketOf(b.longest, sizes)))].sort((a, b) => a - b)
  const column = new Map(used.map((u, i) => [u, i]))
  const counts = used.map(() => new Array<number>(paddingBins).fill(0))
  // the padding axis spans 0 to the largest share seen (at least 5%), in whole percent
  const top = Math.max(0.05, Math.ceil(100 * Math.max(0, ...batches.map((b) => b.waste))) / 100)
  let max = 0
  for (const b of batches) {
    const c = column.get(bucketOf(b.longest, sizes))!
    const r = Math.min(paddingBins - 1, Math.floor((b.waste / top) * paddingBins))
    max = Math.max(max, ++counts[c][r])
  }
  return { buckets: used, counts, max, top }
}

/** Batches drawn at once in the stacked bars (a brush under them moves the window along the rest). */
const stackWindow = 120

/** A language's colour in the stacks (`other` grey). */
const fill = (l: string, i: number) => (l === 'other' ? 'var(--cat-8)' : categorical(i))

function LanguageStacks({ batches, onOpen }: { batches: BatchSummary[]; onOpen: (index: number) => void }) {
  const { languages, rows } = useMemo(() => languageStacks(batches), [batches])
  const n = rows.length
  const [asked, setAsked] = useState({ start: 0, end: stackWindow - 1 })
  const start = Math.max(0, Math.min(asked.start, n - 1))
  const end = Math.max(start, Math.min(asked.end, n - 1))
  // the bars draw only the window; the brush under them holds every batch streamed so far
  const bars = useMemo(() => rows.slice(start, end + 1).map((row) => ({
    key: String(row.index), value: languages.reduce((sum, l) => sum + row[l], 0), fill: '',
    parts: languages.map((l, i) => ({ value: row[l], fill: fill(l, i) })),
  })), [rows, start, end, languages])
  const sizes = useMemo(() => rows.map((row) => languages.reduce((sum, l) => sum + row[l], 0)), [rows, languages])
  const margin = { top: 8, right: 12, bottom: 24, left: 40 }
  return (
    <div className="chart">
      <div role="group" aria-label={`Stacked bars of examples per language in batches ${start} to ${end} of ${n} (top ${languages.length} languages); the Batches table lists every batch.`}>
        <BandBarChart bars={bars} orientation="columns" height={200} margin={margin} gap={0.1}
          value={{ format: formatCount, integer: true }} categoryLabel={(i) => bars[i].key}
          tooltip={(i) => {
            const row = rows[start + i]
            return { title: `Batch ${row.index}: ${formatCount(bars[i].value ?? 0)} examples`, lines: languages.filter((l) => row[l] > 0).map((l) => `${l}: ${formatCount(row[l])}`) }
          }}
          onPick={(i) => onOpen(rows[start + i].index)} keyboardLabel="Batches (Enter opens one in the Inspector)" />
        <ul className="chart-legend">
          {languages.map((l, i) => <li key={l}><span className="swatch" style={{ background: fill(l, i) }} />{l}</li>)}
        </ul>
      </div>
      {n > stackWindow && (
        <RankBrush values={sizes} range={{ start, end }} onChange={setAsked} left={margin.left} right={margin.right} noun="batches" unit="batch"
          name={(i) => `batch ${formatCount(rows[i].index)}`} />
      )}
    </div>
  )
}

function PaddingHeatmap({ batches, sizes }: { batches: BatchSummary[]; sizes: readonly { seqLen: number }[] }) {
  const heat = useMemo(() => paddingHeat(batches, sizes), [batches, sizes])
  const [hover, setHover] = useState<string | null>(null)
  const w = 100 / Math.max(1, heat.buckets.length)
  const h = 100 / paddingBins
  const label = (b: number) => (b < 0 ? 'longer than every bucket' : `≤ ${formatSamples(sizes[b].seqLen)}`)
  return (
    <figure className="chart-figure">
      <div className="heat" role="img" aria-label={`Heat map of ${batches.length} batches by length bucket (${heat.buckets.length} used) and padding share (0 to ${formatShare(heat.top)}); darker cells hold more batches.`}>
        <span className="heat-y">padding share, 0–{formatShare(heat.top)} ↑</span>
        <svg viewBox="0 0 100 100" preserveAspectRatio="none" className="heat-svg">
          {heat.counts.map((col, c) => col.map((n, r) => n > 0 && (
            <rect key={`${c}/${r}`} x={c * w} y={100 - (r + 1) * h} width={w} height={h} fill="var(--cat-1)" fillOpacity={0.15 + 0.85 * (n / heat.max)}
              onMouseEnter={() => setHover(`${formatCount(n)} batch${n === 1 ? '' : 'es'}: longest ${label(heat.buckets[c])}, ${formatShare((r * heat.top) / paddingBins)}–${formatShare(((r + 1) * heat.top) / paddingBins)} padding`)}
              onMouseLeave={() => setHover(null)} />
          )))}
        </svg>
        <span className="heat-x">length bucket (longest example) →  {heat.buckets.length > 0 && `${label(heat.buckets[0])} … ${label(heat.buckets[heat.buckets.length - 1])}`}</span>
      </div>
      <figcaption>{hover ?? `Mean padding ${formatShare(batches.reduce((s, b) => s + b.waste, 0) / Math.max(1, batches.length))}; hover a cell for its batches.`}</figcaption>
    </figure>
  )
}

function BucketHistogram({ batches, sizes }: { batches: BatchSummary[]; sizes: readonly { seqLen: number; batchSize: number }[] }) {
  const data = useMemo(() => {
    const counts = new Map<number, number>()
    for (const b of batches) { const k = bucketOf(b.longest, sizes); counts.set(k, (counts.get(k) ?? 0) + 1) }
    return [...counts].sort((a, b) => a[0] - b[0]).map(([k, n]) => ({ bucket: k < 0 ? 'over' : `${k}`, n, len: k < 0 ? '—' : formatSamples(sizes[k].seqLen), max: k < 0 ? 0 : sizes[k].batchSize }))
  }, [batches, sizes])
  const bars = useMemo(() => data.map((d) => ({ key: d.bucket, value: d.n, fill: categorical(2) })), [data])
  return (
    <div className="chart" role="img" aria-label={`Histogram of ${batches.length} batches over ${data.length} length buckets; the Length buckets table lists every bucket.`}>
      <BandBarChart bars={bars} orientation="columns" height={200} margin={{ top: 8, right: 12, bottom: 40, left: 40 }}
        value={{ format: formatCount, integer: true }} categoryLabel={(i) => data[i].bucket} axisTitle="length bucket"
        tooltip={(i) => ({ title: data[i].bucket === 'over' ? 'Longer than every bucket' : `Bucket ${data[i].bucket}: up to ${data[i].len}, ${formatCount(data[i].max)} examples per batch`, lines: [`${formatCount(data[i].n)} batches`] })} />
    </div>
  )
}

export function BatchPictures({ batches, start, onOpen }: { batches: BatchSummary[]; start: PlanStartResult; onOpen: (index: number) => void }) {
  if (batches.length === 0) return null
  const sizes = start.buckets?.sizes ?? [{ seqLen: Math.max(...batches.map((b) => b.longest)), batchSize: start.config.batch_size }]
  return (
    <div className="grid-3 batch-pictures">
      <section className="panel" aria-labelledby="stacks-heading">
        <h4 id="stacks-heading">Languages in each batch</h4>
        <LanguageStacks batches={batches} onOpen={onOpen} />
      </section>
      <section className="panel" aria-labelledby="heat-heading">
        <h4 id="heat-heading">Length and padding</h4>
        <PaddingHeatmap batches={batches} sizes={sizes} />
      </section>
      <section className="panel" aria-labelledby="bucket-hist-heading">
        <h4 id="bucket-hist-heading">Batches per length bucket</h4>
        <BucketHistogram batches={batches} sizes={sizes} />
      </section>
    </div>
  )
}
