/** Prints benchmark rows as an aligned text table (what `npm run bench` shows). */

/** One measured row: a label and named values (numbers are printed with sensible precision). */
export interface BenchRow {
  benchmark: string
  [column: string]: string | number
}

function cell(value: string | number | undefined): string {
  if (value === undefined) return ''
  if (typeof value === 'string') return value
  if (Number.isInteger(value)) return String(value)
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(2) : value.toPrecision(3)
}

/** Formats `rows` with the union of their columns. */
export function formatTable(rows: BenchRow[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  const text = rows.map((r) => columns.map((c) => cell(r[c])))
  const widths = columns.map((c, i) => Math.max(c.length, ...text.map((t) => t[i].length)))
  const line = (cells: string[]) => cells.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd()
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...text.map(line)].join('\n')
}
