/**
 * The CLI's helper threads for its CPU-heavy work: one worker pool (./worker-pool.ts) running ./pool-tasks.ts, and
 * the engine's callbacks over it: the audit's `measure` (`--deep`/`--sample`: each row group's audio decoded and
 * measured in a helper) and the dataprep's `processClip` (each clip decoded, resampled and encoded in a helper, its
 * bytes moved rather than copied both ways).
 */
import type { AudioMeasurer, ClipProcessor } from '../../engine/node.ts'
import type { CliTasks } from './pool-tasks.ts'
import { createWorkerPool, type WorkerPool } from './worker-pool.ts'

/** A pool running the CLI's tasks. */
export type HelperPool = WorkerPool<CliTasks>

/** Starts `size` helper threads (default: every core). */
export function createHelperPool(size?: number): HelperPool {
  return createWorkerPool<CliTasks>({ tasks: new URL('./pool-tasks.ts', import.meta.url), size })
}

/** `auditDataset`'s `measure` on the pool's helpers. */
export function measureWith(pool: HelperPool): AudioMeasurer {
  return (task, signal) => pool.run('measure-audio', task, { signal })
}

/**
 * `runPrepare`'s `processClip` on the pool's helpers. The input bytes are moved to the helper (copied first when they
 * are a view into a larger buffer). A helper that fails gives `{ ok: false, error }` for its clip, as a clip that
 * cannot be converted; an abort rejects.
 */
export function processClipWith(pool: HelperPool): ClipProcessor {
  return async (task, signal) => {
    const whole = task.bytes.byteOffset === 0 && task.bytes.byteLength === task.bytes.buffer.byteLength
    const bytes = whole ? task.bytes : task.bytes.slice()
    try {
      return await pool.run('process-clip', { ...task, bytes }, { signal, transfer: [bytes.buffer as ArrayBuffer] })
    } catch (error) {
      if (signal?.aborted) throw error
      return { ok: false, error: (error as Error).message }
    }
  }
}
