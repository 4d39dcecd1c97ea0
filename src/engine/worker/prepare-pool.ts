/**
 * Helper Workers converting clips for `prepare-run` (prepare-helper.worker.ts), one task each at a time, so that
 * every core converts while the engine worker reads input and writes parquet. Where Workers cannot start (Node
 * tests) there is no pool and clips convert in this thread.
 */
import type { ClipProcessor, ClipResult, ClipTask } from '../prepare/clip.ts'

/** A running pool. */
export interface ClipWorkerPool {
  process: ClipProcessor
  size: number
  close(): void
}

/**
 * One helper per core (at most 16), as the CLI runs one worker thread per core beside its main thread: the engine
 * worker only reads input and writes parquet, which keeps a core busy for a small part of the time (on 2 cores,
 * `cores − 1` helpers converted at 0.35× of `sox | flac` per core, `cores` helpers at the CLI's rate). `null` without `Worker`.
 */
export function createClipWorkerPool(cores = globalThis.navigator?.hardwareConcurrency ?? 1): ClipWorkerPool | null {
  if (typeof Worker === 'undefined') return null
  const size = Math.max(1, Math.min(cores, 16))
  const slots: { worker: Worker; busy: boolean; failed: boolean; current: number }[] = []
  const queue: { id: number; task: ClipTask }[] = []
  const pending = new Map<number, (r: ClipResult) => void>()
  let nextId = 0
  const pump = () => {
    for (const slot of slots) {
      if (slot.busy || slot.failed || !queue.length) continue
      const { id, task } = queue.shift()!
      slot.busy = true
      slot.current = id
      const bytes = task.bytes.byteOffset === 0 && task.bytes.byteLength === task.bytes.buffer.byteLength ? task.bytes : task.bytes.slice()
      slot.worker.postMessage({ id, task: { ...task, bytes } }, [bytes.buffer as ArrayBuffer])
    }
    if (slots.every((s) => s.failed)) {
      for (const { id } of queue.splice(0)) pending.get(id)?.({ ok: false, error: 'prepare: every helper Worker failed to start' })
    }
  }
  for (let i = 1; i <= size; i++) {
    const worker = new Worker(new URL('./prepare-helper.worker.ts', import.meta.url), { type: 'module', name: `mixscope-prepare-${i}` })
    const slot = { worker, busy: false, failed: false, current: -1 }
    worker.addEventListener('message', (event: MessageEvent<{ id: number; result: ClipResult }>) => {
      slot.busy = false
      pending.get(event.data.id)?.(event.data.result)
      pending.delete(event.data.id)
      pump()
    })
    worker.addEventListener('error', (event) => {
      slot.failed = true
      event.preventDefault()
      // the clip it held fails (the run records it as unreadable), the others go to the remaining helpers
      if (slot.busy) pending.get(slot.current)?.({ ok: false, error: `prepare: helper Worker failed (${event.message || 'could not load or crashed'})` })
      pending.delete(slot.current)
      slot.busy = false
      pump()
    })
    slots.push(slot)
  }
  return {
    size,
    process: (task, signal) => new Promise<ClipResult>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      const id = nextId++
      pending.set(id, resolve)
      queue.push({ id, task })
      pump()
    }),
    close() {
      for (const s of slots) s.worker.terminate()
      for (const done of pending.values()) done({ ok: false, error: 'prepare: stopped' })
      pending.clear()
    },
  }
}
