/**
 * The stats TSV against the data, per (corpus, language): the TSV's hours, the data's over every split and in
 * `train`, and which splits the TSV's hours count (src/engine/dataset/tsv-coverage.ts, the same verdict the audit
 * gives), with one sentence on what training then does.
 */
import { coverageCounts, coverageVerdict, describeSplits, type PartitionCoverage } from '../../../engine/index.ts'
import { LanguageTable } from '../../components/language-table.tsx'
import { NumCell } from '../../components/num.tsx'
import { formatCount } from '../../lib/format.ts'

const kindWords: Record<PartitionCoverage['kind'], string> = {
  'all-splits': 'every split', 'train-only': 'train only', subset: 'a subset', 'no-held-out': 'train (no held-out data)',
  none: 'matches no splits', 'no-tsv-row': 'no TSV row', 'no-data': 'no data',
}

/** `rows`: `tsvCoverageOf` the dataset (the open result's `overview.tsvCoverage`, made in the worker). */
export function TsvComparisonTable({ rows, tsvPath }: { rows: readonly PartitionCoverage[]; tsvPath: string }) {
  const verdict = coverageVerdict(rows, 'train')
  const counts = coverageCounts(rows)
  const problems = counts.none + counts['no-tsv-row'] + counts['no-data']
  return (
    <>
      <p data-testid="tsv-verdict">
        <code dir="auto">{tsvPath}</code>: {verdict ? <>{verdict.text}.</> : 'no partition has held-out data, so every reading of the TSV gives the same hours.'}
        {' '}{problems === 0 ? 'Every row matches the data.' : `${formatCount(problems)} of ${formatCount(rows.length)} (corpus, language) rows do not match: ${counts.none} match no set of splits, ${counts['no-tsv-row']} have no TSV row (training drops them), ${counts['no-data']} have no data.`}
      </p>
      <LanguageTable<PartitionCoverage> rows={rows} label="Stats TSV vs data" height={320} noun={['partition', 'partitions']}
        rowKey={(r) => `${r.corpus}/${r.language}`} rowData={(r) => ({ corpus: r.corpus, kind: r.kind })}
        initialSort={{ id: 'counts', descending: false }}
        columns={[
          { id: 'corpus', header: 'Corpus', sortValue: (r) => r.corpus, cell: (r) => <td dir="auto">{r.corpus}</td> },
          { id: 'tsv', header: 'TSV hours', numeric: true, sortValue: (r) => r.tsvHours, cell: (r) => <NumCell value={r.tsvHours} kind="hours" empty="missing" /> },
          { id: 'data', header: 'Data hours (all splits)', numeric: true, sortValue: (r) => r.dataHours, cell: (r) => <NumCell value={r.dataHours} kind="hours" /> },
          { id: 'train', header: 'Train hours', numeric: true, sortValue: (r) => r.trainHours, cell: (r) => <NumCell value={r.trainHours} kind="hours" /> },
          {
            id: 'counts', header: 'TSV counts', title: 'Which splits add up to the TSV hours',
            // problems first, then by reading
            sortValue: (r) => ['none', 'no-tsv-row', 'no-data', 'subset', 'all-splits', 'train-only', 'no-held-out'].indexOf(r.kind),
            cell: (r) => <td className={r.kind === 'none' || r.kind === 'no-tsv-row' || r.kind === 'no-data' ? 'severity warning' : undefined}>{r.splits ? describeSplits(r) : kindWords[r.kind]}</td>,
          },
        ]} />
    </>
  )
}
