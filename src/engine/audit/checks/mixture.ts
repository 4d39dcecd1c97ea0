/**
 * Mixture check: the stats TSV against the data (docs/reference-pipeline.md §4, §17). Partitions with data but no TSV row are dropped
 * from the training mixture silently; TSV hours that disagree with the data skew the weights; TSV hours include
 * dev and test, so held-out data raises a partition's weight.
 */
import { compareUtf8, finding } from '../../findings.ts'
import type { SummaryTsv } from '../../dataset.ts'
import { summaryHoursTolerance } from '../../stats/stats.ts'
import { groupRows, rowHours, samplesOf } from '../rows.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../types.ts'

/** Share of a partition's TSV hours coming from non-train splits above which it is a `warning` (else `info`). */
export const heldOutShareWarning = 0.25

/**
 * @param rows every row of the dataset
 * @param summary the stats TSV, or `null`
 * @param trainSplit the split value training selects (the config's parsed split, normally `train`)
 * @returns `missing-from-tsv`, `tsv-hours-mismatch`, `tsv-row-without-data`, `tsv-held-out-hours` (warning when the
 *   held-out share is ≥ `heldOutShareWarning`, else info), `no-summary-tsv` (info); table `mixture` per partition
 */
export function checkMixture(rows: readonly AuditRow[], summary: SummaryTsv | null, trainSplit: string): CheckResult {
  const items: AuditItem[] = []
  const data = groupRows(rows.filter((r) => r.corpus && r.language), (r) => JSON.stringify([r.corpus, r.language]))
  const tsv = new Map<string, number>()
  for (const row of summary?.rows ?? []) {
    const id = JSON.stringify([row.corpus, row.language])
    tsv.set(id, (tsv.get(id) ?? 0) + row.hours)
  }
  const table: TableRow[] = []
  const ids = [...data.keys()].sort((a, b) => compareUtf8(a, b))
  for (const id of ids) {
    const list = data.get(id)!
    const { corpus, language, path } = list[0]
    const samples = samplesOf(list)
    const hours = rowHours(samples)
    const heldOut = list.filter((r) => r.split !== trainSplit)
    const heldOutHours = rowHours(samplesOf(heldOut))
    const listed = tsv.get(id)
    table.push({ corpus, language, data_hours: hours, train_hours: hours - heldOutHours, held_out_hours: heldOutHours, tsv_hours: listed ?? null })
    const at = { rows: list.length, samples, corpus, language }
    if (!summary) continue
    if (listed === undefined) {
      items.push({ ...at, finding: finding('warning', 'missing-from-tsv', path,
        `(corpus ${corpus}, language ${language}) has ${hours} hours of data but no row in ${summary.path}: training silently drops this partition from the mixture (reference §4)`) })
      continue
    }
    if (Number.isFinite(listed) && Math.abs(listed - hours) > summaryHoursTolerance * Math.max(Math.abs(hours), 1e-9)) {
      items.push({ ...at, finding: finding('warning', 'tsv-hours-mismatch', summary.path,
        `stats TSV ${summary.path} gives (corpus ${corpus}, language ${language}) ${listed} hours; the data holds ${hours} hours over all splits`) })
    }
    if (heldOut.length > 0 && hours > 0) {
      const share = heldOutHours / hours
      items.push({ rows: heldOut.length, samples: samplesOf(heldOut), corpus, language,
        finding: finding(share >= heldOutShareWarning ? 'warning' : 'info', 'tsv-held-out-hours', summary.path,
          `${(100 * share).toFixed(1)}% of the data hours of (corpus ${corpus}, language ${language}) are in splits other than ${trainSplit} (${heldOutHours} of ${hours} hours); the TSV counts them, so they raise this partition's training weight`) })
    }
  }
  if (!summary) {
    items.push({ rows: 0, samples: 0, corpus: null, language: null, finding: finding('info', 'no-summary-tsv', '',
      'no language_distribution_*.tsv found: the reference trains on one stream without a mixture (reference §4)') })
  } else {
    for (const row of summary.rows) {
      const id = JSON.stringify([row.corpus, row.language])
      if (data.has(id)) continue
      items.push({ rows: 0, samples: 0, corpus: row.corpus, language: row.language, finding: finding('warning', 'tsv-row-without-data', summary.path,
        `stats TSV ${summary.path} lists (corpus ${row.corpus}, language ${row.language}) with ${row.hours} hours, but no data folder has that pair; the reference ignores the row`) })
    }
  }
  return { items, tables: { mixture: table } }
}
