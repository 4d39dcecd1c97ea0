/**
 * The deep audit's audio lanes in the browser: this worker plus `cores − 1` helper Workers
 * (audio-measure.worker.ts), each measuring one row group at a time. Where `Worker` is missing (Node tests) there is
 * no pool and the audit measures in this thread.
 */
import { measureAudioTask } from '../audit/measure.ts'
import type { AudioMeasure, AudioMeasurer, AudioTask } from '../audit/types.ts'

/** A measurer over several lanes; `lanes` is the concurrency to give `auditDataset`. */
export interface AudioMeasurePool {
  measure: AudioMeasurer
  lanes: number
  close(): void
}

interface Lane {
  worker: Worker | null
  busy: boolean
}

/** Starts the pool, or returns `null` when helper Workers cannot be started here. */
export function createAudioMeasurePool(cores = globalThis.navigator?.hardwareConcurrency ?? 1): AudioMeasurePool | null {
  if (typeof Worker === 'undefined' || cores < 2) return null
  const lanes: Lane[] = [{ worker: null, busy: false }]
  for (let i = 1; i < Math.min(cores, 4); i++) {
    lanes.push({ worker: new Worker(new URL('./audio-measure.worker.ts', import.meta.url), { type: 'module', name: `mixscope-audio-${i}` }), busy: false })
  }
  let nextId = 0
  const waiting: ((lane: Lane) => void)[] = []
  const acquire = (): Promise<Lane> => {
    const free = lanes.find((l) => !l.busy)
    if (free) {
      free.busy = true
      return Promise.resolve(free)
    }
    return new Promise((resolve) => waiting.push(resolve))
  }
  const release = (lane: Lane) => {
    const next = waiting.shift()
    if (next) next(lane)
    else lane.busy = false
  }
  const onWorker = (worker: Worker, task: AudioTask, signal?: AbortSignal): Promise<AudioMeasure[]> => new Promise((resolve, reject) => {
    const id = nextId++
    const onMessage = (event: MessageEvent<{ id: number; measures?: AudioMeasure[]; error?: string }>) => {
      if (event.data.id !== id) return
      worker.removeEventListener('message', onMessage)
      signal?.removeEventListener('abort', onAbort)
      if (event.data.error !== undefined) reject(new Error(event.data.error))
      else resolve(event.data.measures!)
    }
    const onAbort = () => {
      worker.removeEventListener('message', onMessage)
      reject(signal?.reason ?? new DOMException('aborted', 'AbortError'))
    }
    worker.addEventListener('message', onMessage)
    signal?.addEventListener('abort', onAbort, { once: true })
    worker.postMessage({ id, task })
  })
  return {
    lanes: lanes.length,
    async measure(task, signal) {
      const lane = await acquire()
      try {
        return lane.worker ? await onWorker(lane.worker, task, signal) : await measureAudioTask(task, {}, signal)
      } finally {
        release(lane)
      }
    },
    close() {
      for (const lane of lanes) lane.worker?.terminate()
    },
  }
}
