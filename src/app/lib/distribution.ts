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
