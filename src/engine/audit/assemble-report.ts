/**
 * The audit report from the checks' results: one assembly for the unsharded audit (audit.ts) and the merge of shard
 * parts (partial/merge.ts), so the two documents cannot drift apart (the merge is byte-identical by construction).
 */
import { sortFindings, type Finding } from '../core/findings.ts'
import { FindingsCollector, type FinishOptions } from '../core/findings-sink.ts'
import type { MeasuredRow } from './checks/audio.ts'
import { rowHours } from './rows/rows.ts'
import { ItemSummary } from './summary.ts'
import type { AuditReport, CheckResult } from './rows/types.ts'

/** What the report is made of besides the checks' results. */
export interface ReportInputs {
  root: string
  options: Omit<AuditReport['options'], 'max_findings_per_kind'>
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
  /**
   * Where the items went that are not in `results` (the row checks' findings as they were found), with the report's
   * cap (`maxPerKind`); default: a collector in memory with the default cap. The results' items are added to it.
   */
  collector?: FindingsCollector
  /** Every finding of the report in order, a path's at a time (`audit --findings`, `--flagged`). */
  onFindings?: FinishOptions['onFindings']
}

/**
 * Joins the checks' items and tables into the report: summary per kind, per-language tables, totals, the first
 * findings of each kind in order (`finding_counts` says how many there are).
 */
export async function assembleReport(inputs: ReportInputs): Promise<AuditReport> {
  const { measured } = inputs
  const collector = inputs.collector ?? new FindingsCollector()
  for (const f of inputs.datasetFindings) collector.addFinding(f)
  const tables: AuditReport['tables'] = {}
  for (const r of inputs.results) {
    collector.addAll(r.items)
    Object.assign(tables, r.tables)
  }
  const tally = new ItemSummary()
  const collected = await collector.finish({ onItem: (item) => tally.add(item), onFindings: inputs.onFindings })
  const { summary, byLanguage, flagged } = tally.result()
  tables.kinds_by_partition = byLanguage
  tables.flagged_by_language = flagged
  return {
    schema_version: 1,
    root: inputs.root,
    options: { ...inputs.options, max_findings_per_kind: Number.isFinite(collector.maxPerKind) ? collector.maxPerKind : null },
    totals: {
      files: inputs.files, row_groups: inputs.rowGroups, rows: inputs.rowCount, hours: rowHours(inputs.samples),
      rows_decoded: measured.length, rows_audio_checked: inputs.rowsAudioChecked, hours_decoded: measured.reduce((h, m) => h + rowHours(m.row.audioSize), 0),
      flagged_rows: flagged.reduce((n, r) => n + Number(r.rows), 0), flagged_hours: flagged.reduce((h, r) => h + Number(r.hours), 0),
    },
    summary,
    finding_counts: collected.counts,
    findings_omitted: collected.omitted,
    findings: collected.findings,
    config_findings: sortFindings([...inputs.configFindings]),
    tables,
  }
}
