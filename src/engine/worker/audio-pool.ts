/**
 * Helper Workers for audio, started by the engine worker (audio-helper.worker.ts): the deep audit measures one row
 * group per lane (this worker being one of the lanes), and featurizing decodes a batch's files on the helpers while
 * this worker computes features. Where `Worker` is missing (Node tests) there is no pool and callers decode in
 * their own thread.
 */
import { measureAudioTask } from '../audit/measure.ts'
import type { AudioMeasure, AudioMeasurer, AudioTask } from '../audit/rows/types.ts'
import { DEFAULT_DECODE_CONCURRENCY, splitByBytes, type BatchDecoder } from '../audio/batch-decoder.ts'
import { decodeMany, type DecodeItem, type DecodeManyOptions, type DecodeResult } from '../audio/decode.ts'

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
  /** Tasks `measure` takes at once (helpers hold a queued one too): the concurrency to give `auditDataset`. */
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
  /** The helpers' script (tests pass one that cannot load, to check that the work then runs in this thread). */
  workerUrl?: URL
}

/** A thread that measures: this worker (`worker: null`) or a helper, with the tasks it holds now and at most. */
interface Lane { worker: Worker | null; inFlight: number; capacity: number }

/**
 * Row groups a helper holds at once: one measuring and one queued, so that it starts the next as soon as it
 * finishes instead of waiting for this worker (busy measuring its own row group) to hand one over.
 */
const HELPER_QUEUE = 2

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
  /** Rejecters of the requests each helper holds: a helper that fails to load or crashes fails them, never hangs them. */
  const pending = new Map<Worker, Set<(error: Error) => void>>()
  /** Helpers that failed (could not load, e.g. a CSP without worker-src, or crashed): their work runs in this thread. */
  const failed = new Set<Worker>()
  for (let i = 1; i <= Math.max(1, options.helpers); i++) {
    const name = `mixscope-audio-${i}`
    const worker = new Worker(options.workerUrl ?? new URL('./audio-helper.worker.ts', import.meta.url), { type: 'module', name })
    pending.set(worker, new Set())
    worker.addEventListener('error', (event) => {
      failed.add(worker)
      for (const fail of pending.get(worker)!) fail(new Error(`audio: helper Worker ${name} failed: ${event.message || 'could not load or crashed'}`))
    })
    helpers.push({ worker, inFlight: 0, capacity: HELPER_QUEUE })
  }
  /** Runs `remote` on the helper, or `local` here when the helper failed (before or while holding the request). */
  const onHelper = async <R>(worker: Worker, remote: () => Promise<R>, local: () => Promise<R>, signal?: AbortSignal): Promise<R> => {
    if (failed.has(worker)) return local()
    try {
      return await remote()
    } catch (error) {
      if (signal?.aborted || !failed.has(worker)) throw error
      return local()
    }
  }
  const lanes: Lane[] = options.selfLane ? [{ worker: null, inFlight: 0, capacity: 1 }, ...helpers] : helpers
  let nextId = 0
  const waiting: ((lane: Lane) => void)[] = []
  /** The least loaded lane with room, or null. */
  const pick = (): Lane | null => {
    let best: Lane | null = null
    for (const l of lanes) if (l.inFlight < l.capacity && (!best || l.inFlight < best.inFlight)) best = l
    return best
  }
  const acquire = (): Promise<Lane> => {
    const lane = pick()
    if (lane) {
      lane.inFlight++
      return Promise.resolve(lane)
    }
    return new Promise((resolve) => waiting.push(resolve))
  }
  const release = (lane: Lane) => {
    lane.inFlight--
    const next = waiting.shift()
    if (next) {
      const free = pick()!
      free.inFlight++
      next(free)
    }
  }
  const ask = <R>(worker: Worker, request: Omit<HelperRequest, 'id'>, pick: (reply: HelperReply) => R, signal?: AbortSignal): Promise<R> => new Promise((resolve, reject) => {
    const id = nextId++
    const held = pending.get(worker)!
    const done = () => {
      worker.removeEventListener('message', onMessage)
      signal?.removeEventListener('abort', onAbort)
      held.delete(fail)
    }
    const fail = (error: unknown) => { done(); reject(error) }
    const onMessage = (event: MessageEvent<HelperReply>) => {
      if (event.data.id !== id) return
      done()
      if ('error' in event.data) reject(new Error(event.data.error))
      else resolve(pick(event.data))
    }
    const onAbort = () => fail(signal?.reason ?? new DOMException('aborted', 'AbortError'))
    held.add(fail)
    worker.addEventListener('message', onMessage)
    signal?.addEventListener('abort', onAbort, { once: true })
    worker.postMessage({ id, ...request })
  })
  let rotation = 0
  return {
    lanes: lanes.reduce((n, l) => n + l.capacity, 0),
    async measure(task, signal) {
      const lane = await acquire()
      try {
        const here = () => measureAudioTask(task, {}, signal)
        return lane.worker ? await onHelper(lane.worker, () => ask(lane.worker!, { task }, (r) => ('measures' in r ? r.measures : []), signal), here, signal) : await here()
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
        const decodeOptions = { concurrency: DEFAULT_DECODE_CONCURRENCY, ...options.decode }
        const parts = await Promise.all(runs.map(([a, b], i) => {
          const worker = helpers[(start + i) % helpers.length].worker!
          const run = items.slice(a, b)
          return onHelper(worker, () => ask(worker, { decode: { items: run, options: options.decode ?? {} } }, (r) => ('results' in r ? r.results : []), signal),
            () => decodeMany(run, decodeOptions), signal)
        }))
        return parts.flat()
      },
      close() {},
    },
    close() {
      for (const lane of helpers) lane.worker?.terminate()
    },
  }
}
