/** Overview aggregations beyond the language one: hours and rows per corpus or split, and the TSV-vs-data table. */
import { compareUtf8 } from '../../../engine/findings.ts'
import type { PartitionStats, StatsReport } from '../../../engine/stats/types.ts'

/** Hours and rows of one group (a corpus, a split, a language). */
export interface GroupHours {
  key: string
  hours: number
  rows: number
}

/** Hours and rows per value of `field` (`(none)` for a missing key), most hours first, ties by key. */
export function hoursBy(partitions: readonly PartitionStats[], field: 'corpus' | 'split' | 'language'): GroupHours[] {
  const by = new Map<string, GroupHours>()
  for (const p of partitions) {
    const key = p[field] ?? '(none)'
    const g = by.get(key) ?? { key, hours: 0, rows: 0 }
    g.hours += p.hours
    g.rows += p.rows
    by.set(key, g)
  }
  return [...by.values()].sort((a, b) => b.hours - a.hours || compareUtf8(a.key, b.key))
}

/** One (corpus, language) of the TSV-vs-data comparison. */
export interface TsvComparisonRow {
  corpus: string
  language: string
  /** Hours the TSV says (`null`: no TSV row, or not a number). */
  tsvHours: number | null
  /** Hours in the data, all splits. */
  dataHours: number
  /** Hours in the data's `train` split. */
  trainHours: number
  /** `(tsv − data) / data`, `null` when either side is missing or the data has no hours. */
  difference: number | null
}

/** TSV rows against the data's hours per (corpus, language) (both directions: rows missing on either side are kept). */
export function tsvComparison(stats: Pick<StatsReport, 'partitions' | 'summary'>): TsvComparisonRow[] {
  const key = (c: string, l: string) => `${c}\u0000${l}`
  const rows = new Map<string, TsvComparisonRow>()
  const row = (corpus: string, language: string) => {
    let r = rows.get(key(corpus, language))
    if (!r) rows.set(key(corpus, language), r = { corpus, language, tsvHours: null, dataHours: 0, trainHours: 0, difference: null })
    return r
  }
  for (const s of stats.summary?.rows ?? []) row(s.corpus, s.language).tsvHours = s.hours
  for (const p of stats.partitions) {
    if (p.corpus === null || p.language === null) continue
    const r = row(p.corpus, p.language)
    r.dataHours += p.hours
    if (p.split === 'train') r.trainHours += p.hours
  }
  for (const r of rows.values()) r.difference = r.tsvHours !== null && r.dataHours > 0 ? (r.tsvHours - r.dataHours) / r.dataHours : null
  return [...rows.values()].sort((a, b) => compareUtf8(a.corpus, b.corpus) || compareUtf8(a.language, b.language))
}
