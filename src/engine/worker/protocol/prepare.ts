/**
 * The dataprep kinds (`prepare-scan`, `prepare-run`, `prepare-control`, `prepare-zip`): params and results. Types
 * only (a leaf of protocol.ts, so handlers and the protocol never import each other).
 */
import type { PrepareProgress } from '../../prepare/run.ts'
import type { LanguageDecision, PrepareOptions, PrepareReport, SkippedRow } from '../../prepare/types.ts'
import type { InputFormat, SkipReason } from '../../prepare/inputs/types.ts'
import type { SourceDescription } from './dataset.ts'

/** Where `prepare-run` writes: a folder the user picked read-write, or a folder (by name) under the OPFS root. */
export type PrepareOutput = { type: 'directory'; handle: FileSystemDirectoryHandle } | { type: 'opfs'; name: string }

/** What the Prepare view shows before converting. */
export interface PrepareScanResult {
  /** Handle of the scanned input, for `prepare-run`. */
  job: number
  format: InputFormat
  inputRows: number
  /** Rows per partition folder. */
  partitions: { corpus: string; split: string; language: string; rows: number; declaredSeconds: number | null }[]
  skipped: Record<SkipReason, number>
  /** The first skipped rows (at most 200), with their reasons. */
  skippedRows: SkippedRow[]
  languages: LanguageDecision[]
  notes: string[]
}

/** Request kinds of the Prepare view (protocol.ts joins them into `Requests`). */
export interface PrepareRequests {
  'prepare-scan': { params: { source: SourceDescription; options: PrepareOptions }; result: PrepareScanResult }
  'prepare-run': { params: { job: number; output: PrepareOutput; fresh?: boolean }; result: PrepareReport }
  'prepare-control': { params: { job: number; action: 'pause' | 'resume' | 'status' }; result: PrepareProgress | null }
  'prepare-zip': { params: { name: string }; result: Blob }
}
