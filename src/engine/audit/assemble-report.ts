/**
 * The audit report from the checks' results: one assembly for the unsharded audit (audit.ts) and the merge of shard
 * parts (partial/merge.ts), so the two documents cannot drift apart (the merge is byte-identical by construction).
 */
import { sortFindings, type Finding } from '../core/findings.ts'
import type { MeasuredRow } from './checks/audio.ts'
import { rowHours } from './rows/rows.ts'
import { summarizeItems } from './summary.ts'
import type { AuditReport, AuditItem, CheckResult } from './rows/types.ts'

/** What the report is made of besides the checks' results. */
export interface ReportInputs {
  root: string
  options: AuditReport['options']
  /** Parquet files and row groups of the dataset. */
  files: number
  rowGroups: number
  /** Rows the audit read, and Σ of their `audio_size` (nulls 0; the hours). */
  rowCount: number
  samples: number
  /** Rows the deep pass decoded (empty without `--deep`/`--sample`). */
  measured: readonly MeasuredRow[]
  /** Rows the cheap audio check read (0 when it did not run). */
  rowsAudioChecked: number
  /** Dataset-level findings (the open's), counted with no rows. */
  datasetFindings: readonly Finding[]
  /** The config's findings on the dataset (the report's `config_findings`: not counted in `summary` or `totals`). */
  configFindings: readonly Finding[]
  /** The checks' results, in the audit's order (tables of later results replace earlier ones of the same name). */
  results: readonly CheckResult[]
}

/** Joins the checks' items and tables into the report: summary per kind, per-language tables, totals, sorted findings. */
export function assembleReport(inputs: ReportInputs): AuditReport {
  const { measured } = inputs
  const items: AuditItem[] = inputs.datasetFindings.map((f) => ({ finding: f, rows: 0, samples: 0, corpus: null, language: null }))
  const tables: AuditReport['tables'] = {}
  for (const r of inputs.results) {
    for (const item of r.items) items.push(item) // not push(...): a big dataset has more findings than a call takes arguments
    Object.assign(tables, r.tables)
  }
  const { summary, byLanguage, flagged } = summarizeItems(items)
  tables.kinds_by_partition = byLanguage
  tables.flagged_by_language = flagged
  return {
    schema_version: 1,
    root: inputs.root,
    options: inputs.options,
    totals: {
      files: inputs.files, row_groups: inputs.rowGroups, rows: inputs.rowCount, hours: rowHours(inputs.samples),
      rows_decoded: measured.length, rows_audio_checked: inputs.rowsAudioChecked, hours_decoded: measured.reduce((h, m) => h + rowHours(m.row.audioSize), 0),
      flagged_rows: flagged.reduce((n, r) => n + Number(r.rows), 0), flagged_hours: flagged.reduce((h, r) => h + Number(r.hours), 0),
    },
    summary,
    findings: sortedUniqueFindings(items.map((i) => i.finding)),
    config_findings: sortFindings([...inputs.configFindings]),
    tables,
  }
}

/**
 * `sortFindings(uniqueFindings(findings))` without a JSON key per finding (10^5 findings at scale): sorted first, the
 * duplicates (equal in every field) are then neighbours, and the sort is stable, so the one kept is the same.
 */
function sortedUniqueFindings(findings: Finding[]): Finding[] {
  const out: Finding[] = []
  let last: Finding | undefined
  for (const f of sortFindings(findings)) {
    if (last && f.path === last.path && f.row === last.row && f.row_group === last.row_group && f.kind === last.kind && f.severity === last.severity && f.message === last.message) continue
    out.push(last = f)
  }
  return out
}
