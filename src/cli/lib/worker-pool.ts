/**
 * The CLI's one worker pool: `size` helper threads (Node `worker_threads`), each running src/cli/lib/worker-main.ts
 * with the CLI's loaders (src/cli/lib/loaders.mjs as `--import`), each loading the task module `tasks` and running
 * one task at a time. Tasks wait in one queue, first come first served. A busy helper keeps the process alive, an
 * idle one does not. A helper that dies fails only the task it was running; the others go on.
 */
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { TaskInput, TaskReply, TaskResult, TaskTable } from './worker-protocol.ts'

/** How a pool is started. */
export interface WorkerPoolOptions {
  /** The task module (exports `tasks`), a TypeScript or JavaScript file URL. */
  tasks: URL
  /** Helper threads (default `defaultWorkerCount()`; at least 1). */
  size?: number
}

/** How one task is run. */
export interface RunOptions {
  /** Aborting drops the task if it is still queued and rejects with the signal's reason (a running task finishes unseen). */
  signal?: AbortSignal
  /** Buffers of the input to move (not copy) to the helper. */
  transfer?: ArrayBuffer[]
}

/** A running pool. */
export interface WorkerPool<T extends TaskTable> {
  /** Helper threads started. */
  readonly size: number
  /**
   * Runs task `kind` on `input` in the next free helper.
   * @throws Error `worker-pool: <kind>: ...` when the task throws, or its helper dies; `worker-pool: closed` after `close`
   */
  run<K extends keyof T & string>(kind: K, input: TaskInput<T[K]>, options?: RunOptions): Promise<TaskResult<T[K]>>
  /** Stops every helper; tasks not yet answered reject. */
  close(): Promise<void>
}

/** The helpers a pool starts by default: every core (`os.availableParallelism()`). */
export function defaultWorkerCount(): number {
  return availableParallelism()
}

interface Job {
  id: number
  kind: string
  input: unknown
  transfer: ArrayBuffer[]
  resolve: (result: unknown) => void
  reject: (error: Error) => void
}

interface Slot {
  worker: Worker
  job: Job | null
}

const workerMain = new URL('./worker-main.ts', import.meta.url)
const loaders = new URL('./loaders.mjs', import.meta.url).href

/**
 * Starts a pool.
 * @throws Error `worker-pool: size must be a positive integer, got <size>`
 */
export function createWorkerPool<T extends TaskTable>(options: WorkerPoolOptions): WorkerPool<T> {
  const size = options.size ?? defaultWorkerCount()
  if (!Number.isSafeInteger(size) || size < 1) throw new Error(`worker-pool: size must be a positive integer, got ${size}`)
  const queue: Job[] = []
  const slots = new Set<Slot>()
  let nextId = 0
  let closed: string | null = null

  const pump = () => {
    for (const slot of slots) {
      if (slot.job || queue.length === 0) continue
      const job = queue.shift()!
      slot.job = job
      slot.worker.ref()
      slot.worker.postMessage({ id: job.id, kind: job.kind, input: job.input }, job.transfer)
    }
  }
  const rejectAll = (why: string) => {
    for (const job of queue.splice(0)) job.reject(new Error(why))
  }
  const start = () => {
    const worker = new Worker(workerMain, { workerData: { tasks: options.tasks.href }, execArgv: [...process.execArgv, '--import', loaders] })
    const slot: Slot = { worker, job: null }
    worker.on('message', (reply: TaskReply) => {
      const job = slot.job
      if (!job || job.id !== reply.id) return
      slot.job = null
      worker.unref()
      if ('error' in reply) job.reject(new Error(`worker-pool: ${job.kind}: ${reply.error}`))
      else job.resolve(reply.result)
      pump()
    })
    let died = false
    const die = (why: string) => {
      if (died || closed) return
      died = true
      slots.delete(slot)
      slot.job?.reject(new Error(`worker-pool: ${slot.job.kind}: ${why}`))
      slot.job = null
      if (slots.size === 0) {
        closed = `worker-pool: every helper thread has stopped (the last: ${why})`
        rejectAll(closed)
      }
    }
    worker.on('error', (error) => die(`helper thread failed: ${error.message}`))
    worker.on('exit', (code) => die(`helper thread exited with code ${code}`))
    worker.unref()
    slots.add(slot)
  }
  for (let i = 0; i < size; i++) start()

  return {
    size,
    run(kind, input, runOptions = {}) {
      const { signal, transfer = [] } = runOptions
      return new Promise((resolve, reject) => {
        if (closed) return reject(new Error(closed))
        if (signal?.aborted) return reject(signal.reason)
        const onAbort = () => {
          const at = queue.indexOf(job)
          if (at >= 0) queue.splice(at, 1)
          job.resolve = job.reject = () => undefined // a running task's answer arrives unseen
          reject(signal!.reason)
        }
        const settle = () => signal?.removeEventListener('abort', onAbort)
        const job: Job = {
          id: nextId++, kind, input, transfer,
          resolve: (result) => { settle(); resolve(result as TaskResult<T[typeof kind]>) },
          reject: (error) => { settle(); reject(error) },
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        queue.push(job)
        pump()
      })
    },
    async close() {
      if (closed === 'worker-pool: closed') return
      closed = 'worker-pool: closed'
      rejectAll(closed)
      const workers = [...slots]
      for (const slot of workers) slot.job?.reject(new Error(closed))
      slots.clear()
      await Promise.all(workers.map((s) => s.worker.terminate()))
    },
  }
}
