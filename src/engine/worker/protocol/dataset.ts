/**
 * The `open` / `close` kinds: where a dataset's bytes live (as a description `postMessage` can clone) and what
 * opening returns. Types only (a leaf of protocol.ts, so handlers and the protocol never import each other).
 */
import type { IoCounters } from '../../source/source.ts'
import type { StatsReport, ValidateReport } from '../../stats/types.ts'

/** Where a dataset's bytes live, in a form `postMessage` can clone. */
export type SourceDescription =
  /**
   * A root URL ending in `/` (holding `_manifest.json`) or a single `.parquet` URL. `allowWholeFileReads`: the user
   * agreed to download whole files from a server that ignores `Range` (see `OpenResult.rangeIgnored`).
   */
  | { type: 'url'; url: string; allowWholeFileReads?: boolean }
  /** Files from a `<input type=file webkitdirectory>`; `webkitRelativePath` starts with the picked folder's name. */
  | { type: 'files'; files: File[] }
  /** A folder from `showDirectoryPicker()` (or any FileSystemDirectoryHandle, e.g. OPFS). */
  | { type: 'directory'; handle: FileSystemDirectoryHandle }
  /** The bundled demo; `url` is its root (`<base>/demo/version=0/`), resolved by the page, which knows its base. */
  | { type: 'demo'; url: string; allowWholeFileReads?: boolean }

/** A stats TSV the user picked, overriding the lookup beside the root (docs/conventions.md "Stats TSV"). */
export interface SummaryFile {
  path: string
  bytes: Uint8Array
}

/** What `open` returns: everything the Overview shows. The dataset itself stays in the worker under `dataset`. */
export interface OpenResult {
  /** Handle of the dataset kept in the worker (pass it to later requests: plan, decode, features). */
  dataset: number
  /** The source kind the worker built (`http`, `file-list`, `directory-handle`). */
  sourceKind: string
  /** The root as the source names it. */
  root: string
  stats: StatsReport
  validation: ValidateReport
  /** Discovery counts: parquet files, readable footers, ignored paths, stray files; `bytes`: Σ parquet file sizes. */
  files: { parquet: number; readable: number; ignored: number; stray: number; bytes: number }
  /**
   * Set when the HTTP server answered a range read with the whole file (first such answer). Unless the source
   * allowed whole-file reads, those reads failed (as findings); the UI asks before reopening with them allowed.
   */
  rangeIgnored: { url: string; path: string; size: number } | null
  /** Requests and bytes the source cost for the whole open (discovery + stats + validate). */
  counters: IoCounters
  /** Wall-clock milliseconds spent in the worker. */
  elapsedMs: number
}

/** Request kinds of the dataset group (protocol.ts joins every group's kinds in `Requests`). */
export interface DatasetRequests {
  open: { params: { source: SourceDescription; summary?: SummaryFile }; result: OpenResult }
  /** Drops a dataset the worker holds. Resolves even when the handle is unknown. */
  close: { params: { dataset: number }; result: null }
}
