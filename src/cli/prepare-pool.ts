/**
 * A worker_threads pool converting clips for `mixscope prepare` (decode → mono → resample → encode, see
 * src/engine/prepare/clip.ts), so every core works. Input bytes and encoded output are transferred, not copied.
 * Workers load the TypeScript engine through tsx, registered inside each worker (as src/cli/audit-pool.ts).
 */
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { ClipProcessor, ClipResult, ClipTask } from '../engine/prepare/clip.ts'

/** A running pool. */
export interface ClipPool {
  process: ClipProcessor
  readonly size: number
  close(): Promise<void>
}

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads')
const ready = import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.clip) })
parentPort.on('message', async ({ id, task }) => {
  try {
    const { processClipNode } = await ready
    const result = await processClipNode(task)
    parentPort.postMessage({ id, result }, result.ok ? [result.audio.buffer] : [])
  } catch (error) {
    parentPort.postMessage({ id, result: { ok: false, error: String(error && error.message || error) } })
  }
})
`

/** Starts `size` workers (default: available parallelism). */
export function createClipPool(size = availableParallelism()): ClipPool {
  const workerData = {
    tsx: import.meta.resolve('tsx/esm/api'),
    clip: new URL('../engine/node/prepare-clip-node.ts', import.meta.url).href,
  }
  const pending = new Map<number, (r: ClipResult) => void>()
  const queue: { id: number; task: ClipTask }[] = []
  const slots: { worker: Worker; busy: boolean }[] = []
  let nextId = 0
  let closed = false
  const pump = () => {
    for (const slot of slots) {
      if (slot.busy || !queue.length) continue
      const { id, task } = queue.shift()!
      slot.busy = true
      slot.worker.ref()
      const bytes = task.bytes.byteOffset === 0 && task.bytes.byteLength === task.bytes.buffer.byteLength ? task.bytes : task.bytes.slice()
      slot.worker.postMessage({ id, task: { ...task, bytes } }, [bytes.buffer as ArrayBuffer])
    }
  }
  for (let i = 0; i < Math.max(1, size); i++) {
    const worker = new Worker(workerSource, { eval: true, workerData })
    const slot = { worker, busy: false }
    worker.on('message', ({ id, result }: { id: number; result: ClipResult }) => {
      slot.busy = false
      worker.unref()
      pending.get(id)?.(result)
      pending.delete(id)
      pump()
    })
    const fail = (why: string) => {
      for (const done of pending.values()) done({ ok: false, error: `prepare-pool: ${why}` })
      pending.clear()
      queue.length = 0
    }
    worker.on('error', (error) => fail(`worker failed: ${error.message}`))
    worker.on('exit', (code) => { if (!closed) fail(`worker exited with code ${code}`) })
    worker.unref()
    slots.push(slot)
  }
  return {
    size: slots.length,
    process: (task, signal) => new Promise<ClipResult>((resolve, reject) => {
      if (closed) return reject(new Error('prepare-pool: closed'))
      signal?.throwIfAborted()
      const id = nextId++
      pending.set(id, resolve)
      queue.push({ id, task })
      pump()
    }),
    async close() {
      closed = true
      await Promise.all(slots.map((s) => s.worker.terminate()))
    },
  }
}
