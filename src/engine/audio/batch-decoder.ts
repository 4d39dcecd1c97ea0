/**
 * The decode stage of featurizing a batch: one batch's encoded files in, decoded audio (or a per-item error) out, in
 * order. `inThreadBatchDecoder` decodes in the calling thread; the browser's engine worker uses a pool of helper
 * Workers instead (worker/audio-pool.ts), so that decoding runs beside the feature computation, on other cores.
 */
import { decodeMany, type DecodeItem, type DecodeManyOptions, type DecodeResult } from './decode.ts'

/** Decodes whole batches; results keep the items' order, and a bad item never loses the others. */
export interface BatchDecoder {
  /** Threads this decoder decodes on (1: the caller's own). */
  readonly lanes: number
  decode(items: DecodeItem[], signal?: AbortSignal): Promise<DecodeResult[]>
  close(): void
}

/** Files in flight at once in one thread: hides WebCodecs' per-chunk latency, harmless for the WASM decoders. */
export const DEFAULT_DECODE_CONCURRENCY = 4

/**
 * Decodes in this thread with `decodeMany` (`concurrency` files in flight; default `DEFAULT_DECODE_CONCURRENCY`).
 *
 * @param options `decodeAudio` options applied to every item
 */
export function inThreadBatchDecoder(options: DecodeManyOptions = {}): BatchDecoder {
  return {
    lanes: 1,
    async decode(items, signal) {
      signal?.throwIfAborted()
      const results = await decodeMany(items, { concurrency: DEFAULT_DECODE_CONCURRENCY, ...options })
      signal?.throwIfAborted()
      return results
    },
    close() {},
  }
}

/**
 * Cuts `items` into at most `parts` runs of neighbouring items with about the same encoded bytes each (the unit a
 * pool hands to one helper), never an empty run.
 *
 * @returns runs as `[start, end)` item indices, in order, covering every item once
 */
export function splitByBytes(items: readonly DecodeItem[], parts: number): [number, number][] {
  const total = items.reduce((s, i) => s + i.bytes.length, 0)
  const want = Math.max(1, Math.min(parts, items.length))
  const runs: [number, number][] = []
  let start = 0
  let acc = 0
  for (let i = 0; i < items.length; i++) {
    acc += items[i].bytes.length
    const left = items.length - 1 - i
    const runsLeft = want - runs.length - 1
    if (runsLeft > 0 && (acc >= (total * (runs.length + 1)) / want || left === runsLeft)) {
      runs.push([start, i + 1])
      start = i + 1
    }
  }
  if (start < items.length) runs.push([start, items.length])
  return runs
}
