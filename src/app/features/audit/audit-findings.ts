/** The Audit view's list: every finding with where it came from, grouped, sorted and filtered (pure functions). */
import { compareUtf8, type Finding } from '../../../engine/index.ts'
import type { AuditTriage } from '../../stores/audit-link-store.ts'

/** Where a finding was found: opening (validation), the config check, or the audit's checks. */
export type FindingSource = 'validation' | 'config' | 'audit'

export interface SourcedFinding extends Finding {
  source: FindingSource
}

const severityRank = { error: 0, warning: 1, info: 2 } as const

/** Joins the three lists, dropping exact duplicates (the audit repeats discovery findings). */
export function joinFindings(lists: [FindingSource, readonly Finding[]][]): SourcedFinding[] {
  const seen = new Set<string>()
  const out: SourcedFinding[] = []
  for (const [source, findings] of lists) {
    for (const f of findings) {
      const key = JSON.stringify([f.severity, f.kind, f.path, f.row, f.row_group, f.message])
      if (seen.has(key)) continue
      seen.add(key)
      out.push({ ...f, source })
    }
  }
  return out
}

/** One (severity, kind) group: how many findings. */
export interface KindGroup {
  severity: Finding['severity']
  kind: string
  count: number
  sources: FindingSource[]
}

/** Groups by severity then kind (errors first, kinds alphabetical). */
export function groupByKind(findings: readonly SourcedFinding[]): KindGroup[] {
  const groups = new Map<string, KindGroup>()
  for (const f of findings) {
    const key = `${f.severity}\u0000${f.kind}`
    const g = groups.get(key) ?? { severity: f.severity, kind: f.kind, count: 0, sources: [] }
    g.count++
    if (!g.sources.includes(f.source)) g.sources.push(f.source)
    groups.set(key, g)
  }
  return [...groups.values()].sort((a, b) => severityRank[a.severity] - severityRank[b.severity] || compareUtf8(a.kind, b.kind))
}

export type SortKey = 'severity' | 'kind' | 'where' | 'message' | 'source'

/** `path:row`, `path (row group n)`, `path`, or `(dataset)`. */
export function whereOf(f: Finding): string {
  if (f.path === '') return '(dataset)'
  if (f.row !== null) return `${f.path}:${f.row}`
  if (f.row_group !== null) return `${f.path} (row group ${f.row_group})`
  return f.path
}

/** Sorted copy; ties keep severity, then kind, then location order. */
export function sortFindingsBy(findings: readonly SourcedFinding[], key: SortKey, descending: boolean): SourcedFinding[] {
  const base = (a: SourcedFinding, b: SourcedFinding) =>
    severityRank[a.severity] - severityRank[b.severity] || compareUtf8(a.kind, b.kind) || compareUtf8(a.path, b.path) || (a.row ?? -1) - (b.row ?? -1)
  const primary: Record<SortKey, (a: SourcedFinding, b: SourcedFinding) => number> = {
    severity: (a, b) => severityRank[a.severity] - severityRank[b.severity],
    kind: (a, b) => compareUtf8(a.kind, b.kind),
    where: (a, b) => compareUtf8(whereOf(a), whereOf(b)),
    message: (a, b) => compareUtf8(a.message, b.message),
    source: (a, b) => compareUtf8(a.source, b.source),
  }
  const sign = descending ? -1 : 1
  return [...findings].sort((a, b) => sign * primary[key](a, b) || base(a, b))
}

/** Findings whose kind is in `kinds` (all when empty) and whose text contains `text` (case-insensitive). */
export function filterFindings(findings: readonly SourcedFinding[], kinds: ReadonlySet<string>, text: string): SourcedFinding[] {
  const needle = text.trim().toLowerCase()
  return findings.filter((f) => (kinds.size === 0 || kinds.has(f.kind)) &&
    (needle === '' || f.message.toLowerCase().includes(needle) || whereOf(f).toLowerCase().includes(needle) || f.kind.includes(needle)))
}

/** The partition folder of a file path (`corpus=a/split=b/language=c/part-0.parquet` → `corpus=a/split=b/language=c`). */
export function partitionOf(path: string): string {
  const cut = path.lastIndexOf('/')
  return cut < 0 ? '' : path.slice(0, cut)
}

/**
 * Where a finding goes in the Audit's triage: `blocking` (an error: training would crash or refuse), `row` (a
 * defect of one row that training silently keeps or drops), `data` (about files, partitions or the TSV), `config`
 * (how training treats this config: epoch replay, the warm-up row dropped, …; kept apart from data defects).
 */
export type Triage = AuditTriage

export function triageOf(f: SourcedFinding): Triage {
  if (f.severity === 'error') return 'blocking'
  if (f.source === 'config') return 'config'
  return f.row !== null ? 'row' : 'data'
}

export { languageOf } from '../../lib/finding-language.ts'
