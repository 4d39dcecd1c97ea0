/**
 * OA `AsrTask.apply_processing_pipeline` up to the batch shuffle (OA:datasets/tasks/asr_task.py; docs/reference-pipeline.md §8):
 * which examples survive and how they are grouped into batches. Audio decoding and collation do not change that.
 */
import { bucketByLength } from './bucket-by-length.ts'
import { taskBucketSizes, type BucketSize } from './buckets.ts'
import { MixscopeError } from '../core/findings.ts'
import type { DropCounter, DropReason } from './drops.ts'
import { referenceError } from './errors.ts'
import { codePointLength, type PlannedExample } from './example.ts'
import type { ItemSource } from './iterables.ts'
import { shuffleWindow } from './shuffle.ts'
import { staticBatches } from './static-batching.ts'

/** The AsrTask fields the plan reads (reference names; `PipelineConfig` from src/engine/pipeline/config fits). */
export interface TaskConfig {
  min_audio_len: number
  max_audio_len: number
  example_shuffle_window: number
  batch_shuffle_window: number
  /** Task seed: example shuffle `seed`, batch shuffle `seed + 1`. */
  seed: number
  min_samples_per_char: number
  filter_long_text_threshold: number | null
  remove_unknown: boolean
  batching_strategy: 'LENGTH' | 'STATIC'
  batch_size: number
  num_seqs_multiple_of: number
  max_num_elements: number
  max_bucket_size: number | null
  drop_remainder: boolean
  no_padding: boolean
}

/** The tokenizer's encoder as the task uses it: raw SentencePiece ids, no BOS/EOS. */
export interface TaskTokenizer {
  /** Token ids of a transcript. */
  encode: (text: string) => ArrayLike<number>
  /** `vocab_info.unk_idx`; `null` when the model has none (then only empty encodings are dropped). */
  unkIdx: number | null
}

/** Options of `asrTaskBatches`. */
export interface TaskOptions {
  /** Counts every dropped example. */
  drops: DropCounter
  /** Without a tokenizer the all-unknown and long-text filters are not applied. */
  tokenizer?: TaskTokenizer
}

type Stage = (source: ItemSource<PlannedExample>) => AsyncGenerator<PlannedExample>

/** A filter stage that counts what it drops: `reasonOf` returns a reason to drop, or `null` to keep. */
function filterStage(reasonOf: (e: PlannedExample) => DropReason | null, drops: DropCounter): Stage {
  return async function* (source) {
    for await (const e of source) {
      const reason = reasonOf(e)
      if (reason === null) yield e
      else drops.add(reason, e.corpus, e.language, e.length)
    }
  }
}

/**
 * Checks the task config the way the reference does while building the pipeline, in its order (before any data is
 * read): example shuffle assert, `remove_unknown`, the bucket table or STATIC options, batch shuffle assert.
 * @returns the LENGTH bucket table (`null` for STATIC).
 * @throws the reference's `AssertionError`, `TypeError`, `ValueError` or `NotSupportedError`.
 */
export function checkTaskConfig(config: TaskConfig): BucketSize[] | null {
  if (!(config.example_shuffle_window > 0)) {
    throw referenceError('example-shuffle-window', 'AssertionError', 'Shuffling the entire dataset can result in OOM, set `example_shuffle_window` > 0 to shuffle inside a window.')
  }
  if (config.remove_unknown) {
    throw referenceError('remove-unknown', 'TypeError', 'filter_unknown_tokens() missing 1 required positional argument: \'text_selector\' (remove_unknown=True cannot build).')
  }
  let sizes: BucketSize[] | null = null
  if (config.batching_strategy === 'LENGTH') {
    sizes = taskBucketSizes(config).sizes
  } else {
    if (config.no_padding) throw referenceError('no-padding', 'NotSupportedError', 'no_padding is not supported for static batching')
    if (!(config.batch_size >= 1)) throw new MixscopeError(`pipeline: STATIC batching needs batch_size ≥ 1 (the reference fails too), got ${config.batch_size}`, 'batch-size')
  }
  if (!(config.batch_shuffle_window > 0)) {
    throw referenceError('batch-shuffle-window', 'AssertionError', 'Shuffling the entire dataset can result in OOM, set `batch_shuffle_window` > 0 to shuffle inside a window.')
  }
  return sizes
}

/** Raises the reference's error for a row whose cell `stage` reads is unusable (a null: `TypeError` there). */
function raiseInvalid(e: PlannedExample, stage: 'length-filter' | 'empty-text-filter'): void {
  if (e.invalid?.stage === stage) throw new MixscopeError(e.invalid.message, 'null-cell')
}

/** Stage 1: the length filter on the stored `audio_size` (docs/reference-pipeline.md §8). */
function lengthReason(e: PlannedExample, config: TaskConfig): DropReason | null {
  return e.length < config.min_audio_len ? 'length-below-min' : e.length > config.max_audio_len ? 'length-above-max' : null
}

/** Stages 3-4: empty text, then fast speech (`length / characters < min_samples_per_char`). */
function textReasons(config: TaskConfig): ((e: PlannedExample) => DropReason | null)[] {
  return [
    (e) => (codePointLength(e.text) > 0 ? null : 'empty-text'),
    (e) => (e.length / codePointLength(e.text) >= config.min_samples_per_char ? null : 'fast-speech'),
  ]
}

/** Stages 5-7: tokenize, all-unknown, long text (only with a tokenizer). */
function tokenReason(config: TaskConfig, tokenizer: TaskTokenizer): (e: PlannedExample) => DropReason | null {
  const threshold = config.filter_long_text_threshold
  return (e) => {
    const tokens = tokenizer.encode(e.text)
    let known = false
    for (let i = 0; i < tokens.length && !known; i++) known = tokens[i] !== tokenizer.unkIdx
    if (!known) return 'all-unknown'
    return threshold !== null && tokens.length > threshold ? 'long-text' : null
  }
}

/**
 * Why the task's per-row filters (stages 1 and 3-7) would drop an example, or `null` when it passes them all. The
 * example shuffle between stages 1 and 3 only reorders, so this is the verdict the stages give, known as soon as a
 * row is read (the planner's "does anything pass?" guard uses it before rows leave the shuffle window).
 */
export function rowDropReason(config: TaskConfig, tokenizer?: TaskTokenizer): (e: PlannedExample) => DropReason | null {
  const checks = [(e: PlannedExample) => lengthReason(e, config), ...textReasons(config), ...(tokenizer ? [tokenReason(config, tokenizer)] : [])]
  return (e) => {
    for (const check of checks) {
      const reason = check(e)
      if (reason !== null) return reason
    }
    return null
  }
}

/** Stages 1-7 of §8: length filter, example shuffle, empty text, fast speech, tokenize + all-unknown, long text. */
export function taskExamples(source: ItemSource<PlannedExample>, config: TaskConfig, options: TaskOptions): AsyncGenerator<PlannedExample> {
  const { drops, tokenizer } = options
  let s = filterStage((e) => { raiseInvalid(e, 'length-filter'); return lengthReason(e, config) }, drops)(source)
  s = shuffleWindow(s, config.example_shuffle_window, config.seed)
  const [emptyText, ...others] = textReasons(config)
  s = filterStage((e) => { raiseInvalid(e, 'empty-text-filter'); return emptyText(e) }, drops)(s)
  for (const reason of others) s = filterStage(reason, drops)(s)
  if (tokenizer) s = filterStage(tokenReason(config, tokenizer), drops)(s)
  return s
}

/**
 * The task's batches in reference order: `taskExamples`, then LENGTH or STATIC batching, then the batch shuffle
 * with `seed + 1`. Drops from bucketing (`bucket-*`, `drop-remainder`) are counted too.
 * @returns batches `[examples]`.
 */
export function asrTaskBatches(source: ItemSource<PlannedExample>, config: TaskConfig, options: TaskOptions): AsyncGenerator<PlannedExample[]> {
  const sizes = checkTaskConfig(config)
  const { drops } = options
  const examples = taskExamples(source, config, options)
  const dropAll = (items: PlannedExample[]) => { for (const e of items) drops.add('drop-remainder', e.corpus, e.language, e.length) }
  let batches: AsyncGenerator<PlannedExample[]>
  if (sizes) {
    batches = bucketByLength(examples, sizes, {
      lengthOf: (e) => e.length,
      minDataLen: config.min_audio_len,
      dropRemainder: config.drop_remainder,
      onSkip: (e, why) => drops.add(why === 'below' ? 'bucket-below-min' : 'bucket-above-max', e.corpus, e.language, e.length),
      onDropRemainder: dropAll,
    })
  } else {
    batches = staticBatches(examples, config.batch_size, config.drop_remainder, dropAll)
  }
  return shuffleWindow(batches, config.batch_shuffle_window, config.seed + 1)
}
