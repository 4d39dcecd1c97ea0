/**
 * Sources: the one small interface between mixscope and where a dataset's bytes live
 * (a local folder in Node, a FileSystemDirectoryHandle, a `webkitdirectory` FileList, an HTTP server).
 * Everything above this layer sees paths relative to the dataset root and byte ranges.
 */

/** One file under the dataset root. */
export interface SourceFile {
  /** Path relative to the dataset root, `/`-separated, raw segments exactly as on disk / in the manifest. */
  path: string
  /** Size in bytes. */
  size: number
  /**
   * Last modification, in whole milliseconds since the epoch (floored), where the source can see it without extra
   * requests (a local folder, picked Files); absent otherwise (HTTP). The dataset index keys staleness on it.
   */
  mtimeMs?: number
}

/** An entry below the root that a listing could not take, and why (a sentence naming it). */
export interface ListProblem {
  path: string
  message: string
  /** `error` unless told (a link loop, skipped as pyarrow skips it, is `info`). */
  severity?: 'error' | 'info'
}

/** Requests and bytes a source has cost so far (shown in the UI, asserted in tests). */
export interface IoCounters {
  /** Read calls that reached the underlying store (HTTP requests, file reads). */
  requests: number
  /** Bytes delivered by those reads. */
  bytes: number
}

/** Options every read takes. */
export interface ReadOptions {
  signal?: AbortSignal
  /**
   * Work nobody waits on (the row checks that continue after a dataset is usable): a source with a request cap
   * serves every other read queued first (HTTP: src/engine/source/http-source.ts).
   */
  background?: boolean
}

/** A dataset's byte store. Implementations: src/engine/source/*-source.ts, Node fs in src/engine/node. */
export interface DatasetSource {
  /** What kind of store this is (shown in the UI and in errors). */
  readonly kind: 'fs' | 'http' | 'file-list' | 'directory-handle' | 'memory'
  /** The root as the user named it (folder path or URL); printed as `root` in JSON outputs. */
  readonly root: string
  /** Base name of the root folder (e.g. `version=0`), used for the TSV lookup in its parent. */
  readonly rootName: string
  /** Counters, updated as reads happen. */
  readonly counters: IoCounters
  /**
   * Reads worth having in flight at once, when the source knows better than its callers' defaults (HTTP: its
   * concurrency cap, raised when the server speaks HTTP/2); callers size their pools with it.
   */
  readonly parallelism?: number
  /**
   * Every file below the root, ignored ones (`.`/`_` prefixes) included, in any order.
   * HTTP sources return what `_manifest.json` lists.
   */
  list(options?: ReadOptions): Promise<SourceFile[]>
  /**
   * Every folder below the root (relative, `/`-separated, no trailing `/`), ignored ones included, in any order; for
   * sources that can see folders (a local folder, a directory handle). HTTP manifests and FileLists list files only.
   * Lets validation report a partition folder that holds no data.
   */
  listFolders?(options?: ReadOptions): Promise<string[]>
  /** Bytes `[start, end)` of `path`. `end` is clamped to the file size. */
  read(path: string, start: number, end: number, options?: ReadOptions): Promise<Uint8Array>
  /**
   * Reads a file beside the root (in its parent folder), e.g. `language_distribution_0.tsv` next to `version=0/`.
   * Returns `null` when it does not exist or the source cannot see the parent.
   */
  readSibling?(name: string, options?: ReadOptions): Promise<Uint8Array | null>
  /** Lists file names in the root's parent folder, when the source can see it (used for `language_distribution_*.tsv`). */
  listSiblings?(options?: ReadOptions): Promise<string[]>
  /**
   * Reads a whole file under the root that the listing need not hold (the dataset index `_mixscope_index.parquet`,
   * which an HTTP root may have instead of a manifest); `null` when there is none. One request.
   */
  readOptional?(path: string, options?: ReadOptions): Promise<Uint8Array | null>
  /**
   * Takes the file list from the dataset index, so `list()` needs no `_manifest.json` (HTTP). Sources that can list
   * their root themselves do not have it.
   */
  adoptListing?(files: SourceFile[]): void
  /**
   * Writes a file into the root (the dataset index), replacing any; for sources that may write there (a folder handle
   * granted read-write access). Rejects when the store refuses (permission).
   */
  write?(path: string, bytes: Uint8Array, options?: ReadOptions): Promise<void>
  /**
   * Entries the last `list()` saw but could not take: a path longer than the system allows, a symbolic link loop, a
   * FIFO, device or socket. Opening a dataset reports each as a finding instead of dropping it silently.
   */
  listProblems?(): ListProblem[]
  /** Releases what the source holds open (file descriptors); reads after it reopen. */
  close?(): void
}

/** Creates zeroed counters. */
export function newCounters(): IoCounters {
  return { requests: 0, bytes: 0 }
}

/** Throws the standard abort error when `signal` is aborted. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError')
}
