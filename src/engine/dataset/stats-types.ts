/** Output shapes of `stats` and `validate`, exactly as `--json` prints them (other tools parse them). */
import type { Finding } from '../core/findings.ts'
import type { FindingCount } from '../core/findings-sink.ts'

/** One partition folder (one distinct combination of all hive keys). Absent keys are `null`. */
export interface PartitionStats {
  corpus: string | null
  language: string | null
  split: string | null
  /** Any other hive key (e.g. `version`), by name. */
  [key: string]: string | number | null
  files: number
  row_groups: number
  rows: number
  /** Σ audio_size (decoded samples at 16 kHz). */
  samples: number
  /** samples / 16000 / 3600, not rounded. */
  hours: number
}

export interface StatsTotals {
  files: number
  row_groups: number
  rows: number
  samples: number
  hours: number
}

/** `stats --json`. */
export interface StatsReport {
  schema_version: 1
  root: string
  partitions: PartitionStats[]
  totals: StatsTotals
  summary: { path: string; rows: { corpus: string; language: string; hours: number | null }[] } | null
  findings: Finding[]
}

/** `validate --json`. */
export interface ValidateReport {
  schema_version: 1
  root: string
  files_checked: number
  rows_checked: number
  /** Per finding kind (UTF-8 order): severity, how many there are (`total`), how many `findings` holds (`shown`). */
  finding_counts: Record<string, FindingCount>
  /** Findings counted but left out of `findings` (0 when it is the whole list). */
  findings_omitted: number
  /** The first findings of each kind (`validate --max-findings-per-kind`, default 1,000), sorted. */
  findings: Finding[]
}
