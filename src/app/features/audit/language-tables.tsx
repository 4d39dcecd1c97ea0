/** Per-language views of the audit's tables: flagged rows per language (chart + table) and the length filter's drops. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { TableRow } from '../../../engine/audit/types.ts'
import { LanguageCell } from '../../components/language-cell.tsx'
import { formatCount, formatHours } from '../../lib/format.ts'
import { languageLabel } from '../../lib/language-names.ts'

/** Σ rows and hours of row findings per language (from `kinds_by_partition`), most rows first. */
export function flaggedByLanguage(rows: readonly TableRow[]): { language: string; rows: number; hours: number; kinds: string }[] {
  const by = new Map<string, { rows: number; hours: number; kinds: Set<string> }>()
  for (const r of rows) {
    const language = typeof r.language === 'string' ? r.language : '(none)'
    const e = by.get(language) ?? { rows: 0, hours: 0, kinds: new Set<string>() }
    e.rows += Number(r.rows ?? 0)
    e.hours += Number(r.hours ?? 0)
    if (typeof r.kind === 'string') e.kinds.add(r.kind)
    by.set(language, e)
  }
  return [...by].map(([language, e]) => ({ language, rows: e.rows, hours: e.hours, kinds: [...e.kinds].sort().join(', ') }))
    .sort((a, b) => b.rows - a.rows || (a.language < b.language ? -1 : 1))
}

export function LanguageKindsChart({ rows }: { rows: readonly TableRow[] }) {
  const data = flaggedByLanguage(rows)
  if (data.length === 0) return <p>No row is flagged.</p>
  return (
    <>
      <div className="chart" role="img" aria-label={`Bar chart of flagged rows per language (${data.length} languages); the table below lists the same values.`}>
        <ResponsiveContainer width="100%" height={Math.max(140, data.length * 26 + 40)}>
          <BarChart data={data} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" allowDecimals={false} />
            <YAxis type="category" dataKey="language" width={100} interval={0} />
            <Tooltip formatter={(v) => [formatCount(Number(v)), 'Flagged rows']} labelFormatter={(code) => `${languageLabel(String(code))} (${String(code)})`} />
            <Bar dataKey="rows" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table aria-label="Flagged rows per language">
        <thead><tr><th scope="col">Language</th><th scope="col" className="num">Rows</th><th scope="col" className="num">Hours</th><th scope="col">Kinds</th></tr></thead>
        <tbody>
          {data.map((d) => (
            <tr key={d.language} data-language={d.language}><LanguageCell code={d.language} /><td className="num">{formatCount(d.rows)}</td><td className="num" data-value={d.hours}>{formatHours(d.hours)}</td><td>{d.kinds}</td></tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

export function FilterDropsTable({ rows, minLen, maxLen }: { rows: readonly TableRow[]; minLen: number; maxLen: number }) {
  return (
    <>
      <p className="hint">min_audio_len {formatCount(minLen)} samples ({(minLen / 16000).toFixed(2)} s), max_audio_len {formatCount(maxLen)} ({(maxLen / 16000).toFixed(1)} s).</p>
      <table aria-label="Length filter drops per language">
        <thead><tr><th scope="col">Language</th><th scope="col" className="num">Rows</th><th scope="col" className="num">Below min</th><th scope="col" className="num">Hours</th><th scope="col" className="num">Above max</th><th scope="col" className="num">Hours</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={String(r.language)} data-language={String(r.language)}>
              <LanguageCell code={String(r.language)} />
              <td className="num">{formatCount(Number(r.rows))}</td>
              <td className="num">{formatCount(Number(r.rows_below_min))}</td>
              <td className="num" data-value={Number(r.hours_below_min)}>{formatHours(Number(r.hours_below_min))}</td>
              <td className="num">{formatCount(Number(r.rows_above_max))}</td>
              <td className="num" data-value={Number(r.hours_above_max)}>{formatHours(Number(r.hours_above_max))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}
