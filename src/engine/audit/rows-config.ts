/**
 * The config keys the audit's row checks read, and the key a view compares to know whether a config change needs
 * the rows read again (docs/architecture.md "What a config change recomputes"). `auditDataset` hands its checks
 * `auditRowsConfig(config)` and nothing else, so a check reading another key does not compile: the list below is
 * what the report (less its `config_findings`) depends on. Everything else a config says, the betas included, only
 * changes `config_findings` (`auditConfigFindings`, configured.ts), which reads no row.
 */
import type { PipelineConfig } from '../pipeline/config/types.ts'

/**
 * The keys the row checks read: the split and how it streams (splits, leakage, ranks checks), `world_size` (ranks),
 * the length filter and the LENGTH bucket table (length check, docs/reference-pipeline.md §8-§9), and
 * `min_samples_per_char` (text check).
 */
export const auditRowsConfigKeys = [
  'split', 'sync_mode', 'world_size', 'min_audio_len', 'max_audio_len', 'min_samples_per_char',
  'batching_strategy', 'max_num_elements', 'num_seqs_multiple_of', 'max_bucket_size',
] as const satisfies readonly (keyof PipelineConfig)[]

/** The part of a config the audit's row checks read. */
export type AuditRowsConfig = Pick<PipelineConfig, (typeof auditRowsConfigKeys)[number]>

/** The keys of `auditRowsConfigKeys` taken from `config` (a new object). */
export function auditRowsConfig(config: AuditRowsConfig): AuditRowsConfig {
  const out = {} as Record<string, unknown>
  for (const key of auditRowsConfigKeys) out[key] = config[key]
  return out as AuditRowsConfig
}

/**
 * A string equal for two configs exactly when the audit's row checks see the same values: the explorer keeps an
 * audit's rows while it stays the same and only recomputes the config's findings.
 */
export function auditRowsKey(config: AuditRowsConfig): string {
  return JSON.stringify(auditRowsConfigKeys.map((key) => config[key]))
}
