/** Hours per (corpus, language, split): one row per mixture partition (corpus, language), one column per split. */
import { LanguageTable } from '../../components/language-table.tsx'
import { NumCell } from '../../components/num.tsx'
import type { SplitHoursRow, SplitPivot } from '../../../engine/dataset/groupings.ts'

/** `pivot`: `hoursBySplit` of every partition (the open result's `overview.splitPivot`). */
export function SplitHoursTable({ pivot }: { pivot: SplitPivot }) {
  const { splits, rows } = pivot
  return (
    <LanguageTable<SplitHoursRow> rows={rows} label="Hours per corpus, language and split" height={320} noun={['partition', 'partitions']}
      rowKey={(r) => `${r.corpus}/${r.language}`} rowData={(r) => ({ corpus: r.corpus })}
      columns={[
        { id: 'corpus', header: 'Corpus', sortValue: (r) => r.corpus, cell: (r) => <td dir="auto">{r.corpus}</td> },
        ...splits.map((s) => ({
          id: `split:${s}`, header: s, numeric: true, sortValue: (r: SplitHoursRow) => r.hours[s] ?? null,
          cell: (r: SplitHoursRow) => <NumCell value={r.hours[s] ?? null} kind="hours" />,
        })),
        { id: 'total', header: 'All splits', numeric: true, sortValue: (r) => r.total, cell: (r) => <NumCell value={r.total} kind="hours" /> },
      ]} />
  )
}
