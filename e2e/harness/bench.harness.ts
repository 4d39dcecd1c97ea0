// Benchmarks in the browser (bench/browser/runner.ts): forwards requests to a module Worker running
// bench/browser/bench.worker.ts, where decoding and featurizing run as they would in the app's engine worker.
import type { BenchReply, BenchRequest } from '../../bench/browser/protocol.ts'

let worker: Worker | null = null
let nextId = 0
const pending = new Map<number, (reply: BenchReply) => void>()

function benchWorker(): Worker {
  if (worker) return worker
  const w = new Worker(new URL('../../bench/browser/bench.worker.ts', import.meta.url), { type: 'module', name: 'mixscope-bench' })
  w.onmessage = (event: MessageEvent<{ id: number; reply: BenchReply }>) => {
    pending.get(event.data.id)?.(event.data.reply)
    pending.delete(event.data.id)
  }
  w.onerror = (event) => {
    for (const answer of pending.values()) answer({ kind: 'error', message: `bench worker: ${event.message}` })
    pending.clear()
  }
  worker = w
  return w
}

export function register(h: Record<string, unknown>): void {
  h.bench = (request: BenchRequest): Promise<BenchReply> => new Promise((resolve) => {
    const id = nextId++
    pending.set(id, resolve)
    benchWorker().postMessage({ id, request })
  })
}
