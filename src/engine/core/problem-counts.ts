/**
 * How much of a dataset its findings are about, counted once for every view: findings per severity, and per kind how
 * many findings, files and rows (and hours where the report knows them), from one or more reports' `finding_counts`
 * and listed `findings`. The counts are the reports' true totals (docs/conventions.md "Findings and exit codes"):
 * a list capped per kind says how many files and rows its first findings name, and that number is marked as a
 * lower bound, never passed off as the total.
 */
import type { FindingCount } from './findings-sink.ts'
import { compareUtf8, type Finding, type Severity } from './findings.ts'

/** One report's findings: its true counts per kind and the findings it lists (the first ones of each kind). */
export interface ProblemSource {
  finding_counts: Record<string, FindingCount>
  findings: readonly Finding[]
  /** Per kind, the rows every finding of the kind is about and their hours (the audit's `summary`: never capped). */
  summary?: Record<string, { rows: number; hours: number }>
}

/** What to count: reports that may repeat each other's findings (a kind's total is the largest any of them has). */
export interface ProblemInput {
  sources: readonly ProblemSource[]
  /** Findings listed in full beside the reports and counted in no `finding_counts` (the audit's config findings). */
  extra?: readonly Finding[]
  /** The open's discovery counts: parquet files and how many of them have a readable footer. */
  files?: { parquet: number; readable: number }
}

/** A count that is exact, or (`atLeast`) only a lower bound because a list it was counted from is capped. */
export interface BoundedCount {
  count: number
  atLeast: boolean
}

/** One kind's findings. */
export interface KindProblems {
  kind: string
  /** The kind's most severe finding's severity. */
  severity: Severity
  /** Findings of the kind (the reports' `finding_counts` total; never fewer than listed). */
  total: number
  /** Distinct findings listed. */
  listed: number
  /** Files the findings are about (paths, the dataset-wide `""` left out), counted from the listed findings. */
  files: BoundedCount
  /** Rows the findings are about: the summary's rows when a report has them, else the distinct rows listed. */
  rows: BoundedCount
  /** Hours of those rows, `null` when no report knows them (the open's findings carry no `audio_size`). */
  hours: number | null
  /** The first listed finding (its message words the problem), `null` when none is listed. */
  first: Finding | null
}

/** The problems of a dataset, counted. */
export interface ProblemCounts {
  /** Findings per severity (true totals). */
  findings: Record<Severity, number>
  /** Every kind: errors first, then warnings, notes; within a severity most findings first, then by kind. */
  kinds: KindProblems[]
  /** What the error findings are about: distinct files and rows (each once, whatever the number of its findings). */
  errors: { files: BoundedCount; rows: BoundedCount }
  /** Parquet files, and those whose footer could not be read (their rows are in no total), when the open's counts are given. */
  files: { parquet: number; unreadable: number } | null
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 }
const moreSevere = (a: Severity, b: Severity): Severity => (severityRank[a] <= severityRank[b] ? a : b)

const findingKey = (f: Finding) => JSON.stringify([f.path, f.row, f.row_group, f.kind, f.severity, f.message])

/** Counts the findings of `input` (see the module's comment). */
export function problemCounts(input: ProblemInput): ProblemCounts {
  type Tally = { severity: Severity; total: number; listed: Finding[]; files: Set<string>; rows: Set<string>; summary: { rows: number; hours: number } | null; capped: boolean }
  const kinds = new Map<string, Tally>()
  const tally = (kind: string, severity: Severity): Tally => {
    let t = kinds.get(kind)
    if (!t) kinds.set(kind, t = { severity, total: 0, listed: [], files: new Set(), rows: new Set(), summary: null, capped: false })
    t.severity = moreSevere(t.severity, severity)
    return t
  }
  for (const source of input.sources) {
    for (const [kind, c] of Object.entries(source.finding_counts)) {
      const t = tally(kind, c.severity)
      t.total = Math.max(t.total, c.total)
      if (c.shown < c.total) t.capped = true
    }
    for (const [kind, s] of Object.entries(source.summary ?? {})) {
      const t = kinds.get(kind)
      if (t && (!t.summary || s.rows > t.summary.rows)) t.summary = { rows: s.rows, hours: s.hours }
    }
  }
  // the listed findings, each once however many reports list it
  const seen = new Set<string>()
  const errorFiles = new Set<string>()
  const errorRows = new Set<string>()
  const listed = [...input.sources.flatMap((s) => s.findings), ...(input.extra ?? [])]
  for (const f of listed) {
    const key = findingKey(f)
    if (seen.has(key)) continue
    seen.add(key)
    const t = tally(f.kind, f.severity)
    t.listed.push(f)
    if (f.path !== '') t.files.add(f.path)
    if (f.row !== null) t.rows.add(`${f.path}:${f.row}`)
    if (f.severity === 'error') {
      if (f.path !== '') errorFiles.add(f.path)
      if (f.row !== null) errorRows.add(`${f.path}:${f.row}`)
    }
  }

  const findings: Record<Severity, number> = { error: 0, warning: 0, info: 0 }
  const out: KindProblems[] = []
  let errorsCapped = false
  let errorRowsAtLeast = errorRows.size
  for (const [kind, t] of kinds) {
    const total = Math.max(t.total, t.listed.length)
    const capped = t.capped || total > t.listed.length
    findings[t.severity] += total
    const rows: BoundedCount = t.summary ? { count: t.summary.rows, atLeast: false } : { count: t.rows.size, atLeast: capped && t.rows.size > 0 }
    if (t.severity === 'error') {
      if (capped) errorsCapped = true
      errorRowsAtLeast = Math.max(errorRowsAtLeast, rows.count)
    }
    out.push({
      kind, severity: t.severity, total, listed: t.listed.length,
      files: { count: t.files.size, atLeast: capped },
      rows,
      hours: t.summary ? t.summary.hours : null,
      first: t.listed[0] ?? null,
    })
  }
  out.sort((a, b) => severityRank[a.severity] - severityRank[b.severity] || b.total - a.total || compareUtf8(a.kind, b.kind))
  return {
    findings,
    kinds: out,
    errors: {
      files: { count: errorFiles.size, atLeast: errorsCapped },
      rows: { count: errorRowsAtLeast, atLeast: errorsCapped },
    },
    files: input.files ? { parquet: input.files.parquet, unreadable: input.files.parquet - input.files.readable } : null,
  }
}
