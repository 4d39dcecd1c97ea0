/** Tables in text: Common Voice's TSV (no quoting) and audiofolder's `metadata.csv` (RFC 4180 quotes). */
import type { InputFiles } from './input-files.ts'
import { readLines } from './lines.ts'

/** Rows of a table: the header's names → cells, with each row's 1-based line number. */
export interface TextTable { columns: string[]; rows: { line: number; cells: Record<string, string> }[] }

/** A tab-separated table without quoting, as Common Voice writes it (a `"` is part of the text). */
export function parseTsv(text: string): TextTable {
  const lines = text.split(/\r?\n/)
  const columns = (lines[0] ?? '').split('\t')
  const rows: TextTable['rows'] = []
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '') continue
    const parts = lines[i].split('\t')
    rows.push({ line: i + 1, cells: Object.fromEntries(columns.map((c, k) => [c, parts[k] ?? ''])) })
  }
  return { columns, rows }
}

/**
 * A tab-separated file read line by line over its bytes (never one string), as `parseTsv` reads its text: the
 * header's names, then each non-empty line's cells with its 1-based line number.
 */
export async function* readTsv(input: InputFiles, path: string, signal?: AbortSignal): AsyncGenerator<{ columns: string[] } | { line: number; cells: Record<string, string> }> {
  let columns: string[] | null = null
  for await (const { line, number } of readLines(input, path, signal)) {
    if (!columns) {
      columns = line.split('\t')
      yield { columns }
      continue
    }
    if (line === '') continue
    const parts = line.split('\t')
    yield { line: number, cells: Object.fromEntries(columns.map((c, k) => [c, parts[k] ?? ''])) }
  }
  if (!columns) yield { columns: [''] }
}

/** A comma-separated table with RFC 4180 quoting (quoted fields may hold commas, `""` and newlines). */
export function parseCsv(text: string): TextTable {
  const records: { line: number; fields: string[] }[] = []
  let field = ''
  let fields: string[] = []
  let quoted = false
  let line = 1
  let recordLine = 1
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') { field += '"'; i++ } else quoted = false
      } else {
        if (ch === '\n') line++
        field += ch
      }
    } else if (ch === '"' && field === '') quoted = true
    else if (ch === ',') { fields.push(field); field = '' }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      fields.push(field)
      if (fields.length > 1 || fields[0] !== '') records.push({ line: recordLine, fields })
      fields = []
      field = ''
      line++
      recordLine = line
    } else field += ch
  }
  if (field !== '' || fields.length) {
    fields.push(field)
    records.push({ line: recordLine, fields })
  }
  const columns = records[0]?.fields.map((c) => c.trim()) ?? []
  return { columns, rows: records.slice(1).map((r) => ({ line: r.line, cells: Object.fromEntries(columns.map((c, k) => [c, r.fields[k] ?? ''])) })) }
}
