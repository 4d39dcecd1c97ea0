/**
 * Index rows grouped back into files (`IndexEntry`): what discovery needs to open a dataset without reading its
 * footers, and what stats needs without reading `audio_size` (the same `FileFacts` a read gives). The rows are
 * checked as they are grouped (one run of rows per file, row groups 0, 1, … in order), so a damaged or hand-edited
 * index is refused rather than trusted.
 */
import { MixscopeError } from '../core/findings.ts'
import type { ColumnInfo, FileFacts, RowGroupInfo } from './dataset.ts'
import { internColumns } from '../parquet/intern-columns.ts'
import type { IndexRow } from './index-format.ts'

/** One file as the index describes it. */
export interface IndexEntry {
  path: string
  size: number
  mtimeMs: number | null
  /** Footer error (`unreadable-parquet` message), or `null`. */
  error: string | null
  /** Row groups (empty for a file without a readable row group). */
  rowGroups: RowGroupInfo[]
  /** Rows in all (0 for a file that is not readable parquet). */
  rows: number
  /** Top-level columns, `null` when the index does not know them (not readable parquet). */
  columns: ColumnInfo[] | null
  /** The `audio_size` facts, `null` when `needsRead` says stats must read the file itself. */
  facts: FileFacts | null
  needsRead: string | null
}

/**
 * Groups index rows (in their file order) by path.
 * @param where the index's path or URL, for errors
 * @throws MixscopeError `bad-index` when the rows are not one run per file with row groups in order
 */
export function indexEntries(rows: readonly IndexRow[], where: string): Map<string, IndexEntry> {
  const entries = new Map<string, IndexEntry>()
  const fail = (i: number, what: string) => new MixscopeError(`index: ${where} row ${i}: ${what}`, 'bad-index', 'data')
  let current: IndexEntry | null = null
  let columnsJson: string | null = null
  rows.forEach((row, i) => {
    if (current && row.path === current.path) {
      const expected = current.rowGroups.length
      if (row.row_group !== expected) throw fail(i, `${row.path} row group ${row.row_group} follows row group ${expected - 1}`)
      if (row.size !== current.size) throw fail(i, `${row.path} has size ${row.size} here and ${current.size} above`)
    } else {
      if (entries.has(row.path)) throw fail(i, `${row.path} appears again after other files`)
      if (row.row_group !== null && row.row_group !== 0) throw fail(i, `${row.path} starts at row group ${row.row_group}, expected 0`)
      columnsJson = row.columns
      current = {
        path: row.path, size: row.size, mtimeMs: row.mtime_ms, error: row.error, rowGroups: [], rows: row.rows ?? 0,
        columns: parseColumns(row.columns, () => fail(i, `${row.path} has columns ${JSON.stringify(row.columns)}, expected JSON [[name, type, nullable], …]`)),
        facts: { groups: [] }, needsRead: row.needs_read,
      }
      if (row.row_group !== null) current.rows = 0
      entries.set(row.path, current)
    }
    if (row.row_group === null) return
    if (row.rows === null || row.first_row === null) throw fail(i, `${row.path} row group ${row.row_group} has no rows or first_row`)
    if (row.first_row !== current.rows) throw fail(i, `${row.path} row group ${row.row_group} starts at row ${row.first_row}, expected ${current.rows}`)
    if (row.columns !== columnsJson) throw fail(i, `${row.path} row group ${row.row_group} has other columns than row group 0`)
    current.rowGroups.push({ index: row.row_group, rows: row.rows, firstRow: row.first_row, compressedBytes: row.compressed_bytes ?? undefined })
    current.rows += row.rows
    if (row.needs_read !== null) current.needsRead ??= row.needs_read
    current.facts!.groups.push({
      rows: row.rows,
      sum: row.audio_size_sum ?? 0,
      min: row.audio_size_min,
      max: row.audio_size_max,
      nulls: row.audio_size_nulls ?? 0,
      error: row.read_error,
    })
  })
  for (const entry of entries.values()) {
    if (entry.needsRead !== null || entry.error !== null || entry.columns === null) entry.facts = null
    if (entry.rowGroups.length === 0 && entry.facts) entry.facts = { groups: [] }
  }
  return entries
}

/** Parsed `columns` values of the index being read (every file of a dataset usually has the same one). */
const parsedColumns = new Map<string, ColumnInfo[]>()

function parseColumns(json: string | null, bad: () => Error): ColumnInfo[] | null {
  if (json === null) return null
  const known = parsedColumns.get(json)
  if (known) return known
  const columns = parseColumnsOnce(json, bad)
  if (parsedColumns.size >= 1024) parsedColumns.delete(parsedColumns.keys().next().value as string)
  parsedColumns.set(json, columns)
  return columns
}

function parseColumnsOnce(json: string, bad: () => Error): ColumnInfo[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    throw bad()
  }
  if (!Array.isArray(parsed) || !parsed.every((c) => Array.isArray(c) && c.length === 3 && typeof c[0] === 'string' && typeof c[1] === 'string' && typeof c[2] === 'boolean')) throw bad()
  return internColumns(parsed.map(([name, type, nullable]: [string, string, boolean]) => ({ name, type, nullable })))
}

/** A file's columns as the index stores them: JSON `[[name, type, nullable], …]`. */
export function columnsJson(columns: readonly ColumnInfo[]): string {
  return JSON.stringify(columns.map((c) => [c.name, c.type, c.nullable]))
}
