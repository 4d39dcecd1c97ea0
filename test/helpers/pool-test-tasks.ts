/**
 * A task module for the worker pool's tests (test/cli/worker-pool.test.ts): loaded in helper threads with the CLI's
 * loaders, so its `?raw` import and TypeScript prove the loaders reach the helpers.
 */
import { threadId } from 'node:worker_threads'
import shader from '../../src/shaders/spec-augment.wgsl?raw'
import type { Task } from '../../src/cli/lib/worker-protocol.ts'

export const tasks = {
  echo: (async (input) => ({ result: { input, thread: threadId } })) satisfies Task<unknown, { input: unknown; thread: number }>,
  /** Waits `ms`, then answers with the helper's thread id. */
  sleep: (async (ms) => {
    await new Promise((ok) => setTimeout(ok, ms))
    return { result: threadId }
  }) satisfies Task<number, number>,
  fail: (async (why) => { throw new Error(`pool-test: asked to fail (${why})`) }) satisfies Task<string, never>,
  /** Ends its helper thread with `code`. */
  crash: (async (code) => { process.exit(code) }) satisfies Task<number, never>,
  /** Sums the bytes it was given and answers with a buffer of `n` bytes, moved back. */
  bytes: (async ({ data, n }) => {
    const out = new Uint8Array(n).fill(7)
    return { result: { sum: data.reduce((a, b) => a + b, 0), received: data.byteLength, out }, transfer: [out.buffer] }
  }) satisfies Task<{ data: Uint8Array; n: number }, { sum: number; received: number; out: Uint8Array }>,
  shaderLength: (async () => ({ result: shader.length })) satisfies Task<null, number>,
}
