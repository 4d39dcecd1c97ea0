/**
 * Default values: exactly the reference's defaults (docs/reference-pipeline.md §5-§8, §16), i.e. OA `MixtureParquetStorageConfig`
 * with its explicit `FragmentStreamingConfig` / `FragmentLoadingConfig`, and OA `AsrTaskConfig`.
 * Reader-level keys default to one rank, no accumulation, split `train`, float32.
 */

import type { PipelineConfig } from './types.ts'

/** A fresh copy of the reference defaults (callers may mutate it). */
export function defaultPipelineConfig(): PipelineConfig {
  return {
    dataset_summary_path: null,
    beta_corpus: null,
    beta_language: null,
    fragment_streaming: {
      seed: 2,
      partition_filters: null,
      fragment_shuffle_window: 0,
      nb_epochs: null,
      files_circular_shift: false,
      split_to_row_groups: true,
      name: null,
      weight: 1,
      limit: { fraction_of_files: null, nb_files: null, nb_fragments: null, nb_rows: null },
    },
    fragment_loading: {
      rename_columns: true,
      add_fragment_traces: false,
      drop_null: false,
      min_batch_size: 1,
      filters: null,
      non_deterministic_read: false,
      use_threads: false,
      nb_prefetch: 1,
      num_parallel_fragments: 1,
      cache: true,
      cache_dir: null,
    },
    sync_mode: 'UNTIL_FIRST',
    sync_batches: true,
    pa_cpu_count: 20,
    max_workers: 30,
    split_column: 'split',
    parquet_path_name: '_parquet_path',
    sampling_seed: 261,

    min_audio_len: 1,
    max_audio_len: 800_000,
    batching_strategy: 'LENGTH',
    batch_size: 8,
    num_seqs_multiple_of: 8,
    max_num_elements: 3_200_000,
    max_bucket_size: null,
    drop_remainder: false,
    filter_long_text_threshold: null,
    remove_unknown: false,
    min_samples_per_char: 160,
    normalize_audio: false,
    use_fbank: false,
    spec_aug_p: null,
    spec_aug_freq_mask_param: 80,
    spec_aug_time_mask_param: 80,
    unified_audio_feature_keys: true,
    example_shuffle_window: 0,
    batch_shuffle_window: 1000,
    npc: 10,
    seed: 2,
    no_padding: false,
    max_num_batches: null,
    num_prefetch: 4,

    split: 'train',
    rank: 0,
    world_size: 1,
    num_accumulate: 1,
    dtype: 'float32',

    features_spec_aug: { enabled: false, seed: 0 },
    exposure: { max_epochs: 100, max_p_not_drawn: 0.5 },
  }
}
