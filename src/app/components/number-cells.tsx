/** Right-aligned numeric cells; the exact value stays in `data-value` (and `title`) for tests and tooltips. */
import { formatCount, formatHours } from '../lib/format.ts'

export function HoursCell({ hours }: { hours: number }) {
  return <td className="num" data-value={hours} title={`${hours} h`}>{formatHours(hours)}</td>
}

export function CountCell({ value }: { value: number }) {
  return <td className="num" data-value={value}>{formatCount(value)}</td>
}
