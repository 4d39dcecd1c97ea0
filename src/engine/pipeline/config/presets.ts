/**
 * Presets for the shipped configurations (docs/reference-pipeline.md §18): the recipe YAMLs under
 * OA workflows/recipes/wav2vec2/asr/configs/, the eval config `fleurs-mls-mini`, `dataloader_example.py`,
 * and the bare `AsrTaskConfig` defaults. Values are those docs/reference-pipeline.md §18 lists (read at OA `81f51e2`).
 *
 * Presets leave `dataset_summary_path` `null`: the recipes ship a placeholder path, and mixscope finds the
 * dataset's own `language_distribution_*.tsv` (docs/conventions.md "Stats TSV"). Betas are set, so a found TSV gives
 * the mixture exactly as in training.
 */

import { MixscopeError } from '../../core/findings.ts'
import { defaultPipelineConfig } from './defaults.ts'
import { setConfigValue } from './set.ts'
import type { PipelineConfig } from './types.ts'

/** A named configuration. */
export interface ConfigPreset {
  name: string
  /** One sentence: what it is and where the values come from. */
  description: string
  config: PipelineConfig
}

type Overrides = Record<string, unknown>

/** Training recipe base (default_config.py + the values every shipped YAML sets, docs/reference-pipeline.md §18). */
const recipeBase: Overrides = {
  'beta_corpus': 0.5, 'beta_language': 0.5, 'fragment_loading.cache': true,
  'normalize_audio': true, 'batch_shuffle_window': 1, 'seed': 2,
  'dtype': 'bfloat16', 'num_accumulate': 4, 'split': 'train', 'sync_mode': 'UNTIL_FIRST',
}

const finetune: Overrides = { ...recipeBase, min_audio_len: 32_000, max_audio_len: 960_000, max_num_elements: 960_000, example_shuffle_window: 1 }
const recommendation: Overrides = { ...recipeBase, max_audio_len: 960_000, max_num_elements: 7_680_000, example_shuffle_window: 0, num_accumulate: 1 }

const definitions: Array<[string, string, Overrides]> = [
  ['asr-task-defaults', 'OA AsrTaskConfig and MixtureParquetStorageConfig defaults, unchanged (docs/reference-pipeline.md §8); example_shuffle_window 0 fails in training.', {}],
  ['ctc-finetune', 'configs/ctc-finetune.yaml: min 32 000, max 960 000, max_num_elements 960 000, example window 1, bf16, 4 accumulated batches.', finetune],
  ['ctc-from-encoder', 'configs/ctc-from-encoder.yaml: same data settings as ctc-finetune.', finetune],
  ['llm-from-encoder', 'configs/llm-from-encoder.yaml: same data settings as ctc-finetune.', finetune],
  ['llm-finetune', 'configs/llm-finetune.yaml: min 32 000, max 320 000, max_num_elements 320 000, example window 1.',
    { ...finetune, max_audio_len: 320_000, max_num_elements: 320_000 }],
  ['ctc-finetune-recommendation', 'configs/ctc-finetune-recommendation.yaml: max 960 000, max_num_elements 7 680 000, example window 0 (AssertionError in training), 1 batch per step.', recommendation],
  ['ctc-from-encoder-recommendation', 'configs/ctc-from-encoder-recommendation.yaml: same data settings as ctc-finetune-recommendation.', recommendation],
  ['fleurs-mls-mini', 'eval/configs/fleurs-mls-mini.yaml: split test read as evaluation (UNTIL_LAST), max 320 000, max_num_elements 320 000, partition filter corpus ∈ {mls}, 2 parallel fragments, prefetch 2; min 32 000 assumed as in the training configs.',
    {
      ...finetune, max_audio_len: 320_000, max_num_elements: 320_000, split: 'test', sync_mode: 'UNTIL_LAST', num_accumulate: 1,
      'fragment_streaming.partition_filters': 'pc.is_in(pc.field("corpus"), pa.array(["mls"]))',
      'fragment_loading.num_parallel_fragments': 2, 'fragment_loading.nb_prefetch': 2,
    }],
  ['dataloader-example', 'workflows/dataprep/dataloader_example.py: streaming seed 42 (42 + W + i at runtime), min 8 000, max 800 000, max_num_elements 1 600 000, example window 1000, batch window 20, seed 202510, 10 batches, float32, drop_null true.',
    {
      'fragment_streaming.seed': 42, 'fragment_streaming.fragment_shuffle_window': -1, 'fragment_streaming.nb_epochs': null,
      'fragment_loading.nb_prefetch': 0, 'fragment_loading.num_parallel_fragments': 1, 'fragment_loading.drop_null': true,
      'beta_corpus': 0.5, 'beta_language': 0.5,
      'min_audio_len': 8_000, 'max_audio_len': 800_000, 'max_num_elements': 1_600_000, 'num_seqs_multiple_of': 8,
      'normalize_audio': false, 'example_shuffle_window': 1000, 'batch_shuffle_window': 20, 'max_num_batches': 10,
      'num_prefetch': 2, 'seed': 202510, 'dtype': 'float32', 'num_accumulate': 1,
    }],
]

function build(overrides: Overrides): PipelineConfig {
  let config = defaultPipelineConfig()
  for (const [key, value] of Object.entries(overrides)) config = setConfigValue(config, key, value)
  return config
}

/** Names of all presets, in a stable order. */
export const presetNames: readonly string[] = definitions.map(([name]) => name)

/**
 * Returns a fresh copy of the named preset.
 * @throws MixscopeError `config-preset-unknown` (exit class `usage`) listing the known names.
 */
export function getPreset(name: string): ConfigPreset {
  const definition = definitions.find(([n]) => n === name)
  if (!definition) {
    throw new MixscopeError(`config: unknown preset "${name}"; known presets: ${presetNames.join(', ')}`, 'config-preset-unknown', 'usage')
  }
  return { name, description: definition[1], config: build(definition[2]) }
}
