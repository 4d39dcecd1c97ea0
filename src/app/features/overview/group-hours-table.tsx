/** Hours and rows per corpus or split: a chart's text equivalent. */
import { CountCell, HoursCell, ShareCell } from '../../components/num.tsx'
import type { GroupHours } from '../../../engine/dataset/groupings.ts'

export function GroupHoursTable({ groups, noun }: { groups: GroupHours[]; noun: string }) {
  const total = groups.reduce((s, g) => s + g.hours, 0)
  return (
    <div className="scroll-box" tabIndex={0} role="region" aria-label={`Hours per ${noun} (scrollable)`}>
      <table aria-label={`Hours per ${noun}`} className="sticky-head">
        <thead>
          <tr><th scope="col">{noun[0].toUpperCase() + noun.slice(1)}</th><th scope="col" className="num">Hours</th><th scope="col" className="num">Rows</th><th scope="col" className="num">Share</th></tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.key} data-key={g.key}>
              <td dir="auto">{g.key}</td>
              <HoursCell hours={g.hours} />
              <CountCell value={g.rows} />
              <ShareCell value={total > 0 ? g.hours / total : 0} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
