/**
 * `checkConfig`: what the reference training would do with this config on this dataset, as findings.
 * `error` = the real training crashes (docs/reference-pipeline.md §19 and §8/§9); `warning` = it silently does something the
 * user may not expect; `info` = worth knowing. All findings are config-level (`path: ""`), sorted.
 */

import { sortFindings, type Finding } from '../findings.ts'
import type { PipelineConfig } from './types.ts'
import { checkBatching, checkFeatures, checkTaskBasics } from './validate-task.ts'
import { checkMixture, checkSplitSelection } from './validate-storage.ts'

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

/** Checks `config` against the dataset described by `context`. */
export function checkConfig(config: PipelineConfig, context: ConfigCheckContext): Finding[] {
  const out: Finding[] = [...checkTaskBasics(config), ...checkBatching(config), ...checkFeatures(config)]
  const groups = checkSplitSelection(config, context, out)
  checkMixture(config, context, groups, out)
  return sortFindings(out)
}
