/** The audit's findings table, printed by `mixscope audit` and by `mixscope merge` of an audit's parts. */
import type { AuditReport } from '../../engine/audit/rows/types.ts'
import { omittedLines } from './findings-args.ts'

/**
 * The findings table `audit` prints without `--json`: one line per finding kind, the totals, what `--json` leaves out
 * past its cap per kind (`findingsFile`: where `--findings` wrote them all), then the config's findings.
 */
export function auditSummaryText(report: AuditReport, findingsFile?: string): string {
  const rows = Object.entries(report.summary)
  const t = report.totals
  const width = Math.max(4, ...rows.map(([k]) => k.length))
  return [
    `${'kind'.padEnd(width)}  severity  ${'count'.padStart(6)}  ${'rows'.padStart(6)}  ${'hours'.padStart(9)}`,
    ...rows.map(([kind, s]) => `${kind.padEnd(width)}  ${s.severity.padEnd(8)}  ${String(s.count).padStart(6)}  ${String(s.rows).padStart(6)}  ${s.hours.toFixed(4).padStart(9)}`),
    `${t.files} files, ${t.rows} rows, ${t.hours.toFixed(4)} hours audited; ${t.rows_decoded} rows (${t.hours_decoded.toFixed(4)} hours) decoded`,
    `${t.flagged_rows} rows (${t.flagged_hours.toFixed(4)} hours) carry at least one row finding`,
    ...(report.findings_omitted > 0 ? [`--json lists the first ${(report.options.max_findings_per_kind ?? 0).toLocaleString('en-US')} findings of each kind:`] : []),
    ...omittedLines(report.finding_counts ?? {}, findingsFile),
    ...report.config_findings.map((f) => `config: ${f.severity}: ${f.kind}: ${f.message}`),
  ].join('\n') + '\n'
}
