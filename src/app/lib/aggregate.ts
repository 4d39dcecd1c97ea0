/** Groupings of the stats report's partition folders for the Overview's charts and tables. */
import type { PartitionStats } from '../../engine/stats/types.ts'
import { compareUtf8 } from '../../engine/findings.ts'

/** Hours and rows of one language, over all corpora, splits and other keys. */
export interface LanguageHours {
  /** The `language` key, `(none)` when the partition has no language key. */
  language: string
  hours: number
  rows: number
  /** Share of all hours, in [0, 1]. */
  share: number
  /** Hours of the `train` split. */
  trainHours: number
  /** Corpora and splits the language has data in, sorted. */
  corpora: string[]
  splits: string[]
}

/** Hours per language, most hours first (ties by code), with each language's share of the total. */
export function hoursByLanguage(partitions: readonly PartitionStats[]): LanguageHours[] {
  const byLanguage = new Map<string, { hours: number; rows: number; trainHours: number; corpora: Set<string>; splits: Set<string> }>()
  for (const p of partitions) {
    const key = p.language ?? '(none)'
    let entry = byLanguage.get(key)
    if (!entry) byLanguage.set(key, entry = { hours: 0, rows: 0, trainHours: 0, corpora: new Set(), splits: new Set() })
    entry.hours += p.hours
    entry.rows += p.rows
    if (p.split === 'train') entry.trainHours += p.hours
    entry.corpora.add(p.corpus ?? '(none)')
    entry.splits.add(p.split ?? '(none)')
  }
  const total = [...byLanguage.values()].reduce((sum, e) => sum + e.hours, 0)
  return [...byLanguage].map(([language, e]) => ({
    language, hours: e.hours, rows: e.rows, trainHours: e.trainHours, share: total > 0 ? e.hours / total : 0,
    corpora: [...e.corpora].sort(compareUtf8), splits: [...e.splits].sort(compareUtf8),
  })).sort((a, b) => b.hours - a.hours || compareUtf8(a.language, b.language))
}

/** One (corpus, language) row of the split pivot: hours per split value. */
export interface SplitHoursRow {
  corpus: string
  language: string
  /** split value → hours (summed over any other keys such as `version`). */
  hours: Record<string, number>
  total: number
}

/** Hours per (corpus, language, split), pivoted to one row per (corpus, language) with a column per split. */
export function hoursBySplit(partitions: readonly PartitionStats[]): { splits: string[]; rows: SplitHoursRow[] } {
  const rows = new Map<string, SplitHoursRow>()
  const splits = new Set<string>()
  for (const p of partitions) {
    const corpus = p.corpus ?? '(none)'
    const language = p.language ?? '(none)'
    const split = p.split ?? '(none)'
    splits.add(split)
    const key = `${corpus}\u0000${language}`
    const row = rows.get(key) ?? { corpus, language, hours: {}, total: 0 }
    row.hours[split] = (row.hours[split] ?? 0) + p.hours
    row.total += p.hours
    rows.set(key, row)
  }
  const order = ['train', 'dev', 'valid', 'validation', 'test']
  const rank = (s: string) => (order.includes(s) ? order.indexOf(s) : order.length)
  return {
    splits: [...splits].sort((a, b) => rank(a) - rank(b) || compareUtf8(a, b)),
    rows: [...rows.values()].sort((a, b) => compareUtf8(a.corpus, b.corpus) || compareUtf8(a.language, b.language)),
  }
}
