/**
 * The geometry of the plain-SVG charts: a value axis (linear or log, ticks from d3-scale) and a band axis (one slot
 * per category, bars centred in it). Pure functions of numbers, in px, so they are tested without a DOM.
 *
 * Why plain SVG and not recharts for these charts: a recharts chart's first mount is a redux store, a cascade of
 * registration dispatches through `useSyncExternalStore` and DOM text measuring, one unsliceable React commit of
 * 0.3–0.6 s per chart at 1,600 languages (docs/interpretations.md, "The Overview's charts are plain SVG"). These
 * draw the same pictures in a few ms: the marks are the product's own, the tick maths is d3-scale's.
 */
import { scaleLinear, scaleLog } from 'd3-scale'

/** One tick of an axis: its value, where it is (px from the axis start) and its label. */
export interface Tick {
  value: number
  at: number
  label: string
}

/** A value axis: maps a value to px along `[range[0], range[1]]` and names its ticks. */
export interface ValueScale {
  /** px of value `v` (clamped to the domain on a log axis; values ≤ 0 map to its floor). */
  at: (v: number) => number
  /** The px of the axis' base (where bars start): the domain's low end. */
  base: number
  ticks: Tick[]
  log: boolean
}

/**
 * A value axis over `[0, max]` (linear, made "nice") or `[floor, max]` (log; `floor` defaults to half the smallest
 * positive value given in `positives`).
 * @param range px of the domain's low and high end, e.g. `[plotBottom, plotTop]` for a vertical axis
 * @param options.integer ticks only at whole numbers (counts)
 * @param options.count about how many ticks
 */
export function valueScale(max: number, range: [number, number], format: (v: number) => string,
  options: { log?: boolean; floor?: number; integer?: boolean; count?: number } = {}): ValueScale {
  const count = options.count ?? 5
  if (options.log) {
    const floor = options.floor !== undefined && options.floor > 0 ? options.floor : 1
    const high = Math.max(max, floor * 10)
    const scale = scaleLog().domain([floor, high]).range(range).nice()
    const domain = scale.domain()
    const all = scale.ticks()
    // a decade per tick when there are many: 1, 2, 3 … 9 per decade would be unreadable
    const decades = all.filter((v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9)
    const chosen = decades.length >= 2 ? thin(decades, count + 2) : all.filter((v) => [1, 2, 5].includes(Math.round(v / 10 ** Math.floor(Math.log10(v) + 1e-9))))
    return {
      at: (v) => scale(Math.min(domain[1], Math.max(domain[0], v > 0 ? v : domain[0]))),
      base: scale(domain[0]),
      ticks: chosen.map((value) => ({ value, at: scale(value), label: format(value) })),
      log: true,
    }
  }
  const scale = scaleLinear().domain([0, max > 0 ? max : 1]).range(range).nice(count)
  let values = scale.ticks(count)
  if (options.integer) values = values.filter((v) => Number.isInteger(v))
  return { at: (v) => scale(v), base: scale(0), ticks: values.map((value) => ({ value, at: scale(value), label: format(value) })), log: false }
}

/** Every k-th value so at most `most` remain (the first kept). */
function thin(values: number[], most: number): number[] {
  const every = Math.max(1, Math.ceil(values.length / most))
  return values.filter((_, i) => i % every === 0)
}

/** One slot per category along an axis of `length` px: slot `i` starts at `start + i * step`; a bar fills `width` of it, centred. */
export interface Band {
  start: number
  step: number
  /** The bar's thickness in px (at least 0.5 px, so a bar at 8,000 ranks is still drawn). */
  width: number
  /** px where bar `i` starts (its left or top edge). */
  barAt: (i: number) => number
  /** px of slot `i`'s centre. */
  centre: (i: number) => number
  /** The slot under px `p`, or -1 outside the axis. */
  indexAt: (p: number) => number
}

/**
 * `count` slots over `[start, start + length]`, each bar leaving `gap` of its slot empty (a fraction, 0–1), or `gapPx`
 * px when that is smaller, so thin bars do not vanish into their gaps.
 */
export function band(count: number, start: number, length: number, gap = 0.1, gapPx = 2): Band {
  const step = count > 0 ? length / count : length
  const empty = Math.min(step * gap, gapPx, step / 2)
  const width = Math.max(0.5, step - empty)
  return {
    start, step, width,
    barAt: (i) => start + i * step + (step - width) / 2,
    centre: (i) => start + (i + 0.5) * step,
    indexAt: (p) => { const i = Math.floor((p - start) / step); return i >= 0 && i < count ? i : -1 },
  }
}

/**
 * Which category labels fit along a band: every `stride`-th slot from the first, and the last when it is at least
 * half a stride from the one before, so that labels `minSpacing` px apart do not overlap.
 * @returns slot indices, ascending
 */
export function labelledSlots(count: number, step: number, minSpacing: number): number[] {
  if (count === 0) return []
  const stride = Math.max(1, Math.ceil(minSpacing / Math.max(step, 1e-9)))
  const out: number[] = []
  for (let i = 0; i < count; i += stride) out.push(i)
  const last = count - 1
  if (out[out.length - 1] !== last) {
    if (last - out[out.length - 1] >= stride / 2) out.push(last)
    else out[out.length - 1] = last
  }
  return out
}

/** One column of a ranked chart drawn at fewer columns than ranks: the ranks `[from, to]` (0-based, inclusive) it stands for. */
export interface Column {
  from: number
  to: number
}

/**
 * Groups `count` ranks into at most `most` columns of consecutive ranks (each `ceil(count / most)` wide but the
 * last), so a chart of 100,000 partitions draws one bar per pixel, not 100,000. Values ranked most first make a
 * column's first rank its largest: its bar is exact as the envelope of its ranks.
 */
export function rankColumns(count: number, most: number): Column[] {
  const per = Math.max(1, Math.ceil(count / Math.max(1, Math.floor(most))))
  const out: Column[] = []
  for (let from = 0; from < count; from += per) out.push({ from, to: Math.min(count - 1, from + per - 1) })
  return out
}
