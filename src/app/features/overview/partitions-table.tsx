/** Every partition folder found (one distinct combination of hive keys), in the engine's order. */
import { CountCell, HoursCell } from '../../components/number-cells.tsx'
import { LanguageCell } from '../../components/language-cell.tsx'
import type { PartitionStats } from '../../../engine/stats/types.ts'

const fixed = new Set(['corpus', 'language', 'split', 'files', 'row_groups', 'rows', 'samples', 'hours'])

/** Hive keys other than corpus/language/split (e.g. `version`), as `key=value` text. */
function otherKeys(p: PartitionStats): string {
  return Object.entries(p).filter(([k, v]) => !fixed.has(k) && v !== null).map(([k, v]) => `${k}=${v}`).join(' ')
}

export function PartitionsTable({ partitions }: { partitions: PartitionStats[] }) {
  const showOther = partitions.some((p) => otherKeys(p) !== '')
  return (
    <table aria-label="Partition folders">
      <thead>
        <tr>
          <th scope="col">Corpus</th><th scope="col">Language</th><th scope="col">Split</th>
          {showOther && <th scope="col">Other keys</th>}
          <th scope="col" className="num">Files</th><th scope="col" className="num">Row groups</th><th scope="col" className="num">Rows</th><th scope="col" className="num">Hours</th>
        </tr>
      </thead>
      <tbody>
        {partitions.map((p, i) => (
          <tr key={i} data-corpus={p.corpus ?? ''} data-language={p.language ?? ''} data-split={p.split ?? ''}>
            <td>{p.corpus ?? '—'}</td>
            {p.language === null ? <td>—</td> : <LanguageCell code={p.language} />}
            <td>{p.split ?? '—'}</td>
            {showOther && <td>{otherKeys(p)}</td>}
            <CountCell value={p.files} />
            <CountCell value={p.row_groups} />
            <CountCell value={p.rows} />
            <HoursCell hours={p.hours} />
          </tr>
        ))}
      </tbody>
    </table>
  )
}
