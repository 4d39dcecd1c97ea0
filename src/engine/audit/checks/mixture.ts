/**
 * Mixture check: the stats TSV against the data (docs/reference-pipeline.md §4, §17). Partitions with data but no
 * TSV row are dropped from the training mixture silently; TSV hours that match no set of the data's splits skew the
 * weights; what the TSV counts (every split, as the reference dataprep writes it, the train split alone, or another
 * subset: src/engine/dataset/tsv-coverage.ts) decides whether held-out data raises a partition's weight.
 */
import { finding } from '../../core/findings.ts'
import type { SummaryTsv } from '../../dataset/dataset.ts'
import { rowHours } from '../rows/rows.ts'
import { fileAt, groupRowsOf, groupTable, rowTableOf, samplesAt, type RowTable } from '../rows/row-table.ts'
import { coverageProblem, coverageVerdict, describeSplits, hoursText, tsvCoverage, type PartitionCoverage } from '../../dataset/tsv-coverage.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../rows/types.ts'

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
  return checkMixtureTable(rowTableOf(rows), summary, trainSplit)
}

/** `checkMixture` over a row table. */
export function checkMixtureTable(t: RowTable, summary: SummaryTsv | null, trainSplit: string): CheckResult {
  const items: AuditItem[] = []
  const byPartition = groupTable(t, (f) => (f.corpus && f.language ? `${f.corpus}\u0000${f.language}` : null))
  const partitionOf = new Map(byPartition.keys.map((k, g) => [k, g]))
  const splitRows = groupTable(t, (f) => (f.corpus && f.language ? `${f.corpus}\u0000${f.language}\u0000${f.split}` : null))
  const data = splitRows.keys.map((_, g) => {
    const list = groupRowsOf(splitRows, g)
    const { corpus, language, split } = fileAt(t, list[0])
    return { corpus, language, split, hours: rowHours(samplesAt(t, list)) }
  })
  const coverage = tsvCoverage(data, summary?.rows ?? [], trainSplit)
  const table: TableRow[] = []
  for (const c of coverage) {
    const g = partitionOf.get(`${c.corpus}\u0000${c.language}`)
    if (g === undefined) continue // a TSV row without data: reported below
    table.push({
      corpus: c.corpus, language: c.language, data_hours: c.dataHours, train_hours: c.trainHours, held_out_hours: c.dataHours - c.trainHours,
      tsv_hours: c.tsvHours, tsv_counts: summary ? describeSplits(c) : null,
    })
    if (summary) items.push(...partitionItems(t, c, groupRowsOf(byPartition, g), summary.path, trainSplit))
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
function partitionItems(t: RowTable, c: PartitionCoverage, list: Int32Array, tsvPath: string, trainSplit: string): AuditItem[] {
  const at = { rows: list.length, samples: samplesAt(t, list), corpus: c.corpus, language: c.language }
  const name = `(corpus ${c.corpus}, language ${c.language})`
  const problem = coverageProblem(c, tsvPath)
  if (problem) return [{ ...at, finding: finding('warning', problem.kind, problem.kind === 'missing-from-tsv' ? fileAt(t, list[0]).path : tsvPath, problem.message) }]
  if (c.heldOutCounted <= 0 || c.tsvHours === null || c.tsvHours <= 0) return []
  const heldOut = list.filter((i) => { const { split } = fileAt(t, i); return split !== trainSplit && !!c.splits?.includes(split) })
  const share = c.heldOutCounted / c.tsvHours
  return [{ rows: heldOut.length, samples: samplesAt(t, heldOut), corpus: c.corpus, language: c.language,
    finding: finding(share >= heldOutShareWarning ? 'warning' : 'info', 'tsv-held-out-hours', tsvPath,
      `${(100 * share).toFixed(1)}% of the TSV hours of ${name} are held-out data (the TSV counts ${describeSplits(c)}: ${hoursText(c.heldOutCounted)} of ${hoursText(c.tsvHours)} are not ${trainSplit}); training weights the partition by them, so held-out data raises its weight`) }]
}
