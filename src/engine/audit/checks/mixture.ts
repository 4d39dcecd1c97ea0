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
import { splitCellsOf, type RowsTotal, type SplitCell } from '../rows/split-cells.ts'
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

/** A mixture partition's rows: all of them, and those of some of its splits. */
interface PartitionRows {
  all(): RowsTotal
  /** The rows of the splits `accept` takes. */
  of(accept: (split: string) => boolean): Omit<RowsTotal, 'path'>
}

/** `checkMixture` over a row table: a partition's sums are added in row order (as `checkSplitsTable`'s). */
export function checkMixtureTable(t: RowTable, summary: SummaryTsv | null, trainSplit: string): CheckResult {
  const byPartition = groupTable(t, (f) => (f.corpus && f.language ? `${f.corpus}\u0000${f.language}` : null))
  const partitions = new Map(byPartition.keys.map((k, g): [string, PartitionRows] => {
    const list = groupRowsOf(byPartition, g)
    return [k, {
      all: () => ({ rows: list.length, samples: samplesAt(t, list), path: fileAt(t, list[0]).path }),
      of: (accept) => {
        const rows = list.filter((i) => accept(fileAt(t, i).split))
        return { rows: rows.length, samples: samplesAt(t, rows) }
      },
    }]
  }))
  return mixtureResult(splitCellsOf(t), partitions, summary, trainSplit)
}

/**
 * `checkMixture` over the rows counted per (corpus, language, split), in first-appearance order; a partition's sums
 * are the sums of its cells' (the same as in row order when every `audio_size` is an integer).
 */
export function checkMixtureCells(all: readonly SplitCell[], summary: SummaryTsv | null, trainSplit: string): CheckResult {
  const byPartition = new Map<string, SplitCell[]>()
  for (const c of all) {
    if (!c.corpus || !c.language) continue
    const id = `${c.corpus}\u0000${c.language}`
    const list = byPartition.get(id)
    if (list) list.push(c)
    else byPartition.set(id, [c])
  }
  const partitions = new Map([...byPartition].map(([k, cells]): [string, PartitionRows] => [k, {
    all: () => totalOf(cells),
    of: (accept) => totalOf(cells.filter((c) => accept(c.split))),
  }]))
  return mixtureResult(all, partitions, summary, trainSplit)
}

function mixtureResult(all: readonly SplitCell[], partitions: ReadonlyMap<string, PartitionRows>, summary: SummaryTsv | null, trainSplit: string): CheckResult {
  const items: AuditItem[] = []
  const data = all.filter((c) => c.corpus && c.language).map((c) => ({ corpus: c.corpus, language: c.language, split: c.split, hours: rowHours(c.samples) }))
  const coverage = tsvCoverage(data, summary?.rows ?? [], trainSplit)
  const table: TableRow[] = []
  for (const c of coverage) {
    const rows = partitions.get(`${c.corpus}\u0000${c.language}`)
    if (rows === undefined) continue // a TSV row without data: reported below
    table.push({
      corpus: c.corpus, language: c.language, data_hours: c.dataHours, train_hours: c.trainHours, held_out_hours: c.dataHours - c.trainHours,
      tsv_hours: c.tsvHours, tsv_counts: summary ? describeSplits(c) : null,
    })
    if (summary) items.push(...partitionItems(c, rows, summary.path, trainSplit))
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

/** Rows, Σ audio_size and first path of some cells. */
function totalOf(cells: readonly SplitCell[]): RowsTotal {
  let rows = 0
  let samples = 0
  let first = cells[0] ?? { first: 0, path: '' }
  for (const c of cells) {
    rows += c.rows
    samples += c.samples
    if (c.first < first.first) first = c
  }
  return { rows, samples, path: first.path }
}

/** The findings about one partition with data: missing TSV row, hours that match no splits, held-out hours counted. */
function partitionItems(c: PartitionCoverage, rows: PartitionRows, tsvPath: string, trainSplit: string): AuditItem[] {
  const name = `(corpus ${c.corpus}, language ${c.language})`
  const problem = coverageProblem(c, tsvPath)
  if (problem) {
    const all = rows.all()
    return [{ rows: all.rows, samples: all.samples, corpus: c.corpus, language: c.language,
      finding: finding('warning', problem.kind, problem.kind === 'missing-from-tsv' ? all.path : tsvPath, problem.message) }]
  }
  if (c.heldOutCounted <= 0 || c.tsvHours === null || c.tsvHours <= 0) return []
  const heldOut = rows.of((split) => split !== trainSplit && !!c.splits?.includes(split))
  const share = c.heldOutCounted / c.tsvHours
  return [{ rows: heldOut.rows, samples: heldOut.samples, corpus: c.corpus, language: c.language,
    finding: finding(share >= heldOutShareWarning ? 'warning' : 'info', 'tsv-held-out-hours', tsvPath,
      `${(100 * share).toFixed(1)}% of the TSV hours of ${name} are held-out data (the TSV counts ${describeSplits(c)}: ${hoursText(c.heldOutCounted)} of ${hoursText(c.tsvHours)} are not ${trainSplit}); training weights the partition by them, so held-out data raises its weight`) }]
}
