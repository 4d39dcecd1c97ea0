/** The stats TSV against the data: hours per (corpus, language) as the TSV says, in all splits, in `train`. */
import { useState } from 'react'
import { LanguageCell } from '../../components/language-cell.tsx'
import { formatHours, formatShare } from '../../lib/format.ts'
import type { TsvComparisonRow } from './group-hours.ts'

/** Relative difference above which a row is highlighted. */
const notable = 0.01
/** Above this many rows only the differing ones are listed until "Show all". */
const listAllUpTo = 100

export function TsvComparisonTable({ rows, tsvPath }: { rows: TsvComparisonRow[]; tsvPath: string }) {
  const differs = (r: TsvComparisonRow) => r.difference === null || Math.abs(r.difference) > notable
  const differing = rows.filter(differs).length
  const [all, setAll] = useState(rows.length <= listAllUpTo)
  const shown = all ? rows : rows.filter(differs)
  return (
    <>
      <p>
        <code dir="auto">{tsvPath}</code>: {differing === 0 ? 'every row matches the data within 1%.' : `${differing} of ${rows.length} (corpus, language) rows differ from the data by more than 1% or are missing on one side.`}
        {' '}Training weights come from the TSV's hours, which count every split.
      </p>
      <table aria-label="Stats TSV vs data">
        <thead>
          <tr><th scope="col">Corpus</th><th scope="col">Language</th><th scope="col" className="num">TSV hours</th><th scope="col" className="num">Data hours (all splits)</th><th scope="col" className="num">Train hours</th><th scope="col" className="num">TSV vs data</th></tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={`${r.corpus}/${r.language}`} data-corpus={r.corpus} data-language={r.language}
              className={differs(r) ? 'differs' : undefined}>
              <td dir="auto">{r.corpus}</td>
              <LanguageCell code={r.language} />
              <td className="num" data-value={r.tsvHours ?? ''}>{r.tsvHours === null ? 'missing' : formatHours(r.tsvHours)}</td>
              <td className="num" data-value={r.dataHours}>{formatHours(r.dataHours)}</td>
              <td className="num" data-value={r.trainHours}>{formatHours(r.trainHours)}</td>
              <td className="num" data-value={r.difference ?? ''}>{r.difference === null ? '—' : `${r.difference > 0 ? '+' : ''}${formatShare(r.difference)}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!all && <button type="button" onClick={() => setAll(true)}>Show all {rows.length} rows</button>}
    </>
  )
}
