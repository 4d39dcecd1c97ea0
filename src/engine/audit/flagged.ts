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

/**
 * `flaggedRowsJsonl` over findings that come in the order of `sortFindings` (the findings collector's `onFindings`, a
 * path at a time), one line per flagged row as soon as the row's findings are past: holds one row, whatever the
 * number of findings (`audit --flagged` without keeping the findings).
 */
export class FlaggedRowsStream {
  private current: FlaggedRow | null = null

  /** The lines of the rows `findings` completes (a row's findings are neighbours in that order). */
  push(findings: readonly Finding[]): string {
    let out = ''
    for (const f of findings) {
      if (f.row === null) continue
      let r = this.current
      if (!r || r.path !== f.path || r.row !== f.row) {
        out += this.end()
        r = this.current = { id: `${f.path}:${f.row}`, path: f.path, row: f.row, row_group: f.row_group, kinds: [], severity: f.severity }
      }
      if (!r.kinds.includes(f.kind)) r.kinds.push(f.kind)
      if (rank[f.severity] < rank[r.severity]) r.severity = f.severity
    }
    return out
  }

  /** The last row's line ('' when none is open). */
  end(): string {
    const r = this.current
    this.current = null
    return r ? JSON.stringify({ ...r, kinds: r.kinds.sort(compareUtf8) }) + '\n' : ''
  }
}
