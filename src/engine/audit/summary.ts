/**
 * Totals per finding kind (count, rows, hours) and per kind × mixture partition, from the checks' items.
 */
import { compareUtf8 } from '../findings.ts'
import { rowHours } from './rows.ts'
import type { AuditItem, KindSummary, TableRow } from './types.ts'

const severityRank = { error: 0, warning: 1, info: 2 } as const

/**
 * @returns `summary` keyed by kind (alphabetical; a kind's severity is its most severe finding's) and table rows
 *   `{kind, corpus, language, count, rows, hours}` sorted by kind, corpus, language
 */
export function summarizeItems(items: readonly AuditItem[]): { summary: Record<string, KindSummary>; byLanguage: TableRow[] } {
  const kinds = new Map<string, KindSummary & { samples: number }>()
  const cells = new Map<string, { kind: string; corpus: string | null; language: string | null; count: number; rows: number; samples: number }>()
  for (const item of items) {
    const { kind, severity } = item.finding
    let k = kinds.get(kind)
    if (!k) kinds.set(kind, k = { severity, count: 0, rows: 0, hours: 0, samples: 0 })
    if (severityRank[severity] < severityRank[k.severity]) k.severity = severity
    k.count++
    k.rows += item.rows
    k.samples += item.samples
    const id = JSON.stringify([kind, item.corpus, item.language])
    let c = cells.get(id)
    if (!c) cells.set(id, c = { kind, corpus: item.corpus, language: item.language, count: 0, rows: 0, samples: 0 })
    c.count++
    c.rows += item.rows
    c.samples += item.samples
  }
  const summary: Record<string, KindSummary> = {}
  for (const kind of [...kinds.keys()].sort(compareUtf8)) {
    const k = kinds.get(kind)!
    summary[kind] = { severity: k.severity, count: k.count, rows: k.rows, hours: rowHours(k.samples) }
  }
  const byLanguage = [...cells.entries()].sort((a, b) => compareUtf8(a[0], b[0]))
    .map(([, c]) => ({ kind: c.kind, corpus: c.corpus, language: c.language, count: c.count, rows: c.rows, hours: rowHours(c.samples) }))
  return { summary, byLanguage }
}
