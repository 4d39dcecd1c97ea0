/**
 * How much of a dataset its findings are about, counted once for every view: findings per severity, and per kind how
 * many findings, files and rows (and hours where the report knows them), from one or more reports' `finding_counts`
 * and listed `findings`. The counts are the reports' true totals (docs/conventions.md "Findings and exit codes"):
 * a list capped per kind says how many files and rows its first findings name, and that number is marked as a
 * lower bound, never passed off as the total.
 *
 * Hours, what the errors cost (docs/interpretations.md "What the errors cost in hours"): a report's `summary` (the
 * audit's) gives a kind's rows and hours; the unreadable files' hours are what `ProblemInput.unreadable` knows (the
 * stats TSV's, src/engine/dataset/unreadable-hours.ts); a stray file holds no rows (0 h); every other count says its
 * hours are unknown and why.
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
  /**
   * The hours of unreadable files, by path, where they are known, and why the others' are not: the open's stats TSV
   * (`unreadableHours` of src/engine/dataset/unreadable-hours.ts); without it every unreadable file's hours are unknown.
   */
  unreadable?: (paths: readonly string[]) => UnreadableHours
}

/** What `ProblemInput.unreadable` says of unreadable files: the hours of those it knows, why it does not know the others'. */
export interface UnreadableHours {
  hours: ReadonlyMap<string, number>
  why: string
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
  /**
   * Known hours of what the kind is about (its rows, or its files' rows), `null` when none are known. With `unknown`
   * above 0 they are the hours of the rest only.
   */
  hours: number | null
  /** Files (file kinds) or rows (row kinds) whose hours are not known without reading (0 when all are known). */
  unknown: BoundedCount
  /** Why `unknown` ones cannot be known without reading, `null` when there are none. */
  unknownWhy: string | null
  /** Where `hours` come from when it is not the rows' own `audio_size` (the stats TSV), else `null`. */
  hoursBasis: string | null
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
  errors: {
    files: BoundedCount
    rows: BoundedCount
    /** Σ known hours of the error kinds, and how many files and rows of them have hours not known without reading. */
    hours: { known: number; unknownFiles: BoundedCount; unknownRows: BoundedCount }
  }
  /** Parquet files, and those whose footer could not be read (their rows are in no total), when the open's counts are given. */
  files: { parquet: number; unreadable: number } | null
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 }
const moreSevere = (a: Severity, b: Severity): Severity => (severityRank[a] <= severityRank[b] ? a : b)

const findingKey = (f: Finding) => JSON.stringify([f.path, f.row, f.row_group, f.kind, f.severity, f.message])

/** Kinds about files whose rows are in no total because the file is not parquet: no rows, no hours. */
const noRowKinds = new Set(['stray-file'])

/** Row kinds whose bad value is the row's `audio_size` itself (so its hours cannot be known without decoding). */
const sizeIsTheError = (f: Finding) => f.kind === 'bad-audio-size' || (f.kind === 'null-value' && /null audio_size/.test(f.message))

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
  const errorHours = { known: 0, unknownFiles: { count: 0, atLeast: false }, unknownRows: { count: 0, atLeast: false } }
  for (const [kind, t] of kinds) {
    const total = Math.max(t.total, t.listed.length)
    const capped = t.capped || total > t.listed.length
    findings[t.severity] += total
    const rows: BoundedCount = t.summary ? { count: t.summary.rows, atLeast: false } : { count: t.rows.size, atLeast: capped && t.rows.size > 0 }
    const files: BoundedCount = { count: t.files.size, atLeast: capped }
    const cost = kindHours(kind, t.listed, t.summary, rows, files, capped, input.unreadable)
    if (t.severity === 'error') {
      if (capped) errorsCapped = true
      errorRowsAtLeast = Math.max(errorRowsAtLeast, rows.count)
      errorHours.known += cost.hours ?? 0
      const into = rows.count > 0 ? errorHours.unknownRows : errorHours.unknownFiles
      into.count += cost.unknown.count
      into.atLeast ||= cost.unknown.atLeast
    }
    out.push({
      kind, severity: t.severity, total, listed: t.listed.length,
      files,
      rows,
      ...cost,
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
      hours: errorHours,
    },
    files: input.files ? { parquet: input.files.parquet, unreadable: input.files.parquet - input.files.readable } : null,
  }
}

/** One kind's hours (see the module's comment). */
function kindHours(kind: string, listed: readonly Finding[], summary: { rows: number; hours: number } | null, rows: BoundedCount,
  files: BoundedCount, capped: boolean, unreadable: ProblemInput['unreadable']): Pick<KindProblems, 'hours' | 'unknown' | 'unknownWhy' | 'hoursBasis'> {
  const none = { count: 0, atLeast: false }
  if (noRowKinds.has(kind)) return { hours: 0, unknown: none, unknownWhy: null, hoursBasis: null }
  if (kind === 'unreadable-parquet') {
    const paths = [...new Set(listed.map((f) => f.path).filter((p) => p !== ''))]
    const { hours, why } = unreadable?.(paths) ?? { hours: new Map<string, number>(), why: 'their footers cannot be read' }
    const unknown = { count: paths.length - hours.size, atLeast: capped }
    const known = hours.size > 0 ? [...hours.values()].reduce((a, b) => a + b, 0) : null
    return { hours: known, unknown: unknown.count > 0 || unknown.atLeast ? unknown : none, unknownWhy: unknown.count > 0 || unknown.atLeast ? why : null,
      hoursBasis: known === null ? null : "the stats TSV's hours of their corpus and language less the readable files'" }
  }
  if (rows.count > 0 && listed.length > 0 && listed.every(sizeIsTheError)) {
    return { hours: null, unknown: rows, unknownWhy: 'their audio_size is the bad value; only decoding their audio would tell', hoursBasis: null }
  }
  // the audit's summary sums the audio_size of every row it flagged
  if (summary) return { hours: summary.hours, unknown: none, unknownWhy: null, hoursBasis: null }
  if (rows.count > 0) return { hours: null, unknown: rows, unknownWhy: 'the open counts these rows, not their audio_size; the Audit counts their hours', hoursBasis: null }
  if (files.count > 0) return { hours: null, unknown: files, unknownWhy: 'the open counts these files, not their hours; the Audit counts them', hoursBasis: null }
  return { hours: null, unknown: none, unknownWhy: null, hoursBasis: null }
}
