/**
 * Groupings of a stats report's partition folders, as the explorer's Overview draws them: hours per language, per
 * corpus or split, per (corpus, language) and split, the stats TSV against the data, and which extra hive keys exist.
 * Pure functions over `PartitionStats[]`: the worker computes them once per open (`overviewTables`, sent with the open
 * result, so 100,000 partitions are never re-grouped on the page's main thread), and the page runs the same functions
 * over the few partitions of a language focus.
 */
import { compareUtf8 } from '../core/findings.ts'
import { rememberedCoverage } from './coverage-memo.ts'
import { tsvCoverage, type PartitionCoverage } from './tsv-coverage.ts'
import type { PartitionStats, StatsReport } from './stats-types.ts'

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
  /** Corpora and splits the language has data in, sorted by UTF-8 bytes. */
  corpora: string[]
  splits: string[]
}

/** Hours and rows of one group (a corpus, a split, a language). */
export interface GroupHours {
  key: string
  hours: number
  rows: number
}

/** One (corpus, language) row of the split pivot: hours per split value. */
export interface SplitHoursRow {
  corpus: string
  language: string
  /** split value → hours (summed over any other keys such as `version`). */
  hours: Record<string, number>
  total: number
}

/** The split pivot: split values (train, dev, valid, validation, test first, then by UTF-8 bytes) and its rows. */
export interface SplitPivot {
  splits: string[]
  /** Sorted by corpus, then language (UTF-8 bytes). */
  rows: SplitHoursRow[]
}

/** Keys every partition has a field for (the others are hive keys such as `version`). */
const fixedFields = new Set(['corpus', 'language', 'split', 'files', 'row_groups', 'rows', 'samples', 'hours'])

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
  let total = 0
  for (const e of byLanguage.values()) total += e.hours
  return [...byLanguage].map(([language, e]) => ({
    language, hours: e.hours, rows: e.rows, trainHours: e.trainHours, share: total > 0 ? e.hours / total : 0,
    corpora: [...e.corpora].sort(compareUtf8), splits: [...e.splits].sort(compareUtf8),
  })).sort((a, b) => b.hours - a.hours || compareUtf8(a.language, b.language))
}

/** Hours and rows per value of `field` (`(none)` for a missing key), most hours first, ties by key. */
export function hoursBy(partitions: readonly PartitionStats[], field: 'corpus' | 'split' | 'language'): GroupHours[] {
  const by = new Map<string, GroupHours>()
  for (const p of partitions) {
    const key = p[field] ?? '(none)'
    let g = by.get(key)
    if (!g) by.set(key, g = { key, hours: 0, rows: 0 })
    g.hours += p.hours
    g.rows += p.rows
  }
  return [...by.values()].sort((a, b) => b.hours - a.hours || compareUtf8(a.key, b.key))
}

const splitOrder = ['train', 'dev', 'valid', 'validation', 'test']
const splitRank = (s: string) => (splitOrder.includes(s) ? splitOrder.indexOf(s) : splitOrder.length)

/** Hours per (corpus, language, split), pivoted to one row per (corpus, language) with a column per split. */
export function hoursBySplit(partitions: readonly PartitionStats[]): SplitPivot {
  const rows = new Map<string, SplitHoursRow>()
  const splits = new Set<string>()
  for (const p of partitions) {
    const corpus = p.corpus ?? '(none)'
    const language = p.language ?? '(none)'
    const split = p.split ?? '(none)'
    splits.add(split)
    const key = `${corpus}\u0000${language}`
    let row = rows.get(key)
    if (!row) rows.set(key, row = { corpus, language, hours: {}, total: 0 })
    row.hours[split] = (row.hours[split] ?? 0) + p.hours
    row.total += p.hours
  }
  return {
    splits: [...splits].sort((a, b) => splitRank(a) - splitRank(b) || compareUtf8(a, b)),
    rows: [...rows.values()].sort((a, b) => compareUtf8(a.corpus, b.corpus) || compareUtf8(a.language, b.language)),
  }
}

/**
 * The stats TSV against the data per (corpus, language) (src/engine/dataset/tsv-coverage.ts, the verdict the audit
 * gives); a TSV row without hours counts as NaN hours (it matches nothing). Partitions without a corpus or language
 * key are left out: the TSV names both.
 */
export function tsvCoverageOf(stats: Pick<StatsReport, 'partitions' | 'summary'>): PartitionCoverage[] {
  const data: { corpus: string; language: string; split: string; hours: number }[] = []
  for (const p of stats.partitions) {
    if (p.corpus !== null && p.language !== null) data.push({ corpus: p.corpus, language: p.language, split: p.split ?? '(none)', hours: p.hours })
  }
  const tsv = (stats.summary?.rows ?? []).map((r) => ({ corpus: r.corpus, language: r.language, hours: r.hours ?? NaN }))
  return tsvCoverage(data, tsv, 'train')
}

/** A partition's hive keys other than corpus, language and split (e.g. `version`), as `key=value` text ('' for none). */
export function otherKeysText(p: PartitionStats): string {
  let out = ''
  for (const k in p) {
    if (fixedFields.has(k)) continue
    const v = p[k]
    if (v !== null) out += `${out ? ' ' : ''}${k}=${v}`
  }
  return out
}

/** Distinct non-null values of `field`, sorted by UTF-8 bytes. */
export function distinctValues(partitions: readonly PartitionStats[], field: 'corpus' | 'split' | 'language'): string[] {
  const seen = new Set<string>()
  for (const p of partitions) {
    const v = p[field]
    if (v !== null) seen.add(v)
  }
  return [...seen].sort(compareUtf8)
}

/** Every grouping the Overview draws of a whole dataset (computed once, in the worker, per open result). */
export interface OverviewTables {
  /** `hoursByLanguage` of every partition. */
  languages: LanguageHours[]
  /** `hoursBy` corpus and split. */
  corpora: GroupHours[]
  splits: GroupHours[]
  splitPivot: SplitPivot
  /** `tsvCoverageOf`, `null` when the dataset has no stats TSV. */
  tsvCoverage: PartitionCoverage[] | null
  /** Whether any partition has a hive key other than corpus, language and split. */
  hasOtherKeys: boolean
  /** Distinct corpus and split values (UTF-8 order): the Mixture's and Batches' choices. */
  corpusNames: string[]
  splitNames: string[]
}

/** The Overview's groupings of a stats report (see `OverviewTables`). */
export function overviewTables(stats: Pick<StatsReport, 'partitions' | 'summary'>): OverviewTables {
  const { partitions } = stats
  let hasOtherKeys = false
  for (const p of partitions) {
    if (otherKeysText(p) !== '') {
      hasOtherKeys = true
      break
    }
  }
  return {
    languages: hoursByLanguage(partitions),
    corpora: hoursBy(partitions, 'corpus'),
    splits: hoursBy(partitions, 'split'),
    splitPivot: hoursBySplit(partitions),
    tsvCoverage: stats.summary ? rememberedCoverage(stats) ?? tsvCoverageOf(stats) : null,
    hasOtherKeys,
    corpusNames: distinctValues(partitions, 'corpus'),
    splitNames: distinctValues(partitions, 'split'),
  }
}
