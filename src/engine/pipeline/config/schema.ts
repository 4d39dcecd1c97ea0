/**
 * The type of every config field, by dotted path (docs/conventions.md "Config keys"). `set.ts` and `recipe.ts`
 * type-check values against it; a test keeps it in step with `defaults.ts`.
 */

/** What a field accepts (before `nullable`). */
export type FieldType =
  | { kind: 'int' }
  | { kind: 'number' }
  | { kind: 'bool' }
  | { kind: 'string' }
  | { kind: 'enum'; values: readonly string[] }
  /** `partition_filters`: an expression string or a list of them. */
  | { kind: 'filters' }

/** One settable field. */
export interface FieldSpec {
  /** Dotted path, e.g. `fragment_streaming.seed`. */
  path: string
  type: FieldType
  /** Whether `null` is accepted. */
  nullable: boolean
}

const int = { kind: 'int' } as const
const num = { kind: 'number' } as const
const bool = { kind: 'bool' } as const
const str = { kind: 'string' } as const

function f(path: string, type: FieldType, nullable = false): FieldSpec {
  return { path, type, nullable }
}

/** All leaf fields of `PipelineConfig`, in declaration order. */
export const configFields: readonly FieldSpec[] = [
  f('dataset_summary_path', str, true),
  f('beta_corpus', num, true),
  f('beta_language', num, true),
  f('fragment_streaming.seed', int),
  f('fragment_streaming.partition_filters', { kind: 'filters' }, true),
  f('fragment_streaming.fragment_shuffle_window', int),
  f('fragment_streaming.nb_epochs', int, true),
  f('fragment_streaming.files_circular_shift', bool),
  f('fragment_streaming.split_to_row_groups', bool),
  f('fragment_streaming.name', str, true),
  f('fragment_streaming.weight', num),
  f('fragment_streaming.limit.fraction_of_files', num, true),
  f('fragment_streaming.limit.nb_files', int, true),
  f('fragment_streaming.limit.nb_fragments', int, true),
  f('fragment_streaming.limit.nb_rows', int, true),
  f('fragment_loading.rename_columns', bool),
  f('fragment_loading.add_fragment_traces', bool),
  f('fragment_loading.drop_null', bool),
  f('fragment_loading.min_batch_size', int),
  f('fragment_loading.filters', str, true),
  f('fragment_loading.non_deterministic_read', bool),
  f('fragment_loading.use_threads', bool),
  f('fragment_loading.nb_prefetch', int),
  f('fragment_loading.num_parallel_fragments', int),
  f('fragment_loading.cache', bool),
  f('fragment_loading.cache_dir', str, true),
  f('sync_mode', { kind: 'enum', values: ['UNTIL_FIRST', 'UNTIL_LAST'] }),
  f('sync_batches', bool),
  f('pa_cpu_count', int),
  f('max_workers', int),
  f('split_column', str),
  f('parquet_path_name', str),
  f('sampling_seed', int),
  f('min_audio_len', int),
  f('max_audio_len', int),
  f('batching_strategy', { kind: 'enum', values: ['LENGTH', 'STATIC'] }),
  f('batch_size', int),
  f('num_seqs_multiple_of', int),
  f('max_num_elements', int),
  f('max_bucket_size', int, true),
  f('drop_remainder', bool),
  f('filter_long_text_threshold', int, true),
  f('remove_unknown', bool),
  f('min_samples_per_char', num),
  f('normalize_audio', bool),
  f('use_fbank', bool),
  f('spec_aug_p', num, true),
  f('spec_aug_freq_mask_param', int),
  f('spec_aug_time_mask_param', int),
  f('unified_audio_feature_keys', bool),
  f('example_shuffle_window', int),
  f('batch_shuffle_window', int),
  f('npc', int),
  f('seed', int),
  f('no_padding', bool),
  f('max_num_batches', int, true),
  f('num_prefetch', int),
  f('split', str),
  f('rank', int),
  f('world_size', int),
  f('num_accumulate', int),
  f('dtype', { kind: 'enum', values: ['float32', 'bfloat16'] }),
  f('features_spec_aug.enabled', bool),
  f('features_spec_aug.seed', int),
  f('exposure.max_epochs', num),
  f('exposure.max_p_not_drawn', num),
]

/** Describes a field type in words for error messages, e.g. `integer or null`. */
export function describeFieldType(spec: FieldSpec): string {
  const t = spec.type
  const base = t.kind === 'int' ? 'integer'
    : t.kind === 'number' ? 'number'
      : t.kind === 'bool' ? 'boolean'
        : t.kind === 'string' ? 'string'
          : t.kind === 'filters' ? 'filter expression string or list of strings'
            : `one of ${t.values.map((v) => JSON.stringify(v)).join(', ')}`
  return spec.nullable ? `${base} or null` : base
}
