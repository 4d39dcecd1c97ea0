/**
 * The hours of unreadable parquet files, from the stats TSV (docs/interpretations.md "What the errors cost in hours"):
 * a file whose footer cannot be read has no row count and no audio_size sum, but when the TSV counts every split its
 * hours for the file's (corpus, language) less the readable files' hours of it are the unreadable files' hours.
 * `problemCounts` (src/engine/core/problem-counts.ts) takes it as `ProblemInput.unreadable`.
 */
import type { UnreadableHours } from '../core/problem-counts.ts'
import type { StatsReport } from './stats-types.ts'
import { hiveKeysOf } from './hive.ts'
import { tsvCoverage } from './tsv-coverage.ts'

/**
 * The unreadable files' hours per (corpus, language) from the stats TSV (see the module's comment): `hours` maps
 * each file whose hours are known to its share (the pair's hours less the readable files', counted once on the
 * pair's first unreadable file), `why` says why the others are not.
 */
export function unreadableHours(files: readonly string[], stats: Pick<StatsReport, 'partitions' | 'summary'> | null | undefined): UnreadableHours {
  const hours = new Map<string, number>()
  const rows = stats?.summary?.rows ?? []
  if (!stats || rows.length === 0) return { hours, why: 'their footers cannot be read and no stats TSV counts their hours' }
  const pairOf = (path: string) => { const k = hiveKeysOf(path); return k.corpus !== undefined && k.language !== undefined ? `${k.corpus}\u0000${k.language}` : null }
  const broken = new Set(files.map(pairOf).filter((p): p is string => p !== null))
  const data = stats.partitions.filter((p) => p.corpus !== null && p.language !== null)
    .map((p) => ({ corpus: p.corpus!, language: p.language!, split: p.split ?? '', hours: p.hours }))
  const coverage = tsvCoverage(data, rows.map((r) => ({ corpus: r.corpus, language: r.language, hours: r.hours ?? NaN })), 'train')
  // whether the TSV counts every split: its verdict on the partitions whose files are all readable
  const whole = coverage.filter((c) => !broken.has(`${c.corpus}\u0000${c.language}`) && c.kind !== 'no-data' && c.kind !== 'no-tsv-row')
  const everySplit = whole.some((c) => c.kind === 'all-splits') && whole.every((c) => c.kind === 'all-splits' || c.kind === 'no-held-out')
  if (!everySplit) return { hours, why: 'their footers cannot be read and the stats TSV does not count every split' }
  const byPair = new Map(coverage.map((c) => [`${c.corpus}\u0000${c.language}`, c]))
  const counted = new Set<string>()
  for (const path of files) {
    const pair = pairOf(path)
    const c = pair === null ? undefined : byPair.get(pair)
    if (!c || c.tsvHours === null || !Number.isFinite(c.tsvHours)) continue
    hours.set(path, counted.has(pair!) ? 0 : Math.max(0, c.tsvHours - c.dataHours))
    counted.add(pair!)
  }
  return { hours, why: 'their footers cannot be read and the stats TSV has no row for their corpus and language' }
}

