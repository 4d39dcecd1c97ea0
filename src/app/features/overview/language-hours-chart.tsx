/** Bar chart of hours per language (recharts); the language table beside it carries the same values as text. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { LanguageHours } from '../../lib/aggregate.ts'
import { formatHours } from '../../lib/format.ts'
import { languageLabel } from '../../lib/language-names.ts'

/** At most this many bars; the table lists every language. */
const maxBars = 40

export function LanguageHoursChart({ languages }: { languages: LanguageHours[] }) {
  const shown = languages.slice(0, maxBars).map((l) => ({ ...l, label: languageLabel(l.language) }))
  const height = Math.max(160, shown.length * 26 + 40)
  const axisWidth = Math.min(160, 16 + 8 * Math.max(4, ...shown.map((l) => l.language.length)))
  return (
    <div
      className="chart"
      role="img"
      aria-label={`Bar chart of hours per language (${shown.length} of ${languages.length} languages); the table "Hours per language" lists the same values.`}
    >
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={shown} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" tickFormatter={(h: number) => formatHours(h)} />
          <YAxis type="category" dataKey="language" width={axisWidth} interval={0} />
          <Tooltip
            formatter={(value) => [`${formatHours(Number(value))} h`, 'Hours']}
            labelFormatter={(code) => `${languageLabel(String(code))} (${String(code)})`}
          />
          <Bar dataKey="hours" name="Hours" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      {languages.length > maxBars && <p className="hint">Showing the {maxBars} languages with the most hours.</p>}
    </div>
  )
}
