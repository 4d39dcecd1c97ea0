/**
 * Config checks of the task side (docs/reference-pipeline.md §8-§14, §19): settings that make the real training crash (`error`)
 * and silent quirks (`warning`). Used by `checkConfig`.
 */

import { finding, MixscopeError, type Finding } from '../../core/findings.ts'
import { taskBucketSizes } from '../buckets.ts'
import type { PipelineConfig } from './types.ts'

const error = (kind: string, message: string) => finding('error', kind, '', message)
const warning = (kind: string, message: string) => finding('warning', kind, '', message)
const info = (kind: string, message: string) => finding('info', kind, '', message)

/** Most ranks a config may have (`world_size`). */
export const maxWorldSize = 65536

/** Most examples in one STATIC batch (`batch_size`). */
export const maxStaticBatchSize = 1_000_000

/** Shuffle windows, unknown-token removal, feature keys, reader numbers. */
export function checkTaskBasics(c: PipelineConfig): Finding[] {
  const out: Finding[] = []
  if (c.example_shuffle_window <= 0) {
    out.push(error('example-shuffle-window-zero', `example_shuffle_window = ${c.example_shuffle_window}: the reference asserts it is > 0 and raises AssertionError("Shuffling the entire dataset can result in OOM, set \`example_shuffle_window\` > 0 to shuffle inside a window.") (reference §8, §19.10)`))
  }
  if (c.batch_shuffle_window < 1) {
    out.push(error('batch-shuffle-window-invalid', `batch_shuffle_window = ${c.batch_shuffle_window}: the reference asserts the window is > 0 and raises AssertionError (reference §8)`))
  }
  if (c.remove_unknown) {
    out.push(error('remove-unknown-crash', 'remove_unknown = true: the reference calls its unknown-token filter without the required text_selector argument and raises TypeError while building the pipeline (reference §8, §19.11)'))
  }
  if (!c.unified_audio_feature_keys) {
    out.push(error('unified-audio-feature-keys-false', 'unified_audio_feature_keys = false: no audio_feature key is produced and building Seq2SeqBatch raises KeyError (reference §14)'))
  }
  if (c.world_size < 1) out.push(error('world-size-invalid', `world_size = ${c.world_size}: expected at least 1 rank`))
  else if (c.world_size > maxWorldSize) {
    // rank r reads every world_size-th row group of an endless stream: 10⁹ ranks would spin, not plan
    out.push(error('world-size-out-of-range', `world_size = ${c.world_size}: expected at most ${maxWorldSize} ranks (each rank reads every world_size-th row group)`))
  }
  else if (c.rank < 0 || c.rank >= c.world_size) out.push(error('rank-out-of-range', `rank = ${c.rank}: expected 0 ≤ rank < world_size (${c.world_size})`))
  if (c.num_accumulate < 1) out.push(error('num-accumulate-invalid', `num_accumulate = ${c.num_accumulate}: expected at least 1 batch per step (reference §15)`))
  return out
}

/** LENGTH / STATIC batching (docs/reference-pipeline.md §9). */
export function checkBatching(c: PipelineConfig): Finding[] {
  const out: Finding[] = []
  if (c.batching_strategy === 'STATIC') {
    if (c.batch_size < 1) out.push(error('static-batch-size-invalid', `batch_size = ${c.batch_size} with STATIC batching: the reference's bucket(batch_size) raises an error for a size below 1 (reference §9)`))
    else if (c.batch_size > maxStaticBatchSize) {
      out.push(error('static-batch-size-out-of-range', `batch_size = ${c.batch_size} with STATIC batching: expected at most ${maxStaticBatchSize} examples per batch (one batch would hold them all in memory)`))
    }
    if (c.no_padding) out.push(error('no-padding-static', 'no_padding = true with STATIC batching: the reference raises NotSupportedError (reference §8)'))
    return out
  }
  if (c.no_padding) out.push(warning('no-padding-ignored', 'no_padding = true has no effect with LENGTH batching: batches are still padded (reference §8, §19.14)'))
  if (c.min_audio_len < 0) out.push(error('bucket-sizes-invalid', `min_audio_len = ${c.min_audio_len}: expected a length ≥ 0 samples`))
  if (c.max_audio_len < 1) {
    out.push(error('bucket-sizes-invalid', `max_audio_len = ${c.max_audio_len}: the reference computes max_num_elements % max_audio_len and fails (ZeroDivisionError for 0) (reference §9)`))
    return out
  }
  try {
    const { rounded, maxNumElements } = taskBucketSizes(c)
    if (rounded) {
      out.push(warning('max-num-elements-rounded', `max_num_elements = ${c.max_num_elements} is not a multiple of max_audio_len = ${c.max_audio_len}: the reference rounds it down to ${maxNumElements} (reference §9)`))
    }
  } catch (e) {
    if (!(e instanceof MixscopeError)) throw e
    out.push(error('bucket-sizes-invalid', `LENGTH batching with min_audio_len = ${c.min_audio_len}, max_audio_len = ${c.max_audio_len}, max_num_elements = ${c.max_num_elements}, num_seqs_multiple_of = ${c.num_seqs_multiple_of}, max_bucket_size = ${c.max_bucket_size}: ${e.message.replace(/^pipeline: /, '')} (reference §9)`))
  }
  if (c.max_bucket_size !== null) {
    out.push(info('max-bucket-size-semantics', `max_bucket_size = ${c.max_bucket_size} drops the buckets that hold more than ${c.max_bucket_size} sequences (the short-length buckets), the opposite of its docstring (reference §9, §19.14)`))
  }
  return out
}

/** Waveform SpecAugment and the fbank path (docs/reference-pipeline.md §11-§13). */
export function checkFeatures(c: PipelineConfig): Finding[] {
  const out: Finding[] = []
  const specAugOn = c.spec_aug_p !== null && c.spec_aug_p > 0
  if (specAugOn && c.use_fbank) {
    out.push(warning('spec-aug-ignored-with-fbank', `spec_aug_p = ${c.spec_aug_p} has no effect with use_fbank = true: SpecAugment only touches the waveform path (reference §12, §13)`))
  } else if (specAugOn) {
    const m = c.spec_aug_freq_mask_param
    if (m < 20) out.push(error('spec-aug-freq-mask-param-invalid', `spec_aug_freq_mask_param = ${m}: the reference draws randint(20, ${m}), an empty range, and raises ValueError (reference §12)`))
    else if (m >= 201) out.push(error('spec-aug-freq-mask-param-invalid', `spec_aug_freq_mask_param = ${m}: a drawn mask length ≥ 201 makes randint(0, 201 − L − 1) raise ValueError (reference §12)`))
    out.push(warning('spec-aug-freq-mask-is-time-mask', `spec_aug_p = ${c.spec_aug_p}: the "frequency" mask slices the time axis of the (freq, time) spectrogram, so it zeroes up to ${Math.min(m, 200)} time frames and never masks frequencies (reference §12, §19.12)`))
    out.push(warning('spec-aug-time-mask-param-ignored', `spec_aug_time_mask_param = ${c.spec_aug_time_mask_param} is ignored: the reference overwrites it with min(120, int(T/4)) (reference §12)`))
    out.push(warning('spec-aug-truncates-waveform', 'SpecAugment\'s inverse STFT has no length argument: augmented waveforms are truncated to a multiple of 200 samples while `length` keeps the stored value (reference §12)'))
    out.push(warning('spec-aug-unseeded', `SpecAugment draws from Python's global random module, which fairseq2 never seeds: the reference's masks are not reproducible${c.features_spec_aug.enabled ? `; mixscope draws them with its own seed ${c.features_spec_aug.seed}` : ''} (reference §12)`))
  }
  if (c.use_fbank) {
    out.push(warning('fbank-sample-rate-lock', 'use_fbank = true: one fbank converter serves the whole pipeline and locks to the first example\'s sample rate; any later example at another rate raises "The input waveform must have a sample rate of ..." (reference §13)'))
    out.push(warning('fbank-channel-0-only', 'use_fbank = true: multi-channel audio is not mixed down; only channel 0 reaches the fbank (reference §13, §19.13)'))
    if (c.normalize_audio) out.push(warning('normalize-audio-ignored-with-fbank', 'normalize_audio = true has no effect with use_fbank = true: the fbank path skips layer norm (it only changes the decode dtype) (reference §13)'))
  }
  return out
}
