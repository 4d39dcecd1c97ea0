/**
 * The `open` / `close` kinds: where a dataset's bytes live (as a description `postMessage` can clone) and what
 * opening returns. Types only (a leaf of protocol.ts, so handlers and the protocol never import each other).
 */
import type { OpenResult, OpenResultMessage } from '../../validate/open-types.ts'

export type { OpenProvisional, OpenResult, OpenResultMessage } from '../../validate/open-types.ts'

/** Where a dataset's bytes live, in a form `postMessage` can clone. */
export type SourceDescription =
  /**
   * A root URL ending in `/` (holding `_manifest.json`) or a single `.parquet` URL. `allowWholeFileReads`: the user
   * agreed to download whole files from a server that ignores `Range` (see `OpenResult.rangeIgnored`).
   * `redirectOrigins`: origins a redirect may lead to besides the URL's own (`HttpSourceOptions.redirectOrigins`).
   */
  | { type: 'url'; url: string; allowWholeFileReads?: boolean; redirectOrigins?: string[] }
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

/** What `index-write` returns. */
export interface IndexWriteResult {
  /** Where it was written (`_mixscope_index.parquet` in the opened folder), or `null` when it could not be. */
  written: string | null
  /** Why it was not written (no folder handle, permission refused), or `null`. */
  reason: string | null
  /** The index file's bytes, when not written (the page offers them as a download). */
  bytes: Uint8Array | null
  /** Index rows, parquet files and bytes of the index. */
  rows: number
  files: number
  size: number
}

/** Request kinds of the dataset group (protocol.ts joins every group's kinds in `Requests`). */
export interface DatasetRequests {
  /** Progressive: provisional results (`partial`, with `provisional` set) come before the final one. */
  open: { params: { source: SourceDescription; summary?: SummaryFile }; result: OpenResultMessage; partial: OpenResult }
  /**
   * Writes the dataset index of an open dataset (from what the open read: no further reads) into its folder, when the
   * source is a folder handle the page has been granted read-write access to; otherwise returns its bytes.
   */
  'index-write': { params: { dataset: number }; result: IndexWriteResult }
  /** Drops a dataset the worker holds. Resolves even when the handle is unknown. */
  close: { params: { dataset: number }; result: null }
}
