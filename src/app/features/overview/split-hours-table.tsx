/** Hours per (corpus, language, split): one row per mixture partition (corpus, language), one column per split. */
import { HoursCell } from '../../components/number-cells.tsx'
import { LanguageCell } from '../../components/language-cell.tsx'
import type { PartitionStats } from '../../../engine/stats/types.ts'
import { hoursBySplit } from '../../lib/aggregate.ts'

export function SplitHoursTable({ partitions }: { partitions: PartitionStats[] }) {
  const { splits, rows } = hoursBySplit(partitions)
  return (
    <table aria-label="Hours per corpus, language and split">
      <thead>
        <tr>
          <th scope="col">Corpus</th>
          <th scope="col">Language</th>
          {splits.map((s) => <th key={s} scope="col" className="num">{s}</th>)}
          <th scope="col" className="num">All splits</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.corpus}/${r.language}`} data-corpus={r.corpus} data-language={r.language}>
            <td>{r.corpus}</td>
            <LanguageCell code={r.language} />
            {splits.map((s) => (r.hours[s] === undefined ? <td key={s} className="num empty">—</td> : <HoursCell key={s} hours={r.hours[s]} />))}
            <HoursCell hours={r.total} />
          </tr>
        ))}
      </tbody>
    </table>
  )
}
