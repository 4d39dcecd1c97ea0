/**
 * Numbers on the page: the formatted value (src/app/lib/format.ts), the exact value in `title` (hover) and
 * `data-value` (tests, copy). Cells are right-aligned with tabular figures.
 */
import { exactText, formatCount, formatDifference, formatHours, formatProbability, formatSamples, formatShare } from '../lib/format.ts'

export type NumKind = 'hours' | 'count' | 'share' | 'difference' | 'probability' | 'samples'

const formatters: Record<NumKind, (v: number) => string> = {
  hours: formatHours, count: formatCount, share: formatShare, difference: formatDifference, probability: formatProbability,
  samples: (v) => formatSamples(v),
}
const units: Record<NumKind, string> = { hours: 'h', count: '', share: '', difference: '', probability: '', samples: 'samples at 16 kHz' }

/** A formatted number in a span (`—` for null). */
export function Num({ value, kind }: { value: number | null; kind: NumKind }) {
  if (value === null) return <span className="num">—</span>
  return <span className="num" data-value={value} title={exactText(value, units[kind])}>{formatters[kind](value)}</span>
}

/** A numeric table cell; `empty` is shown for null. */
export function NumCell({ value, kind, empty = '—' }: { value: number | null; kind: NumKind; empty?: string }) {
  if (value === null) return <td className="num empty" data-value="">{empty}</td>
  return <td className="num" data-value={value} title={exactText(value, units[kind])}>{formatters[kind](value)}</td>
}

export function HoursCell({ hours }: { hours: number }) {
  return <NumCell value={hours} kind="hours" />
}

export function CountCell({ value }: { value: number }) {
  return <NumCell value={value} kind="count" />
}

export function ShareCell({ value }: { value: number | null }) {
  return <NumCell value={value} kind="share" />
}
