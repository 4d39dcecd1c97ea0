/**
 * Helper Workers for audio, started by the engine worker (audio-helper.worker.ts): the deep audit measures one row
 * group per lane (this worker being one of the lanes), and featurizing decodes a batch's files on the helpers while
 * this worker computes features. Where `Worker` is missing (Node tests) there is no pool and callers decode in
 * their own thread.
 */
import { measureAudioTask } from '../audit/measure.ts'
import type { AudioMeasure, AudioMeasurer, AudioTask } from '../audit/types.ts'
import { splitByBytes, type BatchDecoder } from '../audio/batch-decoder.ts'
import type { DecodeItem, DecodeManyOptions, DecodeResult } from '../audio/decode.ts'

/** Engine worker → helper: one row group to measure, or one run of a batch's files to decode. */
export type HelperRequest =
  | { id: number; task: AudioTask }
  | { id: number; decode: { items: DecodeItem[]; options: DecodeManyOptions } }

/** Helper → engine worker: the answer to the request with the same `id`. */
export type HelperReply =
  | { id: number; measures: AudioMeasure[] }
  | { id: number; results: DecodeResult[] }
  | { id: number; error: string }

/** Helper Workers plus, for measuring, optionally this worker as one more lane. */
export interface AudioPool {
  /** Lanes `measure` runs on at once: the concurrency to give `auditDataset`. */
  lanes: number
  measure: AudioMeasurer
  /** Decodes batches on the helper Workers only, leaving this worker free for features. */
  decoder: BatchDecoder
  close(): void
}

/** Options of `createAudioPool`. */
export interface AudioPoolOptions {
  /** Helper Workers to start (≥ 1). */
  helpers: number
  /** Whether `measure` also runs tasks in this worker (the audit: yes; featurizing: no, this worker computes features). */
  selfLane: boolean
  /** Options for every decode on the helpers. */
  decode?: DecodeManyOptions
}

interface Lane { worker: Worker | null; busy: boolean }

/** The deep audit's pool: this worker plus `min(cores, 4) − 1` helpers; `null` with fewer than 2 cores or no Workers. */
export function createAuditPool(cores = globalThis.navigator?.hardwareConcurrency ?? 1): AudioPool | null {
  if (cores < 2) return null
  return createAudioPool({ helpers: Math.min(cores, 4) - 1, selfLane: true })
}

/** The decode stage beside features: `max(1, cores − 1)` helpers; `null` where Workers cannot be started. */
export function createDecodePool(cores = globalThis.navigator?.hardwareConcurrency ?? 1, decode: DecodeManyOptions = {}): AudioPool | null {
  return createAudioPool({ helpers: Math.max(1, cores - 1), selfLane: false, decode })
}

/** Starts the helpers, or returns `null` when Workers cannot be started here. */
export function createAudioPool(options: AudioPoolOptions): AudioPool | null {
  if (typeof Worker === 'undefined') return null
  const helpers: Lane[] = []
  for (let i = 1; i <= Math.max(1, options.helpers); i++) {
    helpers.push({ worker: new Worker(new URL('./audio-helper.worker.ts', import.meta.url), { type: 'module', name: `mixscope-audio-${i}` }), busy: false })
  }
  const measureLanes = options.selfLane ? [{ worker: null, busy: false }, ...helpers] : helpers
  let nextId = 0
  const waiting: ((lane: Lane) => void)[] = []
  const acquire = (lanes: Lane[]): Promise<Lane> => {
    const free = lanes.find((l) => !l.busy)
    if (free) {
      free.busy = true
      return Promise.resolve(free)
    }
    // any lane that frees up serves the next waiter (a waiter for helpers only never gets the self lane)
    return new Promise((resolve) => waiting.push((lane) => {
      if (lanes.includes(lane)) resolve(lane)
      else { release(lane); void acquire(lanes).then(resolve) }
    }))
  }
  const release = (lane: Lane) => {
    const next = waiting.shift()
    if (next) next(lane)
    else lane.busy = false
  }
  const ask = <R>(worker: Worker, request: Omit<HelperRequest, 'id'>, pick: (reply: HelperReply) => R, signal?: AbortSignal): Promise<R> => new Promise((resolve, reject) => {
    const id = nextId++
    const onMessage = (event: MessageEvent<HelperReply>) => {
      if (event.data.id !== id) return
      worker.removeEventListener('message', onMessage)
      signal?.removeEventListener('abort', onAbort)
      if ('error' in event.data) reject(new Error(event.data.error))
      else resolve(pick(event.data))
    }
    const onAbort = () => {
      worker.removeEventListener('message', onMessage)
      reject(signal?.reason ?? new DOMException('aborted', 'AbortError'))
    }
    worker.addEventListener('message', onMessage)
    signal?.addEventListener('abort', onAbort, { once: true })
    worker.postMessage({ id, ...request })
  })
  let rotation = 0
  return {
    lanes: measureLanes.length,
    async measure(task, signal) {
      const lane = await acquire(measureLanes)
      try {
        return lane.worker ? await ask(lane.worker, { task }, (r) => ('measures' in r ? r.measures : []), signal) : await measureAudioTask(task, {}, signal)
      } finally {
        release(lane)
      }
    },
    decoder: {
      lanes: helpers.length,
      async decode(items, signal) {
        signal?.throwIfAborted()
        // one run per helper, balanced by encoded bytes, posted at once: a helper's queue holds its work even while
        // this worker is busy computing features (a helper waiting on this worker's event loop would sit idle)
        const runs = splitByBytes(items, helpers.length)
        const start = rotation++
        const parts = await Promise.all(runs.map(([a, b], i) => ask(helpers[(start + i) % helpers.length].worker!,
          { decode: { items: items.slice(a, b), options: options.decode ?? {} } }, (r) => ('results' in r ? r.results : []), signal)))
        return parts.flat()
      },
      close() {},
    },
    close() {
      for (const lane of helpers) lane.worker?.terminate()
    },
  }
}
