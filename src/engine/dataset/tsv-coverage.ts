/**
 * What the stats TSV's hours count (docs/reference-pipeline.md §4, §17): for each mixture partition (corpus,
 * language), the set of splits whose data hours add up to the TSV's hours. The reference dataprep counts every
 * split; a TSV written from the train split alone (or any other subset) is a case of its own: training weights each
 * partition by whatever the TSV says, so what the TSV counts is what the weights follow.
 *
 * Pure: stats and the audit feed it hours summed from `audio_size`, the Overview hours from the stats report, so all
 * three say the same.
 */
import { compareUtf8 } from '../core/findings.ts'

/** Data hours of one (corpus, language, split). */
export interface SplitHours {
  corpus: string
  language: string
  split: string
  hours: number
}

/** One TSV row (`hours` NaN when the cell is not a number). */
export interface TsvHoursRow {
  corpus: string
  language: string
  hours: number
}

/**
 * How a partition's TSV hours relate to its data:
 * - `all-splits`: they equal the hours over every split (what the reference dataprep writes);
 * - `train-only`: they equal the train split's hours;
 * - `subset`: they equal another set of splits (e.g. train + dev);
 * - `no-held-out`: the partition has no split but train, so "all splits" and "train" are the same hours;
 * - `none`: no set of splits adds up to them;
 * - `no-tsv-row` / `no-data`: one side is missing.
 */
export type CoverageKind = 'all-splits' | 'train-only' | 'subset' | 'no-held-out' | 'none' | 'no-tsv-row' | 'no-data'

/** One partition's verdict. */
export interface PartitionCoverage {
  corpus: string
  language: string
  /** Σ TSV hours of the pair (duplicate rows add up, as in the reference's sums); `null` without a TSV row. */
  tsvHours: number | null
  /** Data hours over every split. */
  dataHours: number
  /** Data hours of the train split (the config's). */
  trainHours: number
  /** Data hours per split, splits in the order train, then UTF-8. */
  splitHours: { split: string; hours: number }[]
  kind: CoverageKind
  /** The splits the TSV's hours match (`null` for `none`, `no-tsv-row`, `no-data`). */
  splits: string[] | null
  /** Hours of held-out splits (not train) that the TSV counts (0 when it counts none, or matches nothing). */
  heldOutCounted: number
}

/** Most splits of one partition whose every subset is tried (2^n sums); more than that, only all and train are. */
const maxSubsetSplits = 10

/** Relative tolerance for TSV hours vs data hours (docs/interpretations.md). */
export const summaryHoursTolerance = 1e-6

/** Whether `a` and `b` are the same hours within `summaryHoursTolerance`. */
export function sameHours(a: number, b: number): boolean {
  return Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= summaryHoursTolerance * Math.max(Math.abs(b), 1e-9)
}

/**
 * The splits whose hours add up to `tsvHours`: all of them first, then train alone, then the other subsets (larger
 * first, then in split order); `null` when none does.
 * @param splits hours per split, train first
 */
export function matchingSplits(splits: readonly { split: string; hours: number }[], tsvHours: number, trainSplit: string): string[] | null {
  const all = splits.reduce((s, x) => s + x.hours, 0)
  if (sameHours(tsvHours, all)) return splits.map((s) => s.split)
  const train = splits.find((s) => s.split === trainSplit)
  if (train && sameHours(tsvHours, train.hours)) return [trainSplit]
  if (splits.length > maxSubsetSplits) return null
  const subsets: number[] = []
  for (let mask = 1; mask < (1 << splits.length) - 1; mask++) subsets.push(mask)
  const size = (m: number) => { let n = 0; for (let x = m; x; x &= x - 1) n++; return n }
  subsets.sort((a, b) => size(b) - size(a) || a - b)
  for (const mask of subsets) {
    let sum = 0
    for (let i = 0; i < splits.length; i++) if (mask & (1 << i)) sum += splits[i].hours
    if (sameHours(tsvHours, sum)) return splits.filter((_, i) => mask & (1 << i)).map((s) => s.split)
  }
  return null
}

/**
 * The verdict of every (corpus, language) with data or a TSV row, sorted by corpus then language (UTF-8).
 * @param data hours per (corpus, language, split); several entries of one triple add up
 * @param tsv the TSV's rows
 * @param trainSplit the split training reads (the config's parsed split, normally `train`)
 */
export function tsvCoverage(data: readonly SplitHours[], tsv: readonly TsvHoursRow[], trainSplit: string): PartitionCoverage[] {
  const key = (c: string, l: string) => `${c}\u0000${l}`
  const parts = new Map<string, { corpus: string; language: string; splits: Map<string, number>; tsv: number | null }>()
  const part = (corpus: string, language: string) => {
    let p = parts.get(key(corpus, language))
    if (!p) parts.set(key(corpus, language), p = { corpus, language, splits: new Map(), tsv: null })
    return p
  }
  for (const d of data) {
    const p = part(d.corpus, d.language)
    p.splits.set(d.split, (p.splits.get(d.split) ?? 0) + d.hours)
  }
  for (const r of tsv) {
    const p = part(r.corpus, r.language)
    p.tsv = (p.tsv ?? 0) + r.hours
  }
  const out: PartitionCoverage[] = []
  for (const p of parts.values()) {
    const splitHours = [...p.splits].map(([split, hours]) => ({ split, hours }))
      .sort((a, b) => Number(b.split === trainSplit) - Number(a.split === trainSplit) || compareUtf8(a.split, b.split))
    const dataHours = splitHours.reduce((s, x) => s + x.hours, 0)
    const trainHours = p.splits.get(trainSplit) ?? 0
    const base = { corpus: p.corpus, language: p.language, tsvHours: p.tsv, dataHours, trainHours, splitHours }
    if (splitHours.length === 0) { out.push({ ...base, kind: 'no-data', splits: null, heldOutCounted: 0 }); continue }
    if (p.tsv === null) { out.push({ ...base, kind: 'no-tsv-row', splits: null, heldOutCounted: 0 }); continue }
    const splits = matchingSplits(splitHours, p.tsv, trainSplit)
    const heldOut = splitHours.filter((s) => s.split !== trainSplit)
    const heldOutCounted = splits ? heldOut.filter((s) => splits.includes(s.split)).reduce((s, x) => s + x.hours, 0) : 0
    let kind: CoverageKind
    if (splits === null) kind = 'none'
    else if (heldOut.every((s) => s.hours === 0) && p.splits.has(trainSplit)) kind = 'no-held-out'
    else if (splits.length === splitHours.length) kind = 'all-splits'
    else if (splits.length === 1 && splits[0] === trainSplit) kind = 'train-only'
    else kind = 'subset'
    out.push({ ...base, kind, splits, heldOutCounted })
  }
  return out.sort((a, b) => compareUtf8(a.corpus, b.corpus) || compareUtf8(a.language, b.language))
}

/** Partitions per coverage kind. */
export type CoverageCounts = Record<CoverageKind, number>

/** How many partitions fall under each kind. */
export function coverageCounts(rows: readonly PartitionCoverage[]): CoverageCounts {
  const counts: CoverageCounts = { 'all-splits': 0, 'train-only': 0, subset: 0, 'no-held-out': 0, none: 0, 'no-tsv-row': 0, 'no-data': 0 }
  for (const r of rows) counts[r.kind]++
  return counts
}

const count = (n: number) => n.toLocaleString('en')

/**
 * What the TSV counts over the whole dataset, as one phrase and what training does with it, or `null` when no
 * partition has held-out data (then every reading gives the same hours and there is nothing to tell).
 */
export function coverageVerdict(rows: readonly PartitionCoverage[], trainSplit: string): { kind: 'all-splits' | 'train-only' | 'mixed'; text: string } | null {
  const c = coverageCounts(rows)
  const telling = c['all-splits'] + c['train-only'] + c.subset + c.none
  if (telling === 0) return null
  if (c['all-splits'] === telling) {
    return { kind: 'all-splits', text: `the TSV's hours equal the data's hours over every split for all ${count(telling)} partitions with held-out data: training weights each partition by hours that include its held-out splits, so held-out data raises its weight` }
  }
  if (c['train-only'] === telling) {
    return { kind: 'train-only', text: `the TSV's hours equal the ${trainSplit} hours for all ${count(telling)} partitions with held-out data: training weights each partition by its ${trainSplit} hours alone; held-out splits do not change the mixture` }
  }
  const parts = [
    c['all-splits'] && `${count(c['all-splits'])} count every split`,
    c['train-only'] && `${count(c['train-only'])} count ${trainSplit} only`,
    c.subset && `${count(c.subset)} count another set of splits`,
    c.none && `${count(c.none)} match no set of splits`,
  ].filter(Boolean)
  return { kind: 'mixed', text: `the TSV's hours count different splits per partition (${parts.join(', ')}, of ${count(telling)} partitions with held-out data): training weights each partition by what its row says, so the weights mix readings` }
}

/** `train`, `train + dev`, `every split (train, dev, test)` for a partition's matched splits. */
export function describeSplits(row: Pick<PartitionCoverage, 'kind' | 'splits'>): string {
  if (!row.splits) return row.kind === 'none' ? 'no set of splits' : '—'
  if (row.kind === 'all-splits') return `every split (${row.splits.join(', ')})`
  return row.splits.join(' + ')
}

/**
 * Hours in a finding's words, at most 4 significant digits in the unit that reads best (`12.35 hours`,
 * `3.5 minutes`, `42.1 seconds`), so messages carry no raw float; the exact value is in the tables and JSON.
 */
export function hoursText(h: number): string {
  if (!Number.isFinite(h)) return `${h} hours`
  const abs = Math.abs(h)
  const four = (x: number) => String(Number(x.toPrecision(4)))
  if (abs === 0 || abs >= 1) return `${four(h)} hours`
  if (abs * 60 >= 1) return `${four(h * 60)} minutes`
  return `${four(h * 3600)} seconds`
}

/**
 * The finding a partition's verdict calls for, shared by stats and the audit so both word it the same (and the
 * explorer shows it once): `tsv-row-without-data`, `missing-from-tsv` (the data's hours), `tsv-hours-mismatch` (no
 * set of splits adds up to the TSV's hours); `null` for every other verdict.
 */
export function coverageProblem(c: PartitionCoverage, tsvPath: string): { kind: 'tsv-row-without-data' | 'missing-from-tsv' | 'tsv-hours-mismatch'; message: string } | null {
  const name = `(corpus ${c.corpus}, language ${c.language})`
  if (c.kind === 'no-data') {
    return { kind: 'tsv-row-without-data', message: `stats TSV ${tsvPath} lists ${name} with ${hoursText(c.tsvHours ?? NaN)}, but no data folder has that pair; the reference ignores the row` }
  }
  if (c.kind === 'no-tsv-row') {
    return { kind: 'missing-from-tsv', message: `${name} has ${hoursText(c.dataHours)} of data but no row in ${tsvPath}: training silently drops this partition from the mixture (reference §4)` }
  }
  if (c.kind === 'none' && c.tsvHours !== null && Number.isFinite(c.tsvHours)) {
    const perSplit = c.splitHours.map((x) => `${x.split} ${hoursText(x.hours)}`).join(', ')
    return { kind: 'tsv-hours-mismatch', message: `stats TSV ${tsvPath} gives ${name} ${hoursText(c.tsvHours)}; the data holds ${hoursText(c.dataHours)} over all splits (${perSplit}), and no set of splits adds up to the TSV's hours: the weight follows the TSV, not the data` }
  }
  return null
}
