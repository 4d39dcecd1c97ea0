/** Tables in text: Common Voice's TSV (no quoting) and audiofolder's `metadata.csv` (RFC 4180 quotes), read as streams. */
import type { InputFiles } from './input-files.ts'
import { readLines, readPieces } from './lines.ts'

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

/** Characters one CSV record may hold before it is refused (an unclosed quote would otherwise take the rest of the file). */
export const MAX_CSV_RECORD_CHARS = 16 << 20

/**
 * RFC 4180 CSV cut into records as text arrives in pieces (quoted fields may hold commas, `""`, `\r` and newlines;
 * a record ends at `\n`, `\r\n` or `\r` outside quotes; blank lines are dropped). Each record carries the 1-based
 * line it starts on.
 */
export class CsvRecords {
  private field = ''
  private fields: string[] = []
  private quoted = false
  /** In a quoted field, a `"` was the last character: a second one is a literal quote, anything else closes it. */
  private quotePending = false
  /** A record just ended at `\r`: a `\n` right after it belongs to that line end. */
  private afterCr = false
  private line = 1
  private recordLine = 1
  private chars = 0

  /** @param where names the text in the over-long record error */
  constructor(private readonly where = 'csv') {}

  /** Takes the next piece of text; returns the records it completes. @throws Error for a record over `MAX_CSV_RECORD_CHARS` */
  push(text: string): { line: number; fields: string[] }[] {
    const out: { line: number; fields: string[] }[] = []
    const special = /[",\r\n]/g
    let i = 0
    while (i < text.length) {
      if (this.afterCr) {
        this.afterCr = false
        if (text[i] === '\n') { i++; continue }
      }
      if (this.quotePending) {
        this.quotePending = false
        if (text[i] === '"') { this.field += '"'; this.count(1); i++; continue }
        this.quoted = false
      }
      if (this.quoted) {
        // a run up to the next quote, newlines counted
        let q = text.indexOf('"', i)
        if (q < 0) q = text.length
        const run = text.slice(i, q)
        this.count(run.length)
        for (let n = run.indexOf('\n'); n >= 0; n = run.indexOf('\n', n + 1)) this.line++
        this.field += run
        if (q < text.length) { this.quotePending = true; this.count(1) }
        i = q + 1
        continue
      }
      special.lastIndex = i
      const m = special.exec(text)
      const at = m ? m.index : text.length
      if (at > i) { this.count(at - i); this.field += text.slice(i, at) }
      if (!m) break
      const ch = text[at]
      this.count(1)
      i = at + 1
      if (ch === '"') {
        if (this.field === '') this.quoted = true
        else this.field += '"'
      } else if (ch === ',') { this.fields.push(this.field); this.field = '' }
      else {
        if (ch === '\r') this.afterCr = true
        this.endRecord(out)
        this.line++
        this.recordLine = this.line
      }
    }
    return out
  }

  /** Counts characters of the record being read. */
  private count(n: number): void {
    this.chars += n
    if (this.chars > MAX_CSV_RECORD_CHARS) throw new Error(`${this.where}:${this.recordLine}: a record of more than ${MAX_CSV_RECORD_CHARS} characters (an unclosed quote?)`)
  }

  private endRecord(out: { line: number; fields: string[] }[]): void {
    this.fields.push(this.field)
    if (this.fields.length > 1 || this.fields[0] !== '') out.push({ line: this.recordLine, fields: this.fields })
    this.fields = []
    this.field = ''
    this.chars = 0
  }

  /** The last record, when the text does not end with a line end. */
  end(): { line: number; fields: string[] }[] {
    if (this.quotePending) { this.quotePending = false; this.quoted = false }
    const out: { line: number; fields: string[] }[] = []
    if (this.field !== '' || this.fields.length) {
      this.fields.push(this.field)
      out.push({ line: this.recordLine, fields: this.fields })
      this.fields = []
      this.field = ''
    }
    return out
  }
}

/** A record's cells under the header's names (missing cells are `''`). */
function cellsOf(columns: string[], fields: string[]): Record<string, string> {
  return Object.fromEntries(columns.map((c, k) => [c, fields[k] ?? '']))
}

/** A comma-separated table with RFC 4180 quoting (quoted fields may hold commas, `""` and newlines). */
export function parseCsv(text: string): TextTable {
  const parser = new CsvRecords()
  const records = [...parser.push(text), ...parser.end()]
  const columns = records[0]?.fields.map((c) => c.trim()) ?? []
  return { columns, rows: records.slice(1).map((r) => ({ line: r.line, cells: cellsOf(columns, r.fields) })) }
}

/**
 * A CSV file read a piece at a time (UTF-8, a BOM dropped), as `parseCsv` reads its text: the header's names, then
 * each record's cells with the 1-based line it starts on. Memory: one piece and one record, whatever the file's size.
 * @throws Error for a record over `MAX_CSV_RECORD_CHARS`, or a file that cannot be read
 */
export async function* readCsv(input: InputFiles, path: string, signal?: AbortSignal, pieceSize?: number): AsyncGenerator<{ columns: string[] } | { line: number; cells: Record<string, string> }> {
  const parser = new CsvRecords(path)
  const decoder = new TextDecoder('utf-8')
  let columns: string[] | null = null
  let first = true
  function* records(list: { line: number; fields: string[] }[]): Generator<{ columns: string[] } | { line: number; cells: Record<string, string> }> {
    for (const r of list) {
      if (!columns) {
        columns = r.fields.map((c) => c.trim())
        yield { columns }
      } else yield { line: r.line, cells: cellsOf(columns, r.fields) }
    }
  }
  for await (const piece of readPieces(input, path, { signal, pieceSize })) {
    let text = decoder.decode(piece, { stream: true })
    if (first && text) {
      text = text.replace(/^\uFEFF/, '')
      first = false
    }
    yield* records(parser.push(text))
  }
  yield* records(parser.push(decoder.decode()))
  yield* records(parser.end())
  if (!columns) yield { columns: [] }
}
