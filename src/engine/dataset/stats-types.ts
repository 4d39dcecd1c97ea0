/** Output shapes of `stats` and `validate`, exactly as `--json` prints them (other tools parse them). */
import type { Finding } from '../core/findings.ts'

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
  findings: Finding[]
}
