/**
 * Handlers of the Prepare view's kinds: `prepare-scan` (read the input folder and plan: what will be written, what
 * skipped and why), `prepare-run` (convert into a folder the user picked or into OPFS; resumable), `prepare-control`
 * (pause, resume, progress), `prepare-zip` (an OPFS result as one zip to download). The work lives in
 * prepare-jobs.ts, loaded on the first prepare request.
 */
import type { PrepareProgress } from '../prepare/run.ts'
import type { InputFormat, LanguageDecision, PrepareOptions, PrepareReport, SkipReason, SkippedRow } from '../prepare/types.ts'
import type { HandlerTable } from './handler-types.ts'
import type { SourceDescription } from './protocol.ts'

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

/** Request kinds of this module (protocol.ts lists them in `Requests`). */
export interface PrepareRequests {
  'prepare-scan': { params: { source: SourceDescription; options: PrepareOptions }; result: PrepareScanResult }
  'prepare-run': { params: { job: number; output: PrepareOutput; fresh?: boolean }; result: PrepareReport }
  'prepare-control': { params: { job: number; action: 'pause' | 'resume' | 'status' }; result: PrepareProgress | null }
  'prepare-zip': { params: { name: string }; result: Blob }
}

const jobs = () => import('./prepare-jobs.ts')

export const prepareHandlers: HandlerTable<keyof PrepareRequests> = {
  'prepare-scan': async (m, o, c) => (await jobs()).scan(m, o, c),
  'prepare-run': async (m, o, c) => (await jobs()).run(m, o, c),
  'prepare-control': async (m, o, c) => (await jobs()).control(m, o, c),
  'prepare-zip': async (m, o) => (await jobs()).zip(m, o),
}
