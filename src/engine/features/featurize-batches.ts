/**
 * Featurizing batches as training does (decode, then features), with the decode stage running ahead: while the
 * features of batch k are computed, the decoder already works on batches k+1 … k+`prefetch`. At most `prefetch`
 * decoded batches wait at any time (bounded memory), and each yielded batch says how long the feature stage waited
 * for its audio: a wait means the decode stage was the bottleneck.
 */
import type { BatchDecoder } from '../audio/batch-decoder.ts'
import type { DecodedAudio } from '../audio/types.ts'
import type { DecodeItem, DecodeResult } from '../audio/decode.ts'

/**
 * One featurized batch. `features[i]` belongs to `decoded[i]`; `null` where that item failed to decode or decoded to
 * audio training cannot read (`trainable: false`: libsndfile would fail on it, so training never featurizes it).
 */
export interface FeaturizedBatch<F> {
  index: number
  decoded: DecodeResult[]
  features: (F | null)[]
  /** Wall time the decode stage took for this batch, ms (overlaps the previous batches' features). */
  decodeMs: number
  /** Wall time of the feature stage for this batch, ms. */
  featureMs: number
  /** Time the feature stage waited for this batch's audio, ms (≈ 0 when decoding keeps up). */
  waitMs: number
}

/** Options of `featurizeBatches`. */
export interface FeaturizeOptions {
  /**
   * Batches decoded ahead of the one being featurized (≥ 1; default 2: absorbs batch-to-batch differences in
   * decode time; three 960,000-sample batches of float32 are ~12 MB).
   */
  prefetch?: number
  signal?: AbortSignal
  /** Clock in milliseconds for the decode, feature and wait times; default `performance.now`. */
  now?: () => number
}

/**
 * Decodes and featurizes `batches` in order.
 *
 * @param batches the encoded files of each batch, in training order
 * @param decoder the decode stage (in this thread, or a pool of helper Workers)
 * @param featurize the feature stage for one batch's decoded audio (e.g. fbank `[frames, 80]` per example)
 */
export async function* featurizeBatches<F>(
  batches: Iterable<DecodeItem[]> | AsyncIterable<DecodeItem[]>,
  decoder: BatchDecoder,
  featurize: (audio: DecodedAudio[]) => Promise<F[]> | F[],
  options: FeaturizeOptions = {},
): AsyncGenerator<FeaturizedBatch<F>> {
  const prefetch = Math.max(1, Math.floor(options.prefetch ?? 2))
  const { signal } = options
  const now = options.now ?? (() => performance.now())
  const source = (Symbol.asyncIterator in batches ? batches[Symbol.asyncIterator]() : batches[Symbol.iterator]()) as AsyncIterator<DecodeItem[]> | Iterator<DecodeItem[]>
  interface Pending { index: number; done: Promise<{ results: DecodeResult[]; ms: number }> }
  const queue: Pending[] = []
  let next = 0
  let exhausted = false
  const fill = async (limit: number) => {
    while (!exhausted && queue.length < limit) {
      const step = await source.next()
      if (step.done) { exhausted = true; break }
      const started = now()
      const done = decoder.decode(step.value, signal).then((results) => ({ results, ms: now() - started }))
      done.catch(() => {}) // awaited below, in order; this keeps an early failure from being unhandled meanwhile
      queue.push({ index: next++, done })
    }
  }
  await fill(prefetch + 1) // the first batch and the ones ahead of it
  while (queue.length > 0) {
    signal?.throwIfAborted()
    const head = queue.shift()!
    await fill(prefetch) // the next batches' decode starts before this one's features
    const waitStart = now()
    const { results, ms } = await head.done
    const waitMs = now() - waitStart
    const usable = (r: DecodeResult) => r.ok && r.audio.trainable
    const ok = results.flatMap((r) => (usable(r) && r.ok ? [r.audio] : []))
    const featureStart = now()
    const computed = ok.length ? await featurize(ok) : []
    const featureMs = now() - featureStart
    let k = 0
    const features = results.map((r) => (usable(r) ? computed[k++] ?? null : null))
    yield { index: head.index, decoded: results, features, decodeMs: ms, featureMs, waitMs }
  }
}
