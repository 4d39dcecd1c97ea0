/**
 * `checkConfig`: what the reference training would do with this config on this dataset, as findings.
 * `error` = the real training crashes (docs/reference-pipeline.md §19 and §8/§9); `warning` = it silently does something the
 * user may not expect; `info` = worth knowing. All findings are config-level (`path: ""`), sorted.
 */

import { sortFindings, type Finding } from '../../core/findings.ts'
import type { PipelineConfig } from './types.ts'
import { checkBatching, checkFeatures, checkTaskBasics } from './validate-task.ts'
import { checkMixture, checkSplitSelection } from './validate-storage.ts'
import type { ConfigCheckContext } from './check-context.ts'

/** Checks `config` against the dataset described by `context`. */
export function checkConfig(config: PipelineConfig, context: ConfigCheckContext): Finding[] {
  const out: Finding[] = [...checkTaskBasics(config), ...checkBatching(config), ...checkFeatures(config)]
  const groups = checkSplitSelection(config, context, out)
  checkMixture(config, context, groups, out)
  return sortFindings(out)
}
