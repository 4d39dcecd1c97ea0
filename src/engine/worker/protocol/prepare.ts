/**
 * The dataprep kinds (`prepare-scan`, `prepare-run`, `prepare-control`, `prepare-zip`): params and results. Types
 * only (a leaf of protocol.ts, so handlers and the protocol never import each other).
 */
import type { PrepareProgress } from '../../prepare/run.ts'
import type { PrepareOptions, PrepareReport } from '../../prepare/types.ts'
import type { PreparePlanSummary } from '../../prepare/summary.ts'
import type { SourceDescription } from './dataset.ts'

/** Where `prepare-run` writes: a folder the user picked read-write, or a folder (by name) under the OPFS root. */
export type PrepareOutput = { type: 'directory'; handle: FileSystemDirectoryHandle } | { type: 'opfs'; name: string }

/**
 * What the Prepare view shows before converting: the plan's summary as `prepare --dry-run --json` prints it
 * (`preparePlanSummary`, its first 200 skipped rows listed), and the handle of the scanned input.
 */
export interface PrepareScanResult extends PreparePlanSummary {
  /** Handle of the scanned input, for `prepare-run`. */
  job: number
}

/** Request kinds of the Prepare view (protocol.ts joins them into `Requests`). */
export interface PrepareRequests {
  'prepare-scan': { params: { source: SourceDescription; options: PrepareOptions }; result: PrepareScanResult }
  'prepare-run': { params: { job: number; output: PrepareOutput; fresh?: boolean }; result: PrepareReport }
  'prepare-control': { params: { job: number; action: 'pause' | 'resume' | 'status' }; result: PrepareProgress | null }
  'prepare-zip': { params: { name: string }; result: Blob }
}
