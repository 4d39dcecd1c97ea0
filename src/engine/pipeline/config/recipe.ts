/**
 * Loads a fairseq2 recipe (YAML or JSON) or a flat object of config keys into a `PipelineConfig`.
 *
 * Recipe form (OA workflows/recipes/wav2vec2/asr, docs/reference-pipeline.md §18): `dataset.mixture_parquet_storage_config`,
 * `dataset.asr_task_config`, `dataset.train_split` / `valid_split`, `common.seed` (the task seed: the recipe
 * overwrites `asr_task_config.seed` with it, default 2), `trainer.mixed_precision.dtype` (default bf16 from
 * `default_config.py`) and `trainer.grad_accumulation.num_batches` (default 4). YAML is read as YAML 1.1 like
 * PyYAML, so `32_000` is an integer and `True` a boolean.
 *
 * Flat form: any object whose keys are config keys (dotted or nested, resolved as by `--set`).
 * Unknown keys become `warning` findings, unusable values `error` findings; nothing throws except unparsable text.
 */

import { parse as parseYaml } from 'yaml'
import { finding, MixscopeError, type Finding } from '../../core/findings.ts'
import { defaultPipelineConfig } from './defaults.ts'
import { configFields } from './schema.ts'
import { checkFieldValue, setConfigValue } from './set.ts'
import type { PipelineConfig } from './types.ts'

/** What `loadRecipe` returns. */
export interface RecipeLoadResult {
  config: PipelineConfig
  /** Config-level findings (`path: ""`). */
  findings: Finding[]
  /** `recipe` when the text had a `dataset` (or `trainer` / `common`) section, else `flat`. */
  format: 'recipe' | 'flat'
  /** Where `dataset_summary_path` was set, as `<source>:<key path>`, or `null` when the text did not set it. */
  summaryPathFrom: string | null
  /** `dataset.valid_split` split on `,` (recipe form), else `[]`. */
  validSplits: string[]
}

/** Options of `loadRecipe`. */
export interface RecipeLoadOptions {
  /** File name or URL, used in `summaryPathFrom` and to pick JSON for `.json`. Default `recipe`. */
  name?: string
  /** Config to start from. Default: the reference defaults. */
  base?: PipelineConfig
}

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

const fieldPaths = configFields.map((f) => f.path)
/** Fields of OA `MixtureParquetStorageConfig` (schema order: `dataset_summary_path` … `sampling_seed`). */
const storageKeys = new Set(fieldPaths.slice(0, fieldPaths.indexOf('sampling_seed') + 1))
/** Fields of OA `AsrTaskConfig` (schema order: `min_audio_len` … `num_prefetch`). */
const taskKeys = new Set(fieldPaths.slice(fieldPaths.indexOf('min_audio_len'), fieldPaths.indexOf('num_prefetch') + 1))

/** Storage keys the reference has but mixscope does not model, with the reason. */
const ignoredStorageKeys: Record<string, string> = {
  'num_prefetch': 'MixtureParquetStorageConfig.num_prefetch is never read by the reference (reference §19.16)',
  'fragment_streaming.parquet_path': 'parquet_path is overwritten with the selected files at runtime (reference §19.2)',
  'fragment_streaming.filesystem': 'the filesystem is whatever mixscope opened',
  'fragment_loading.columns': 'columns are overwritten with LangASRSchema at runtime (reference §7)',
}

/**
 * Parses and maps a recipe or flat config.
 * @throws MixscopeError `recipe-unparsable` (exit class `usage`) when the text is neither YAML nor JSON or not an object.
 */
export function loadRecipe(text: string, options: RecipeLoadOptions = {}): RecipeLoadResult {
  const name = options.name ?? 'recipe'
  let document: unknown
  try {
    document = name.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { version: '1.1' })
  } catch (error) {
    throw new MixscopeError(`recipe: ${name} is not valid ${name.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`, 'recipe-unparsable', 'usage')
  }
  if (!isObject(document)) {
    throw new MixscopeError(`recipe: ${name} must hold a mapping of keys, got ${JSON.stringify(document)?.slice(0, 60)}`, 'recipe-unparsable', 'usage')
  }
  const state: LoadState = { config: structuredClone(options.base ?? defaultPipelineConfig()), findings: [], name, summaryPathFrom: null }
  const isRecipe = ['dataset', 'trainer', 'common'].some((k) => isObject(document[k]))
  const validSplits = isRecipe ? loadRecipeSections(state, document) : []
  if (!isRecipe) loadFlat(state, document, '')
  return { config: state.config, findings: state.findings, format: isRecipe ? 'recipe' : 'flat', summaryPathFrom: state.summaryPathFrom, validSplits }
}

interface LoadState {
  config: PipelineConfig
  findings: Finding[]
  name: string
  summaryPathFrom: string | null
}

/** Sets one field by full path, turning a bad value into an `error` finding. */
function assign(state: LoadState, path: string, value: unknown, where: string): void {
  try {
    state.config = setConfigValue(state.config, path, value)
    if (path === 'dataset_summary_path') state.summaryPathFrom = `${state.name}:${where}`
  } catch (error) {
    if (!(error instanceof MixscopeError)) throw error
    state.findings.push(finding('error', 'config-value-invalid', '', `${where} = ${JSON.stringify(value)} in ${state.name}: ${error.message.replace(/^config: /, '')}`))
  }
}

function unknownKey(state: LoadState, where: string): void {
  state.findings.push(finding('warning', 'unknown-config-key', '', `${where} in ${state.name} is not a key mixscope knows; it was ignored`))
}

/** Maps a section whose keys are config paths relative to `prefix` (storage, task, or a flat document). */
function loadSection(state: LoadState, section: Json, prefix: string, where: string, allowed: ReadonlySet<string>, skip: ReadonlySet<string> = new Set()): void {
  for (const [key, value] of Object.entries(section)) {
    const path = prefix + key
    const keyWhere = where ? `${where}.${key}` : key
    if (skip.has(path)) continue
    if (path in ignoredStorageKeys) {
      state.findings.push(finding('info', 'config-key-ignored', '', `${keyWhere} in ${state.name} is not used: ${ignoredStorageKeys[path]}`))
    } else if (allowed.has(path)) {
      assign(state, path, value, keyWhere)
    } else if (isObject(value) && [...allowed].some((p) => p.startsWith(`${path}.`))) {
      loadSection(state, value, `${path}.`, keyWhere, allowed, skip)
    } else {
      unknownKey(state, keyWhere)
    }
  }
}

/** Flat document: keys resolved like `--set` (unqualified names allowed). */
function loadFlat(state: LoadState, document: Json, where: string): void {
  for (const [key, value] of Object.entries(document)) {
    const keyWhere = where ? `${where}.${key}` : key
    try {
      state.config = setConfigValue(state.config, key, value)
      if (key === 'dataset_summary_path') state.summaryPathFrom = `${state.name}:${keyWhere}`
    } catch (error) {
      if (!(error instanceof MixscopeError)) throw error
      if (error.kind === 'config-key-unknown' || error.kind === 'config-key-ambiguous') {
        state.findings.push(finding('warning', 'unknown-config-key', '', `${keyWhere} in ${state.name}: ${error.message.replace(/^config: /, '')}; it was ignored`))
      } else {
        state.findings.push(finding('error', 'config-value-invalid', '', `${keyWhere} in ${state.name}: ${error.message.replace(/^config: /, '')}`))
      }
    }
  }
}

/** Recipe form; returns the valid splits. */
function loadRecipeSections(state: LoadState, document: Json): string[] {
  // recipe defaults from default_config.py (reference §18): bf16 training, 4 accumulated batches
  state.config.dtype = 'bfloat16'
  state.config.num_accumulate = 4
  const known = new Set(['model', 'pretrained_encoder', 'dataset', 'tokenizer', 'gang', 'trainer', 'optimizer', 'lr_scheduler', 'regime', 'common', 'evaluator'])
  for (const key of Object.keys(document)) if (!known.has(key)) unknownKey(state, key)

  const dataset = isObject(document.dataset) ? document.dataset : {}
  const storageMode = dataset.storage_mode ?? 'MANIFEST'
  if (storageMode !== 'MIXTURE_PARQUET') {
    state.findings.push(finding('warning', 'storage-mode-not-parquet', '', `dataset.storage_mode is ${JSON.stringify(storageMode)} in ${state.name}${dataset.storage_mode === undefined ? ' (the recipe default)' : ''}; mixscope models MIXTURE_PARQUET only (reference §18)`))
  }
  const storage = dataset.mixture_parquet_storage_config
  if (isObject(storage)) loadSection(state, storage, '', 'dataset.mixture_parquet_storage_config', storageKeys)
  const task = dataset.asr_task_config
  if (isObject(task)) loadSection(state, task, '', 'dataset.asr_task_config', taskKeys, new Set(['seed']))
  const common = isObject(document.common) ? document.common : {}
  const commonSeed = common.seed ?? 2
  if (isObject(task) && task.seed !== undefined && task.seed !== commonSeed) {
    state.findings.push(finding('warning', 'task-seed-overwritten', '', `dataset.asr_task_config.seed = ${JSON.stringify(task.seed)} in ${state.name} is overwritten by common.seed = ${JSON.stringify(commonSeed)} (reference §8)`))
  }
  assign(state, 'seed', commonSeed, common.seed === undefined ? 'common.seed (default)' : 'common.seed')

  const trainer = isObject(document.trainer) ? document.trainer : {}
  const dtype = isObject(trainer.mixed_precision) ? trainer.mixed_precision.dtype : undefined
  if (dtype !== undefined) {
    try {
      state.config.dtype = checkFieldValue(configFields.find((f) => f.path === 'dtype')!, dtype) as PipelineConfig['dtype']
    } catch {
      state.findings.push(finding('warning', 'unsupported-dtype', '', `trainer.mixed_precision.dtype = ${JSON.stringify(dtype)} in ${state.name} is not modelled (float32 or bfloat16); using ${state.config.dtype}`))
    }
  }
  const accumulation = isObject(trainer.grad_accumulation) ? trainer.grad_accumulation.num_batches : undefined
  if (accumulation !== undefined) assign(state, 'num_accumulate', accumulation, 'trainer.grad_accumulation.num_batches')

  const validSplits = typeof dataset.valid_split === 'string' ? dataset.valid_split.split(',').filter((s) => s !== '') : []
  if (typeof dataset.train_split === 'string') {
    assign(state, 'split', dataset.train_split, 'dataset.train_split')
  } else if (validSplits.length > 0 && isEvalRecipe(document)) {
    // evaluation recipe: reads valid_split with UNTIL_LAST and one batch per step (reference §3, §15)
    state.config.split = validSplits[0]
    state.config.sync_mode = 'UNTIL_LAST'
    state.config.num_accumulate = 1
    state.findings.push(finding('info', 'eval-recipe', '', `${state.name} has no train_split: reading valid_split ${JSON.stringify(validSplits[0])} as evaluation does (sync_mode UNTIL_LAST, reference §3)`))
  }
  return validSplits
}

/** An eval recipe (OA workflows/recipes/wav2vec2/asr/eval) has no trainer / optimizer / regime sections. */
function isEvalRecipe(document: Json): boolean {
  return isObject(document.dataset) && (document.dataset.train_split ?? null) === null && !['trainer', 'optimizer', 'regime'].some((k) => k in document)
}
