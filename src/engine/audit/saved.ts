/**
 * A saved audit result: the document `mixscope audit --json` prints or `mixscope merge` writes, opened again (in the
 * explorer) instead of re-running the audit. Beside a dataset it is `<root>/_mixscope_audit.json`
 * (docs/conventions.md "Sharded jobs": the leading `_` keeps training and the listing from reading it). Parsing checks
 * the shape the views read and says what is wrong; comparing with the opened dataset says when the result looks like
 * another dataset's (a note, not a refusal: the root is named differently on a cluster and in the browser).
 */
import type { OpenDataset } from '../dataset/open.ts'
import { MixscopeError, type Finding } from '../core/findings.ts'
import { capFindings, defaultMaxFindingsPerKind } from '../core/findings-sink.ts'
import type { AuditReport } from './rows/types.ts'

/** The saved result's file name in the dataset root. */
export const savedAuditFileName = '_mixscope_audit.json'

/** A parsed saved result: the report, and the merge's `"timing"` when it has one. */
export interface SavedAudit {
  report: AuditReport
  /** Shards the result was merged from (`timing.shards`), `null` for an unsharded `audit --json`. */
  shards: number | null
}

/**
 * Parses a saved audit document.
 * @param where the file's name or URL, for messages
 * @throws MixscopeError (`bad-audit-result`) naming `where` and what is wrong
 */
export function parseSavedAudit(text: string, where: string): SavedAudit {
  const fail = (what: string) => new MixscopeError(`audit result: ${where} ${what}`, 'bad-audit-result', 'data')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw fail(`is not JSON (${(error as Error).message})`)
  }
  const v = value as Record<string, unknown> | null
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw fail('is not a JSON object')
  if (v.format === 'mixscope-part') throw fail(`is one shard's part (${String((v as { kind?: unknown }).kind)}), not a merged result: run "mixscope merge parts… --out ${savedAuditFileName}" first`)
  if (v.schema_version !== 1) throw fail(`has schema_version ${JSON.stringify(v.schema_version ?? null)}; this mixscope reads audit results of schema_version 1`)
  const missing = ['root', 'options', 'totals', 'summary', 'findings', 'tables'].filter((k) => !(k in v))
  if (missing.length > 0) throw fail(`lacks ${missing.map((k) => `"${k}"`).join(', ')}: it is not an "audit --json" document`)
  if (!Array.isArray(v.findings)) throw fail('has "findings" that is not a list')
  const bad = (v.findings as unknown[]).findIndex((f) => !f || typeof f !== 'object' || typeof (f as { kind?: unknown }).kind !== 'string' || typeof (f as { message?: unknown }).message !== 'string')
  if (bad >= 0) throw fail(`has finding ${bad} without a "kind" and a "message"`)
  const totals = v.totals as Record<string, unknown>
  for (const k of ['files', 'rows', 'hours']) if (typeof totals?.[k] !== 'number') throw fail(`has no number "totals.${k}"`)
  const { timing, ...report } = v as Record<string, unknown> & { timing?: { shards?: unknown } }
  // documents written before these totals existed: what the views read as counts
  const t = report.totals as Record<string, unknown>
  for (const k of ['rows_decoded', 'rows_audio_checked', 'hours_decoded', 'flagged_rows', 'flagged_hours']) if (typeof t[k] !== 'number') t[k] = 0
  // and before the config's findings were written with the audit
  if (!Array.isArray(report.config_findings)) report.config_findings = []
  // and before the findings were capped per kind: the list is whole, the counts are its own
  if (!report.finding_counts || typeof report.finding_counts !== 'object') {
    report.finding_counts = capFindings(report.findings as Finding[], Infinity).counts
    report.findings_omitted = 0
    ;(report.options as Record<string, unknown>).max_findings_per_kind ??= null
  }
  return { report: report as unknown as AuditReport, shards: typeof timing?.shards === 'number' ? timing.shards : null }
}

/**
 * `report` with at most `maxPerKind` findings of a kind (the first ones, in order): what the explorer's worker posts
 * to the Audit view of a saved result. `finding_counts` keeps each kind's total and says how many are shown now.
 */
export function capAuditReport(report: AuditReport, maxPerKind = defaultMaxFindingsPerKind): AuditReport {
  const capped = capFindings(report.findings, maxPerKind)
  if (capped.omitted === 0) return report
  const counts: AuditReport['finding_counts'] = {}
  let omitted = 0
  for (const [kind, c] of Object.entries(report.finding_counts)) {
    const shown = capped.counts[kind]?.shown ?? 0
    counts[kind] = { ...c, shown }
    omitted += c.total - shown
  }
  const max = report.options.max_findings_per_kind
  return {
    ...report, options: { ...report.options, max_findings_per_kind: max === null ? maxPerKind : Math.min(max, maxPerKind) },
    finding_counts: counts, findings_omitted: omitted, findings: capped.findings,
  }
}

/**
 * What differs between a saved result and the opened dataset, worded for the user; `null` when the counts agree.
 * Compared: files, and rows (the footers' rows of the readable files, which the audit's rows never exceed).
 */
export function savedAuditMismatch(report: AuditReport, dataset: OpenDataset): string | null {
  const files = dataset.files.length
  const rows = dataset.files.reduce((n, f) => n + (f.readable ? f.rows : 0), 0)
  const problems: string[] = []
  if (report.totals.files !== files) problems.push(`${report.totals.files} files (this dataset has ${files})`)
  if (report.totals.rows > rows) problems.push(`${report.totals.rows} rows (this dataset has ${rows})`)
  return problems.length === 0 ? null
    : `The result describes ${problems.join(' and ')}: it may be of another dataset or of an older version of this one.`
}
