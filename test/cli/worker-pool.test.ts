/**
 * The CLI's worker pool (src/cli/lib/worker-pool.ts): helper threads load a TypeScript task module with the CLI's
 * loaders (tsx and `?raw`), run tasks in parallel, move buffers both ways, report a task's error or a helper's death
 * for that task only, honour aborts and close cleanly. The CLI's own tasks (audit measure, prepare clips) are pinned
 * byte for byte by test/audit/audio.test.ts and test/prepare/prepare-cli.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { readFile } from 'node:fs/promises'
import { createWorkerPool, type WorkerPool } from '../../src/cli/lib/worker-pool.ts'
import type { tasks } from '../helpers/pool-test-tasks.ts'

type TestTasks = typeof tasks
const tasksUrl = new URL('../helpers/pool-test-tasks.ts', import.meta.url)
let pool: WorkerPool<TestTasks> | null = null
const start = (size: number) => (pool = createWorkerPool<TestTasks>({ tasks: tasksUrl, size }))
afterEach(async () => {
  await pool?.close()
  pool = null
})

describe('createWorkerPool', () => {
  it('loads the task module as TypeScript with the ?raw loader, in each helper', async () => {
    const p = start(2)
    const text = await readFile(new URL('../../src/shaders/spec-augment.wgsl', import.meta.url), 'utf8')
    expect(await Promise.all([p.run('shaderLength', null), p.run('shaderLength', null)])).toEqual([text.length, text.length])
    expect(await p.run('echo', { a: [1, 'x'] })).toMatchObject({ input: { a: [1, 'x'] } })
  })

  it('runs tasks on every helper at once', async () => {
    const p = start(3)
    expect(p.size).toBe(3)
    await Promise.all([0, 1, 2].map(() => p.run('sleep', 0))) // helpers loaded
    const started = performance.now()
    const threads = await Promise.all([0, 1, 2, 3, 4, 5].map(() => p.run('sleep', 300)))
    const wall = performance.now() - started
    expect(new Set(threads).size).toBe(3)
    expect(threads.every((t) => t > 0)).toBe(true)
    expect(wall).toBeLessThan(6 * 300) // one helper alone would need 1800 ms
  })

  it('moves buffers to the helper and back', async () => {
    const p = start(1)
    const data = new Uint8Array([1, 2, 3, 250])
    const answer = await p.run('bytes', { data, n: 5 }, { transfer: [data.buffer] })
    expect(data.byteLength).toBe(0) // moved, not copied
    expect(answer).toEqual({ sum: 256, received: 4, out: new Uint8Array(5).fill(7) })
  })

  it('rejects with the task and its error, and keeps going', async () => {
    const p = start(1)
    await expect(p.run('fail', 'bad value 42')).rejects.toThrow('worker-pool: fail: pool-test: asked to fail (bad value 42)')
    expect(await p.run('echo', 1)).toMatchObject({ input: 1 })
  })

  it('a helper that dies fails its own task only; when none is left, every task fails', async () => {
    const p = start(3)
    const slow = p.run('sleep', 400)
    await expect(p.run('crash', 3)).rejects.toThrow('worker-pool: crash: helper thread exited with code 3')
    expect(typeof await slow).toBe('number')
    expect(await p.run('echo', 'still here')).toMatchObject({ input: 'still here' })
    const queued = p.run('echo', 'queued behind the crash')
    await expect(p.run('crash', 4)).rejects.toThrow('exited with code 4')
    await expect(queued).resolves.toMatchObject({ input: 'queued behind the crash' })
    await expect(p.run('crash', 5)).rejects.toThrow('exited with code 5')
    await expect(p.run('echo', 'none left')).rejects.toThrow('worker-pool: every helper thread has stopped (the last: helper thread exited with code 5)')
  })

  it('an abort drops a queued task and rejects with the reason', async () => {
    const p = start(1)
    const busy = p.run('sleep', 200)
    const controller = new AbortController()
    const queued = p.run('echo', 'never', { signal: controller.signal })
    controller.abort(new Error('test: stop'))
    await expect(queued).rejects.toThrow('test: stop')
    await busy
    await expect(p.run('echo', 'x', { signal: AbortSignal.abort(new Error('test: already')) })).rejects.toThrow('test: already')
  })

  it('close rejects what is unanswered and refuses new tasks; sizes are checked', async () => {
    const p = start(1)
    const unanswered = Promise.allSettled([p.run('sleep', 5_000), p.run('echo', 1)])
    await p.close()
    for (const outcome of await unanswered) {
      expect(outcome.status).toBe('rejected')
      expect(String((outcome as PromiseRejectedResult).reason)).toContain('worker-pool: closed')
    }
    await expect(p.run('echo', 2)).rejects.toThrow('worker-pool: closed')
    expect(() => createWorkerPool<TestTasks>({ tasks: tasksUrl, size: 0 })).toThrow('worker-pool: size must be a positive integer, got 0')
    expect(() => createWorkerPool<TestTasks>({ tasks: tasksUrl, size: 1.5 })).toThrow('got 1.5')
  })

  it('names a task the module does not have', async () => {
    const p = start(1)
    await expect(p.run('nope' as 'echo', 1)).rejects.toThrow('worker-pool: nope: no task "nope" in')
  })
})
