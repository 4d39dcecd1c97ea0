/**
 * Pipeline configuration: the reference's own field names (snake_case), as they appear in a recipe's
 * `dataset.mixture_parquet_storage_config` and `dataset.asr_task_config` sections (docs/conventions.md "Config keys"),
 * flattened into one object, plus the reader-level keys mixscope needs (`split`, `rank`, `world_size`,
 * `num_accumulate`, `dtype`) and mixscope's own `features_spec_aug` and `exposure`.
 *
 * Storage fields come from OA `MixtureParquetStorageConfig` (docs/reference-pipeline.md §5-§7), task fields from OA
 * `AsrTaskConfig` (docs/reference-pipeline.md §8). The storage config's own `num_prefetch` (=1) is never read by the reference
 * (docs/reference-pipeline.md §19.16) and would clash with the task's `num_prefetch`, so it is not a field here.
 */

/** fairseq2 `SyncMode`: UNTIL_FIRST (training, the default) or UNTIL_LAST (validation / eval). */
export type SyncMode = 'UNTIL_FIRST' | 'UNTIL_LAST'

/** OA `BatchingStrategy`: LENGTH = length buckets (docs/reference-pipeline.md §9), STATIC = fixed count. */
export type BatchingStrategy = 'LENGTH' | 'STATIC'

/** Training dtype of the audio features (docs/conventions.md "Audio and features"). */
export type TrainingDtype = 'float32' | 'bfloat16'

/**
 * `partition_filters` as users write them: a Python expression string (evaluated by the reference with
 * `eval`), or a list of such strings AND-ed together (docs/reference-pipeline.md §3). Parsed by `partition-filter.ts`.
 */
export type PartitionFiltersSetting = string | string[] | null

/** fairseq2 `ParquetDatasetLimitOptions`, all `null` in OA. */
export interface FragmentLimitConfig {
  fraction_of_files: number | null
  nb_files: number | null
  nb_fragments: number | null
  nb_rows: number | null
}

/** fairseq2 `FragmentStreamingConfig` with OA's explicit defaults (docs/reference-pipeline.md §6). */
export interface FragmentStreamingConfig {
  /** Base seed of the row-group shuffles; partition `i` streams with `seed + world_size + i` (docs/reference-pipeline.md §5, §16). Default 2. */
  seed: number
  /** Extra partition filter (docs/reference-pipeline.md §3). Default `null`. */
  partition_filters: PartitionFiltersSetting
  /** Forced at runtime to −1 (train streaming) or 0 (docs/reference-pipeline.md §6, §19.2); the configured value is never honoured. Default 0. */
  fragment_shuffle_window: number
  /** Forced at runtime to `null` (infinite, train streaming) or 1 (docs/reference-pipeline.md §6, §19.2). Default `null`. */
  nb_epochs: number | null
  /** Ignored with window −1 (docs/reference-pipeline.md §6). Default false. */
  files_circular_shift: boolean
  /** Fragments are row groups. Default true. */
  split_to_row_groups: boolean
  /** Stream name (informational). Default `null`. */
  name: string | null
  /** Stream weight (unused by OA). Default 1. */
  weight: number
  limit: FragmentLimitConfig
}

/** fairseq2 `FragmentLoadingConfig` with OA's explicit defaults (docs/reference-pipeline.md §7). */
export interface FragmentLoadingConfig {
  rename_columns: boolean
  add_fragment_traces: boolean
  /** OA sets false; fairseq2's own default (used by `dataloader_example.py`) is true. */
  drop_null: boolean
  min_batch_size: number
  /** Row-level filter expression (string), `null` in OA. */
  filters: string | null
  non_deterministic_read: boolean
  use_threads: boolean
  nb_prefetch: number
  num_parallel_fragments: number
  /** Forced false when not train-streaming (docs/reference-pipeline.md §7); no semantic effect. Default true. */
  cache: boolean
  cache_dir: string | null
}

/** mixscope's own SpecAugment options for the feature view (the reference's is unseeded, docs/reference-pipeline.md §12). Off by default. */
export interface FeaturesSpecAugConfig {
  /** Apply the reference SpecAugment (when `spec_aug_p` draws it) with a seeded RNG instead of Python's global one. */
  enabled: boolean
  /** Seed of mixscope's replacement for Python's `random` module. */
  seed: number
}

/**
 * mixscope's own thresholds for what the sampler makes the model see (`weights --steps`, the Mixture view;
 * src/engine/mixture/exposure.ts).
 */
export interface ExposureConfig {
  /** `over-repeated-partition` above this many expected epochs of a partition's data by the step asked about. Default 100. */
  max_epochs: number
  /** `unseen-partition` when the probability of never being drawn by that step is above this. Default 0.5. */
  max_p_not_drawn: number
}

/** Every field mixscope reads; see `defaults.ts` for the values and `schema.ts` for the types. */
export interface PipelineConfig {
  // ---- storage (OA MixtureParquetStorageConfig + StorageConfig) ----
  /** Stats TSV path; `null` = no mixture (docs/reference-pipeline.md §4). */
  dataset_summary_path: string | null
  beta_corpus: number | null
  beta_language: number | null
  fragment_streaming: FragmentStreamingConfig
  fragment_loading: FragmentLoadingConfig
  sync_mode: SyncMode
  sync_batches: boolean
  pa_cpu_count: number
  max_workers: number
  split_column: string
  parquet_path_name: string
  /** Seed of the partition sampler (docs/reference-pipeline.md §5). Default 261. */
  sampling_seed: number

  // ---- task (OA AsrTaskConfig, docs/reference-pipeline.md §8) ----
  min_audio_len: number
  max_audio_len: number
  batching_strategy: BatchingStrategy
  batch_size: number
  num_seqs_multiple_of: number
  max_num_elements: number
  max_bucket_size: number | null
  drop_remainder: boolean
  filter_long_text_threshold: number | null
  remove_unknown: boolean
  min_samples_per_char: number
  normalize_audio: boolean
  use_fbank: boolean
  spec_aug_p: number | null
  spec_aug_freq_mask_param: number
  spec_aug_time_mask_param: number
  unified_audio_feature_keys: boolean
  example_shuffle_window: number
  batch_shuffle_window: number
  npc: number
  /** Task seed: example shuffle uses `seed`, batch shuffle `seed + 1` (docs/reference-pipeline.md §16). Recipes overwrite it with `common.seed`. */
  seed: number
  no_padding: boolean
  max_num_batches: number | null
  num_prefetch: number

  // ---- reader ----
  /** Raw split string passed to `create_reader` (docs/reference-pipeline.md §3), e.g. `train`, `train_mls`, `dev`. */
  split: string
  /** This data-parallel rank, 0-based. */
  rank: number
  /** Data-parallel size (`gangs.dp.size`). */
  world_size: number
  /** Batches per step (`trainer.grad_accumulation.num_batches`; 1 for validation, docs/reference-pipeline.md §15). */
  num_accumulate: number
  dtype: TrainingDtype

  // ---- mixscope ----
  features_spec_aug: FeaturesSpecAugConfig
  exposure: ExposureConfig
}
