/**
 * Totals per finding kind (count, rows, hours), per kind × mixture partition, and the flagged rows per language
 * (each row counted once, with the findings it carries), from the checks' items.
 */
import { compareUtf8 } from '../core/findings.ts'
import { rowHours } from './rows/rows.ts'
import type { AuditItem, KindSummary, TableRow } from './rows/types.ts'

const severityRank = { error: 0, warning: 1, info: 2 } as const

/**
 * @returns `summary` keyed by kind (alphabetical; a kind's severity is its most severe finding's) and table rows
 *   `{kind, corpus, language, count, rows, hours}` sorted by kind, corpus, language
 */
export function summarizeItems(items: readonly AuditItem[]): { summary: Record<string, KindSummary>; byLanguage: TableRow[]; flagged: TableRow[] } {
  const kinds = new Map<string, KindSummary & { samples: number }>()
  type Cell = { kind: string; corpus: string | null; language: string | null; count: number; rows: number; samples: number }
  // kind → corpus → language (null as its own key) → cell; each cell's JSON id (its sort key) made once
  const cells = new Map<string, Cell>()
  const byKind = new Map<string, Map<string | null, Map<string | null, Cell>>>()
  for (const item of items) {
    const { kind, severity } = item.finding
    let k = kinds.get(kind)
    if (!k) kinds.set(kind, k = { severity, count: 0, rows: 0, hours: 0, samples: 0 })
    if (severityRank[severity] < severityRank[k.severity]) k.severity = severity
    k.count++
    k.rows += item.rows
    k.samples += item.samples
    let byCorpus = byKind.get(kind)
    if (!byCorpus) byKind.set(kind, byCorpus = new Map())
    let byLanguage = byCorpus.get(item.corpus)
    if (!byLanguage) byCorpus.set(item.corpus, byLanguage = new Map())
    let c = byLanguage.get(item.language)
    if (!c) {
      byLanguage.set(item.language, c = { kind, corpus: item.corpus, language: item.language, count: 0, rows: 0, samples: 0 })
      cells.set(JSON.stringify([kind, item.corpus, item.language]), c)
    }
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
  return { summary, byLanguage, flagged: flaggedByLanguage(items) }
}

/**
 * Rows with at least one row finding (`finding.row` set), per language: each row once whatever the number of its
 * findings, its hours once; how many findings the rows carry, how many rows have an error as their worst finding.
 * @returns `{language, rows, hours, findings, error_rows, kinds}` (kinds distinct, sorted, `, `-joined), most rows
 *   first, then by language (UTF-8)
 */
export function flaggedByLanguage(items: readonly AuditItem[]): TableRow[] {
  const rows = new Map<string, { language: string; samples: number; findings: number; error: boolean; kinds: Set<string> }>()
  for (const item of items) {
    const f = item.finding
    if (f.row === null) continue
    const id = `${f.path}:${f.row}`
    let r = rows.get(id)
    if (!r) rows.set(id, r = { language: item.language ?? '(none)', samples: item.samples, findings: 0, error: false, kinds: new Set() })
    r.findings++
    if (f.severity === 'error') r.error = true
    r.kinds.add(f.kind)
  }
  const by = new Map<string, { rows: number; samples: number; findings: number; errorRows: number; kinds: Set<string> }>()
  for (const r of rows.values()) {
    let l = by.get(r.language)
    if (!l) by.set(r.language, l = { rows: 0, samples: 0, findings: 0, errorRows: 0, kinds: new Set() })
    l.rows++
    l.samples += r.samples
    l.findings += r.findings
    if (r.error) l.errorRows++
    for (const k of r.kinds) l.kinds.add(k)
  }
  return [...by].sort((a, b) => b[1].rows - a[1].rows || compareUtf8(a[0], b[0]))
    .map(([language, l]) => ({ language, rows: l.rows, hours: rowHours(l.samples), findings: l.findings, error_rows: l.errorRows, kinds: [...l.kinds].sort(compareUtf8).join(', ') }))
}
