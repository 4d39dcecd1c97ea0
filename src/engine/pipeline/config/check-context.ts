/**
 * What `checkConfig` knows about the dataset (built from an opened dataset by src/engine/pipeline/config/dataset-context.ts).
 * Types only, so the config checks (validate-config.ts, validate-storage.ts) share them without importing each other.
 */

/** One partition folder of the dataset. */
export interface ConfigPartitionInfo {
  corpus: string
  language: string
  split: string
  /** All hive keys of the folder (URI-decoded), `split`/`language`/`corpus` included. */
  keys: Record<string, string>
}

/** One summary TSV row (`hours` NaN when the cell is not a number). */
export interface ConfigSummaryRow {
  corpus: string
  language: string
  hours: number
}

/** What `checkConfig` knows about the dataset. */
export interface ConfigCheckContext {
  /** Partition folders, in discovery (sorted path) order. */
  partitions: ConfigPartitionInfo[]
  /** Rows of the summary TSV in effect (the config's or the one found beside the dataset), or `null` for none. */
  summaryRows: ConfigSummaryRow[] | null
  /** Distinct `version` values under the root (empty when the root is one version folder). */
  versions: string[]
}
