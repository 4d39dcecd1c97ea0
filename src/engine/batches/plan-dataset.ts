/**
 * Plans one rank's batches on an opened dataset: config checks, selection, mixture weights from the summary TSV,
 * and `planBatches` fed with row groups' `audio_size` and `text` only (docs/reference-pipeline.md §1-§9, §15).
 */
import { finding, MixscopeError, sortFindings, type Finding } from '../core/findings.ts'
import type { DatasetFile } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { isTrainStreaming } from '../pipeline/config/split.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { checkConfig } from '../pipeline/config/validate-config.ts'
import { toNumber, toText } from '../parquet/reader.ts'
import { TextCells } from '../parquet/text-column.ts'
import type { FragmentMeta, ReadFragmentMeta } from '../pipeline/fragment-rows.ts'
import type { InvalidCell } from '../pipeline/example.ts'
import type { FragmentRef } from '../pipeline/fragments.ts'
import { planBatches, type Plan } from '../pipeline/plan-batches.ts'
import type { TaskTokenizer } from '../pipeline/task.ts'
import { partitionWeightsFromBetas, type PartitionWeight } from '../pipeline/weights.ts'
import { configCheckContext } from '../pipeline/config/dataset-context.ts'
import { selectPartitions, type Selection } from '../pipeline/config/select.ts'

/** The only columns planning reads (never `audio_bytes`). */
const PLAN_COLUMNS = ['audio_size', 'text'] as const

/** Options of `planDataset`; each overrides the config field of the same meaning. */
export interface PlanDatasetOptions {
  /** Raw split string (`config.split` otherwise). */
  split?: string
  rank?: number
  worldSize?: number
  /** The real tokenizer; without it the all-unknown and long-text filters are not applied. */
  tokenizer?: TaskTokenizer
  /** Row groups read ahead per stream (default 1: fairseq2's `nb_prefetch`). */
  prefetchFragments?: number
  /** Put the sampler's first fill behind the first batch (`PlanInput.deferFirstFill`; the explorer's Batches view). */
  deferFirstFill?: boolean
  signal?: AbortSignal
}

/** A plan on a dataset, with what it was built from. */
export interface DatasetPlan extends Plan {
  /** The config in effect (split, rank, world_size applied). */
  config: PipelineConfig
  selection: Selection
  /** The reference's weights over the whole TSV, or `null` without a TSV or when not train streaming (no mixture). */
  weights: PartitionWeight[] | null
  /** The TSV in use (`dataset.summary.path`), or `null`. */
  summaryPath: string | null
  /** `checkConfig` findings (warnings and infos: errors refuse to plan) and planning notes, sorted. */
  findings: Finding[]
}

/** Batches a train (infinite) stream is cut at when neither the caller nor the config says (docs/conventions.md). */
export const DEFAULT_TRAIN_MAX_BATCHES = 20

/**
 * Sets `config.max_num_batches` to where a plan stops, as `mixscope batches --max-batches` and the explorer do: the
 * smaller of `maxBatches` (absent: 20 for a train stream, no cap for an eval pass) and the config's own
 * `max_num_batches`; `null` for a full eval pass. Returns whether the split streams as training data.
 */
export function applyBatchLimit(config: PipelineConfig, maxBatches: number | null | undefined): { trainStreaming: boolean } {
  const trainStreaming = isTrainStreaming(config.split, config.sync_mode)
  const limit = Math.min(maxBatches ?? (trainStreaming ? DEFAULT_TRAIN_MAX_BATCHES : Infinity), config.max_num_batches ?? Infinity)
  config.max_num_batches = Number.isFinite(limit) ? limit : null
  return { trainStreaming }
}

/** Thrown when the reference would not start with this config and dataset: carries every `error` finding. */
export class PlanRefusedError extends MixscopeError {
  constructor(readonly findings: Finding[]) {
    super(`plan: the reference training would fail before the first batch (${findings.length} error${findings.length === 1 ? '' : 's'}):\n${findings.map((f) => `  ${f.kind}: ${f.path ? `${f.path}: ` : ''}${f.message}`).join('\n')}`, 'plan-refused', 'data')
    this.name = 'PlanRefusedError'
  }
}

/**
 * Plans this rank's batches of `dataset` with `config` (a copy is made; `options` override split / rank / world size).
 * Order: `checkConfig` on the dataset (any `error` → `PlanRefusedError` listing them, as are stray files and unreadable
 * or column-less selected files), selection (§3), weights from the summary TSV when there is one, then `planBatches`.
 * Reads go through `dataset.parquet`, one row group at a time, columns `audio_size` and `text` only.
 * A null `audio_size` fails when its row reaches the length filter, a null `text` when its row reaches the empty-text
 * filter (a row the length filter drops never does), naming `file:row`: the reference raises a `TypeError` there, and
 * not before (its rows keep nulls, docs/reference-pipeline.md §7).
 * @throws PlanRefusedError; the reference's build-time errors from `planBatches`.
 */
export function planDataset(dataset: OpenDataset, config: PipelineConfig, options: PlanDatasetOptions = {}): DatasetPlan {
  const c = structuredClone(config)
  if (options.split !== undefined) c.split = options.split
  if (options.rank !== undefined) c.rank = options.rank
  if (options.worldSize !== undefined) c.world_size = options.worldSize
  const checked = checkConfig(c, configCheckContext(dataset))
  const errors = checked.filter((f) => f.severity === 'error')
  errors.push(...dataset.findings.filter((f) => f.kind === 'stray-file' && f.severity === 'error'))
  if (errors.length > 0) throw new PlanRefusedError(sortFindings(errors))

  const selection = selectPartitions(dataset, c, c.split)
  const fileOf = new Map(selection.files.map((f) => [f.path, f]))
  const fileErrors = selection.files.flatMap((f) => fileProblems(f))
  if (fileErrors.length > 0) throw new PlanRefusedError(sortFindings(fileErrors))

  const notes: Finding[] = []
  if (!options.tokenizer) {
    notes.push(finding(c.filter_long_text_threshold === null ? 'info' : 'warning', 'tokenizer-filters-skipped', '',
      `no tokenizer given: the all-unknown filter${c.filter_long_text_threshold === null ? '' : ` and the long-text filter (threshold ${c.filter_long_text_threshold})`} are not applied, so batches may hold examples training drops`))
  }
  // the reference computes weights only for train streaming (OA:...storage.py:236-244): eval never asserts the betas
  const weights = dataset.summary && selection.trainStreaming ? partitionWeightsFromBetas(dataset.summary.rows, c.beta_corpus, c.beta_language) : null
  const plan = planBatches({
    partitions: selection.partitions,
    weights,
    trainStreaming: selection.trainStreaming,
    split: selection.split,
    config: c,
    readFragmentMeta: metaReader(dataset, fileOf),
    tokenizer: options.tokenizer,
    prefetchFragments: options.prefetchFragments,
    deferFirstFill: options.deferFirstFill,
    signal: options.signal,
  })
  return { ...plan, config: c, selection, weights, summaryPath: dataset.summary?.path ?? null, findings: sortFindings([...checked, ...notes]) }
}

/** Why a selected file cannot be planned: unreadable footer, or no `audio_size` / `text` column. */
function fileProblems(f: DatasetFile): Finding[] {
  if (!f.readable) return [finding('error', 'unreadable-parquet', f.path, `${f.path} is selected but its footer does not parse: the reference fails reading it`)]
  const missing = PLAN_COLUMNS.filter((name) => !f.columns.some((col) => col.name === name))
  if (missing.length === 0) return []
  return [finding('error', 'missing-column', f.path, `${f.path} is selected but has no ${missing.join(', ')} column (columns: ${f.columns.map((col) => col.name).join(', ') || 'none'}): the reference's examples lack the key and the task fails on them`)]
}

/**
 * `ReadFragmentMeta` over the dataset's parquet reader: one row group's `audio_size` (INT64 → number) and `text`, the
 * text kept as UTF-8 bytes and decoded row by row as the stream takes rows (`readTextColumn`). Nulls: see `planDataset`.
 */
function metaReader(dataset: OpenDataset, fileOf: Map<string, DatasetFile>): ReadFragmentMeta {
  return async (fragment: FragmentRef, signal?: AbortSignal): Promise<FragmentMeta> => {
    const file = fileOf.get(fragment.path)
    if (!file) throw new MixscopeError(`plan: fragment of ${fragment.path} is not a selected file`, 'bad-request')
    const parquet = dataset.parquet
    // both chunks in one request where they lie close (the audio between them is not read)
    await parquet.prefetch(file, [{ rowGroup: fragment.rowGroup, columns: [...PLAN_COLUMNS] }], { signal })
    const [sizes, cells] = await Promise.all([
      parquet.readIntColumn(file, fragment.rowGroup, 'audio_size', { signal }),
      parquet.readTextColumn(file, fragment.rowGroup, 'text', { signal }),
    ])
    const lazy = cells instanceof TextCells ? cells : null
    const texts = lazy ? null : Array.from({ length: fragment.rows }, (_, i) => toText((cells as ArrayLike<unknown>)[i]))
    const lengths = new Array<number>(fragment.rows)
    const invalid = new Map<number, InvalidCell>()
    for (let i = 0; i < fragment.rows; i++) {
      const id = `${fragment.path}:${fragment.firstRow + i}`
      const length = toNumber(sizes[i])
      lengths[i] = length === null ? NaN : length
      if (length === null || !Number.isFinite(length)) {
        invalid.set(i, { stage: 'length-filter', message: `plan: ${id} (row group ${fragment.rowGroup}) has audio_size ${length === null ? 'null' : JSON.stringify(String(sizes[i]))}; the reference's length filter raises a TypeError on it` })
      } else if (lazy ? lazy.isNull(i) : texts![i] === null) {
        invalid.set(i, { stage: 'empty-text-filter', message: `plan: ${id} (row group ${fragment.rowGroup}) has a null text; the reference's empty-text filter raises a TypeError (len(None)) on it` })
      }
    }
    // (a null text on a row the length filter drops is never looked at by the reference)
    const meta: FragmentMeta = lazy ? { lengths, texts: { length: lazy.length, text: (i) => lazy.get(i) ?? '' } } : { lengths, texts: texts!.map((t) => t ?? '') }
    if (invalid.size > 0) meta.invalid = invalid
    return meta
  }
}
