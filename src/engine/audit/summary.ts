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
  // a path's items together, as the tally's flagged rows want them (the order within a path is kept)
  const byPath = new Map<string, AuditItem[]>()
  for (const item of items) {
    const list = byPath.get(item.finding.path)
    if (list) list.push(item)
    else byPath.set(item.finding.path, [item])
  }
  const tally = new ItemSummary()
  for (const list of byPath.values()) for (const item of list) tally.add(item)
  return tally.result()
}

/** A row with a row finding, while its file's findings are walked. */
type FlaggedRowTally = { language: string; samples: number; findings: number; error: boolean; kinds: Set<string> }

/**
 * `summarizeItems` one item at a time: the kinds' and cells' sums in any order; the flagged rows counted per file, so
 * the items must come a path at a time (the findings collector's `onItem`, src/engine/core/findings-sink.ts) and the
 * tally holds one file's flagged rows, whatever the dataset's.
 */
export class ItemSummary {
  private readonly kinds = new Map<string, KindSummary & { samples: number }>()
  // kind → corpus → language (null as its own key) → cell; each cell's JSON id (its sort key) made once
  private readonly cells = new Map<string, Cell>()
  private readonly byKind = new Map<string, Map<string | null, Map<string | null, Cell>>>()
  private path: string | null = null
  private rows = new Map<number, FlaggedRowTally>()
  private readonly languages = new Map<string, { rows: number; samples: number; findings: number; errorRows: number; kinds: Set<string> }>()

  add(item: AuditItem): void {
    const { kind, severity } = item.finding
    let k = this.kinds.get(kind)
    if (!k) this.kinds.set(kind, k = { severity, count: 0, rows: 0, hours: 0, samples: 0 })
    if (severityRank[severity] < severityRank[k.severity]) k.severity = severity
    k.count++
    k.rows += item.rows
    k.samples += item.samples
    let byCorpus = this.byKind.get(kind)
    if (!byCorpus) this.byKind.set(kind, byCorpus = new Map())
    let byLanguage = byCorpus.get(item.corpus)
    if (!byLanguage) byCorpus.set(item.corpus, byLanguage = new Map())
    let c = byLanguage.get(item.language)
    if (!c) {
      byLanguage.set(item.language, c = { kind, corpus: item.corpus, language: item.language, count: 0, rows: 0, samples: 0 })
      this.cells.set(JSON.stringify([kind, item.corpus, item.language]), c)
    }
    c.count++
    c.rows += item.rows
    c.samples += item.samples
    const f = item.finding
    if (f.row === null) return
    if (f.path !== this.path) {
      this.endFile()
      this.path = f.path
    }
    let r = this.rows.get(f.row)
    if (!r) this.rows.set(f.row, r = { language: item.language ?? '(none)', samples: item.samples, findings: 0, error: false, kinds: new Set() })
    r.findings++
    if (f.severity === 'error') r.error = true
    r.kinds.add(f.kind)
  }

  /** The flagged rows of the file walked so far, added to their languages. */
  private endFile(): void {
    for (const r of this.rows.values()) {
      let l = this.languages.get(r.language)
      if (!l) this.languages.set(r.language, l = { rows: 0, samples: 0, findings: 0, errorRows: 0, kinds: new Set() })
      l.rows++
      l.samples += r.samples
      l.findings += r.findings
      if (r.error) l.errorRows++
      for (const k of r.kinds) l.kinds.add(k)
    }
    this.rows = new Map()
  }

  /** What `summarizeItems` returns for the items added. */
  result(): { summary: Record<string, KindSummary>; byLanguage: TableRow[]; flagged: TableRow[] } {
    this.endFile()
    this.path = null
    const summary: Record<string, KindSummary> = {}
    for (const kind of [...this.kinds.keys()].sort(compareUtf8)) {
      const k = this.kinds.get(kind)!
      summary[kind] = { severity: k.severity, count: k.count, rows: k.rows, hours: rowHours(k.samples) }
    }
    const byLanguage = [...this.cells.entries()].sort((a, b) => compareUtf8(a[0], b[0]))
      .map(([, c]) => ({ kind: c.kind, corpus: c.corpus, language: c.language, count: c.count, rows: c.rows, hours: rowHours(c.samples) }))
    const flagged = [...this.languages].sort((a, b) => b[1].rows - a[1].rows || compareUtf8(a[0], b[0]))
      .map(([language, l]) => ({ language, rows: l.rows, hours: rowHours(l.samples), findings: l.findings, error_rows: l.errorRows, kinds: [...l.kinds].sort(compareUtf8).join(', ') }))
    return { summary, byLanguage, flagged }
  }
}

type Cell = { kind: string; corpus: string | null; language: string | null; count: number; rows: number; samples: number }

/**
 * Rows with at least one row finding (`finding.row` set), per language: each row once whatever the number of its
 * findings, its hours once; how many findings the rows carry, how many rows have an error as their worst finding.
 * @returns `{language, rows, hours, findings, error_rows, kinds}` (kinds distinct, sorted, `, `-joined), most rows
 *   first, then by language (UTF-8)
 */
export function flaggedByLanguage(items: readonly AuditItem[]): TableRow[] {
  return summarizeItems(items).flagged
}
