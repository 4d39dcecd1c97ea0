/**
 * A small worker_threads pool for the audit's audio pass: each worker decodes and measures one `AudioTask` at a
 * time with `measureAudioTask` (src/engine/audit/measure.ts), so `auditDataset` uses every core in Node.
 * Workers load the TypeScript engine through tsx, registered inside each worker.
 */
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { AudioMeasure, AudioMeasurer, AudioTask } from '../engine/audit/rows/types.ts'

/** A running pool. */
export interface AuditPool {
  /** Pass as `auditDataset`'s `measure`. */
  measure: AudioMeasurer
  /** Workers in the pool. */
  readonly size: number
  /** Stops every worker; pending tasks reject. */
  close(): Promise<void>
}

/** Worker body (CommonJS eval): registers tsx, imports the engine's measure module, answers tasks. */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads')
const ready = import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.measure) })
parentPort.on('message', async ({ id, task }) => {
  try {
    const { measureAudioTask } = await ready
    parentPort.postMessage({ id, measures: await measureAudioTask(task) })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) })
  }
})
`

interface Pending { resolve: (m: AudioMeasure[]) => void; reject: (e: Error) => void }
interface Slot { worker: Worker; busy: number | null }

/**
 * Starts `size` workers (default: available parallelism).
 * @throws Error `audit-pool: ...` when a worker cannot start
 */
export function createAuditPool(size = availableParallelism()): AuditPool {
  const workerData = {
    tsx: import.meta.resolve('tsx/esm/api'),
    measure: new URL('../engine/audit/measure.ts', import.meta.url).href,
  }
  const pending = new Map<number, Pending>()
  const queue: { id: number; task: AudioTask }[] = []
  const slots: Slot[] = []
  let nextId = 0
  let closed = false

  const pump = () => {
    for (const slot of slots) {
      if (slot.busy !== null || queue.length === 0) continue
      const { id, task } = queue.shift()!
      slot.busy = id
      slot.worker.ref() // a busy worker keeps the process alive; an idle one does not
      slot.worker.postMessage({ id, task })
    }
  }
  for (let i = 0; i < Math.max(1, size); i++) {
    const worker = new Worker(workerSource, { eval: true, workerData })
    const slot: Slot = { worker, busy: null }
    worker.on('message', (msg: { id: number; measures?: AudioMeasure[]; error?: string }) => {
      const p = pending.get(msg.id)
      pending.delete(msg.id)
      slot.busy = null
      worker.unref()
      if (msg.error !== undefined) p?.reject(new Error(`audit-pool: ${msg.error}`))
      else p?.resolve(msg.measures!)
      pump()
    })
    const fail = (why: string) => {
      for (const p of pending.values()) p.reject(new Error(`audit-pool: ${why}`))
      pending.clear()
      queue.length = 0
    }
    worker.on('error', (error) => fail(`worker failed: ${error.message}`))
    worker.on('exit', (code) => { if (!closed) fail(`worker exited with code ${code}`) })
    worker.unref()
    slots.push(slot)
  }

  const measure: AudioMeasurer = (task, signal) => new Promise<AudioMeasure[]>((resolve, reject) => {
    if (closed) return reject(new Error('audit-pool: closed'))
    if (signal?.aborted) return reject(signal.reason ?? new Error('audit: aborted'))
    const id = nextId++
    const onAbort = () => {
      const i = queue.findIndex((q) => q.id === id)
      if (i >= 0) queue.splice(i, 1)
      if (pending.delete(id)) reject(signal!.reason ?? new Error('audit: aborted'))
    }
    const settle = () => signal?.removeEventListener('abort', onAbort)
    pending.set(id, { resolve: (m) => { settle(); resolve(m) }, reject: (e) => { settle(); reject(e) } })
    signal?.addEventListener('abort', onAbort, { once: true })
    queue.push({ id, task })
    pump()
  })

  return {
    measure,
    size: slots.length,
    async close() {
      closed = true
      for (const p of pending.values()) p.reject(new Error('audit-pool: closed'))
      pending.clear()
      await Promise.all(slots.map((s) => s.worker.terminate()))
    },
  }
}
