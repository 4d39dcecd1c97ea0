/**
 * Flagged rows of an audit as JSONL: one line per example with at least one row finding, in dataset order.
 */
import { compareUtf8, type Finding } from '../core/findings.ts'

/** One line of the export. */
export interface FlaggedRow {
  /** Example id `<file>:<row>`. */
  id: string
  path: string
  row: number
  row_group: number | null
  /** Kinds of the row's findings, sorted, distinct. */
  kinds: string[]
  /** Most severe severity among them. */
  severity: Finding['severity']
}

const rank = { error: 0, warning: 1, info: 2 } as const

/**
 * Rows with row-level findings, optionally only of `kinds` and at least `minSeverity`.
 * @returns rows sorted by path (UTF-8) then row
 */
export function flaggedRows(findings: readonly Finding[], filter: { kinds?: readonly string[]; minSeverity?: Finding['severity'] } = {}): FlaggedRow[] {
  const byRow = new Map<string, FlaggedRow>()
  for (const f of findings) {
    if (f.row === null) continue
    if (filter.kinds && !filter.kinds.includes(f.kind)) continue
    if (filter.minSeverity && rank[f.severity] > rank[filter.minSeverity]) continue
    const id = `${f.path}:${f.row}`
    let r = byRow.get(id)
    if (!r) byRow.set(id, r = { id, path: f.path, row: f.row, row_group: f.row_group, kinds: [], severity: f.severity })
    if (!r.kinds.includes(f.kind)) r.kinds.push(f.kind)
    if (rank[f.severity] < rank[r.severity]) r.severity = f.severity
  }
  return [...byRow.values()]
    .map((r) => ({ ...r, kinds: r.kinds.sort(compareUtf8) }))
    .sort((a, b) => compareUtf8(a.path, b.path) || a.row - b.row)
}

/** `flaggedRows` as JSONL text (one JSON object per line, trailing newline; empty string when nothing is flagged). */
export function flaggedRowsJsonl(findings: readonly Finding[], filter: Parameters<typeof flaggedRows>[1] = {}): string {
  return flaggedRows(findings, filter).map((r) => JSON.stringify(r) + '\n').join('')
}
