/**
 * What the progressive open (open-progressive.ts) gives: provisional results as it goes, then the final one; the
 * worker's `open` kind posts them as they are (src/engine/worker/protocol/dataset.ts re-exports these types).
 */
import type { DatasetEstimate } from '../dataset/dataset.ts'
import type { IoCounters } from '../source/source.ts'
import type { OverviewTables } from '../dataset/groupings.ts'
import type { StatsReport, ValidateReport } from '../dataset/stats-types.ts'

/** What `open` returns: everything the Overview shows. The dataset itself stays in the worker under `dataset`. */
export interface OpenResult {
  /** Handle of the dataset kept in the worker (pass it to later requests: plan, decode, features). */
  dataset: number
  /** The source kind the worker built (`http`, `file-list`, `directory-handle`). */
  sourceKind: string
  /** The root as the source names it. */
  root: string
  stats: StatsReport
  /** The Overview's groupings of `stats` (hours per language, corpus, split, the TSV comparison), made in the worker. */
  overview: OverviewTables
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
  /**
   * How the files were described: `fromIndex` by a fresh `_mixscope_index.parquet` (no footer read), `read` from the
   * data; `index` is the index's path when the root has a readable one.
   */
  described: { fromIndex: number; read: number; index: string | null }
  /** Set on the provisional results of a progressive open (never on the final one): what the numbers are so far. */
  provisional?: OpenProvisional
  /**
   * Set by the worker on a partial whose partitions equal those of the partial before it (an indexed root's final
   * numbers after the index's own): it posts `stats.partitions` and the groupings made of them alone empty, and the
   * client (src/engine/worker/client.ts `openDataset`) puts the earlier ones back, the same objects, so the page draws nothing twice.
   * Never set on what the client hands on.
   */
  samePartitions?: true
}

/**
 * What a provisional `open` result holds (the progressive open: docs/interpretations.md "Progressive open").
 * - `estimate`: from the file listing and the stats TSV only. Files and bytes per partition folder are exact; hours
 *   are the TSV's, shared over a (corpus, language)'s splits by bytes; rows, row groups and samples are 0 (unknown).
 *   `estimate` holds the same numbers with their own field names.
 * - `stats`: exact numbers of the `filesDone` files described so far (footers read, or from the index); the others
 *   are not in them yet. An indexed root's first one comes from the index alone, before the listing and the TSV
 *   (no TSV comparison, no findings yet).
 * - `validating`: every file's numbers are exact (`stats` is final); the row checks are still reading
 *   (`validation` holds what they found so far). `dataset` is a valid handle from here on.
 */
export interface OpenProvisional {
  stage: 'estimate' | 'stats' | 'validating'
  /** Parquet files described so far, of all. */
  filesDone: number
  filesTotal: number
  /** Of those, described by the dataset index. */
  fromIndex: number
  /**
   * Where the numbers come from: `listing` (the estimate: the file listing and the TSV), `index-summary` (the summary
   * the dataset index recorded when it was written), `index-rows` (the index's rows, before it is checked against the
   * listing and the TSV is read), `files` (the files described so far, `fromIndex` of them by the index), `all-files`
   * (every file; the rows of `remaining` files are still being checked). The page words it (src/app).
   */
  basis: 'listing' | 'index-summary' | 'index-rows' | 'files' | 'all-files'
  /** `all-files`: files whose rows are still being checked. */
  remaining?: number
  /**
   * `files`: the languages of the file listing none of whose files is described yet (so in no number of the snapshot),
   * sorted by UTF-8 bytes, so a language can be found and focused before its files are read (at most one entry per
   * language of the listing).
   */
  unreadLanguages?: string[]
  /** Set by the page on a `validating` result it keeps when the open is cancelled: the row checks did not finish. */
  rowChecksCancelled?: true
  estimate?: DatasetEstimate
}

/**
 * What the worker posts as the final `open` result: the result itself, or, when a `validating` partial came before it
 * with the same stats, the result without `stats` and `overview` (cloning 100,000 partitions twice costs the page's
 * main thread); the client (src/engine/worker/client.ts `openDataset`) fills them in from that partial.
 */
export type OpenResultMessage = OpenResult | (Omit<OpenResult, 'stats' | 'overview'> & { stats: null; overview: null })

