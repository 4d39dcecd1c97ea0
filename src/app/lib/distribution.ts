/**
 * Pictures that carry 1,600 languages in a fixed size: a histogram of values on log-spaced bins, the cumulative
 * coverage curve of a ranked list, top-N with the rest summarized, and threshold counts ("412 languages under 1 h").
 * Pure functions over plain numbers, so a chart never draws more than a few hundred marks.
 */

/** One bin of a log histogram: `[lo, hi)` (the last bin includes `hi`), and which items fall in it. */
export interface LogBin {
  lo: number
  hi: number
  count: number
  /** Indices into the input of the items in this bin. */
  items: number[]
}

/**
 * Histogram of the positive values on log-spaced bins (`perDecade` bins per factor of 10, edges at 10^(k/perDecade)),
 * from the bin holding the smallest value to the one holding the largest; empty bins in between are kept.
 * @returns the bins, and how many values were zero or negative (not on a log axis)
 */
export function logHistogram(values: readonly number[], perDecade = 4): { bins: LogBin[]; nonPositive: number } {
  let lo = Infinity, hi = -Infinity, nonPositive = 0
  for (const v of values) {
    if (!(v > 0) || !Number.isFinite(v)) { nonPositive++; continue }
    if (v < lo) lo = v
    if (v > hi) hi = v
  }
  if (lo === Infinity) return { bins: [], nonPositive }
  const index = (v: number) => Math.floor(Math.log10(v) * perDecade + 1e-9)
  const first = index(lo), last = index(hi)
  const bins: LogBin[] = []
  for (let k = first; k <= last; k++) bins.push({ lo: 10 ** (k / perDecade), hi: 10 ** ((k + 1) / perDecade), count: 0, items: [] })
  values.forEach((v, i) => {
    if (!(v > 0) || !Number.isFinite(v)) return
    const b = bins[Math.min(bins.length - 1, Math.max(0, index(v) - first))]
    b.count++
    b.items.push(i)
  })
  return { bins, nonPositive }
}

/** One point of a coverage curve: the top `rank` items hold `share` of the total. */
export interface CoveragePoint {
  rank: number
  share: number
}

/**
 * Cumulative share of the total held by the top-k items (values sorted most first), with at most `maxPoints` points
 * (evenly spaced ranks, first and last always kept).
 */
export function coverageCurve(values: readonly number[], maxPoints = 400): CoveragePoint[] {
  const sorted = [...values].filter((v) => Number.isFinite(v) && v > 0).sort((a, b) => b - a)
  const total = sorted.reduce((s, v) => s + v, 0)
  if (sorted.length === 0 || total <= 0) return []
  const step = Math.max(1, Math.ceil(sorted.length / maxPoints))
  const out: CoveragePoint[] = [{ rank: 0, share: 0 }]
  let sum = 0
  for (let i = 0; i < sorted.length; i++) {
    sum += sorted[i]
    if ((i + 1) % step === 0 || i === sorted.length - 1) out.push({ rank: i + 1, share: sum / total })
  }
  return out
}

/** How many of the top items (values sorted most first) hold at least `share` of the total. */
export function itemsForShare(values: readonly number[], share: number): number {
  const sorted = [...values].filter((v) => Number.isFinite(v) && v > 0).sort((a, b) => b - a)
  const total = sorted.reduce((s, v) => s + v, 0)
  let sum = 0
  for (let i = 0; i < sorted.length; i++) {
    sum += sorted[i]
    if (sum >= share * total - 1e-12 * total) return i + 1
  }
  return sorted.length
}

/** The first `n` items as they are, then one `others` entry summing the rest (when there is a rest). */
export function topWithRest<T extends { key: string; value: number }>(items: readonly T[], n: number, others: (rest: T[]) => T): T[] {
  if (items.length <= n) return [...items]
  return [...items.slice(0, n), others(items.slice(n))]
}

/** Counts of values below each threshold (strictly less), in the thresholds' order. */
export function countBelow(values: readonly number[], thresholds: readonly number[]): number[] {
  return thresholds.map((t) => values.reduce((n, v) => n + (v < t ? 1 : 0), 0))
}

/** One item of a ranked list: its 1-based rank (most first), key and value. */
export interface RankedItem {
  rank: number
  key: string
  value: number
}

/** The items ranked most first (ties by key in code-unit order, so the order is the same every time), ranks from 1. */
export function rankItems(items: readonly { key: string; value: number }[]): RankedItem[] {
  return [...items].sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((item, i) => ({ rank: i + 1, key: item.key, value: item.value }))
}

/** A window of ranks, as 0-based inclusive indices into a ranked list. */
export interface RankRange {
  start: number
  end: number
}

/** `range` moved inside `[0, n - 1]` (start ≤ end; an empty list gives `{0, 0}`). */
export function clampRange(range: RankRange, n: number): RankRange {
  if (n <= 0) return { start: 0, end: 0 }
  const start = Math.min(n - 1, Math.max(0, Math.floor(Math.min(range.start, range.end))))
  const end = Math.min(n - 1, Math.max(start, Math.floor(Math.max(range.start, range.end))))
  return { start, end }
}

/**
 * The window `range` zoomed by `factor` about its middle (`factor` < 1 zooms in, > 1 out), at least `minSize` ranks
 * wide, kept inside `[0, n - 1]`.
 */
export function zoomRange(range: RankRange, factor: number, n: number, minSize = 5): RankRange {
  const size = Math.min(n, Math.max(minSize, Math.round((range.end - range.start + 1) * factor)))
  const middle = (range.start + range.end) / 2
  const start = Math.max(0, Math.min(n - size, Math.round(middle - (size - 1) / 2)))
  return clampRange({ start, end: start + size - 1 }, n)
}

/** The window `range` moved by `step` of its own widths (−1: the ranks before it, +1: after it), inside `[0, n - 1]`. */
export function panRange(range: RankRange, step: number, n: number): RankRange {
  const size = range.end - range.start + 1
  const start = Math.max(0, Math.min(n - size, range.start + step * size))
  return clampRange({ start, end: start + size - 1 }, n)
}
