/**
 * Mixture check: the stats TSV against the data (docs/reference-pipeline.md §4, §17). Partitions with data but no
 * TSV row are dropped from the training mixture silently; TSV hours that match no set of the data's splits skew the
 * weights; what the TSV counts (every split, as the reference dataprep writes it, the train split alone, or another
 * subset: src/engine/stats/tsv-coverage.ts) decides whether held-out data raises a partition's weight.
 */
import { finding } from '../../findings.ts'
import type { SummaryTsv } from '../../dataset.ts'
import { groupRows, rowHours, samplesOf } from '../rows.ts'
import { coverageProblem, coverageVerdict, describeSplits, hoursText, tsvCoverage, type PartitionCoverage } from '../../stats/tsv-coverage.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../types.ts'

/** Share of a partition's TSV hours coming from non-train splits above which it is a `warning` (else `info`). */
export const heldOutShareWarning = 0.25

/**
 * @param rows every row of the dataset
 * @param summary the stats TSV, or `null`
 * @param trainSplit the split value training selects (the config's parsed split, normally `train`)
 * @returns `missing-from-tsv`, `tsv-hours-mismatch` (no set of splits adds up to the TSV's hours),
 *   `tsv-row-without-data`, `tsv-held-out-hours` (only where the TSV's hours do count held-out splits; warning when
 *   that is ≥ `heldOutShareWarning` of them, else info), one dataset finding saying what the TSV counts
 *   (`tsv-hours-all-splits`, `tsv-hours-train-only` or `tsv-hours-split-subset`, info; none when no
 *   partition has held-out data), `no-summary-tsv` (info); table `mixture` per partition
 */
export function checkMixture(rows: readonly AuditRow[], summary: SummaryTsv | null, trainSplit: string): CheckResult {
  const items: AuditItem[] = []
  const keyed = rows.filter((r) => r.corpus && r.language)
  const byPartition = groupRows(keyed, (r) => `${r.corpus}\u0000${r.language}`)
  const splitRows = groupRows(keyed, (r) => `${r.corpus}\u0000${r.language}\u0000${r.split}`)
  const data = [...splitRows.values()].map((list) => ({ corpus: list[0].corpus, language: list[0].language, split: list[0].split, hours: rowHours(samplesOf(list)) }))
  const coverage = tsvCoverage(data, summary?.rows ?? [], trainSplit)
  const table: TableRow[] = []
  for (const c of coverage) {
    const list = byPartition.get(`${c.corpus}\u0000${c.language}`)
    if (!list) continue // a TSV row without data: reported below
    table.push({
      corpus: c.corpus, language: c.language, data_hours: c.dataHours, train_hours: c.trainHours, held_out_hours: c.dataHours - c.trainHours,
      tsv_hours: c.tsvHours, tsv_counts: summary ? describeSplits(c) : null,
    })
    if (summary) items.push(...partitionItems(c, list, summary.path, trainSplit))
  }
  if (!summary) {
    items.push({ rows: 0, samples: 0, corpus: null, language: null, finding: finding('info', 'no-summary-tsv', '',
      'no language_distribution_*.tsv found: the reference trains on one stream without a mixture (reference §4)') })
    return { items, tables: { mixture: table } }
  }
  for (const c of coverage.filter((x) => x.kind === 'no-data')) {
    items.push({ rows: 0, samples: 0, corpus: c.corpus, language: c.language, finding: finding('warning', 'tsv-row-without-data', summary.path, coverageProblem(c, summary.path)!.message) })
  }
  const verdict = coverageVerdict(coverage, trainSplit)
  if (verdict) {
    const kind = { 'all-splits': 'tsv-hours-all-splits', 'train-only': 'tsv-hours-train-only', mixed: 'tsv-hours-split-subset' }[verdict.kind]
    items.push({ rows: 0, samples: 0, corpus: null, language: null,
      finding: finding('info', kind, summary.path, `stats TSV ${summary.path}: ${verdict.text} (reference §4, §17)`) })
  }
  return { items, tables: { mixture: table } }
}

/** The findings about one partition with data: missing TSV row, hours that match no splits, held-out hours counted. */
function partitionItems(c: PartitionCoverage, list: readonly AuditRow[], tsvPath: string, trainSplit: string): AuditItem[] {
  const at = { rows: list.length, samples: samplesOf(list), corpus: c.corpus, language: c.language }
  const name = `(corpus ${c.corpus}, language ${c.language})`
  const problem = coverageProblem(c, tsvPath)
  if (problem) return [{ ...at, finding: finding('warning', problem.kind, problem.kind === 'missing-from-tsv' ? list[0].path : tsvPath, problem.message) }]
  if (c.heldOutCounted <= 0 || c.tsvHours === null || c.tsvHours <= 0) return []
  const heldOut = list.filter((r) => r.split !== trainSplit && c.splits?.includes(r.split))
  const share = c.heldOutCounted / c.tsvHours
  return [{ rows: heldOut.length, samples: samplesOf(heldOut), corpus: c.corpus, language: c.language,
    finding: finding(share >= heldOutShareWarning ? 'warning' : 'info', 'tsv-held-out-hours', tsvPath,
      `${(100 * share).toFixed(1)}% of the TSV hours of ${name} are held-out data (the TSV counts ${describeSplits(c)}: ${hoursText(c.heldOutCounted)} of ${hoursText(c.tsvHours)} are not ${trainSplit}); training weights the partition by them, so held-out data raises its weight`) }]
}
