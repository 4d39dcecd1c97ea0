/** Bar chart of hours (or rows) per language; the language table beside it carries the same values as text. */
import type { LanguageHours } from '../../lib/aggregate.ts'
import { languageLabel } from '../../lib/language-names.ts'
import { HoursChart } from './hours-chart.tsx'

export function LanguageHoursChart({ languages, metric = 'hours', log = false }: { languages: LanguageHours[]; metric?: 'hours' | 'rows'; log?: boolean }) {
  const groups = languages.map((l) => ({ key: l.language, hours: l.hours, rows: l.rows }))
  return <HoursChart groups={groups} noun="language" metric={metric} log={log} label={languageLabel} />
}
