/** Hours and rows per language, over all corpora and splits: the chart's text equivalent. */
import { CountCell, HoursCell } from '../../components/number-cells.tsx'
import { LanguageCell } from '../../components/language-cell.tsx'
import type { LanguageHours } from '../../lib/aggregate.ts'
import { formatShare } from '../../lib/format.ts'

export function LanguageHoursTable({ languages }: { languages: LanguageHours[] }) {
  return (
    <table aria-label="Hours per language">
      <thead>
        <tr><th scope="col">Language</th><th scope="col" className="num">Hours</th><th scope="col" className="num">Rows</th><th scope="col" className="num">Share</th></tr>
      </thead>
      <tbody>
        {languages.map((l) => (
          <tr key={l.language} data-language={l.language}>
            <LanguageCell code={l.language} />
            <HoursCell hours={l.hours} />
            <CountCell value={l.rows} />
            <td className="num">{formatShare(l.share)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
