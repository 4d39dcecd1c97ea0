/**
 * What a helper thread of the CLI's worker pool can run (src/cli/lib/worker-pool.ts) and the messages between it and
 * the calling thread. A task module exports `tasks`, a table of named tasks; the pool loads it in every helper.
 */

/** A task's answer: its result, and the buffers to move (not copy) back to the calling thread. */
export interface TaskAnswer<R> {
  result: R
  transfer?: ArrayBuffer[]
}

/** One task: takes a structured-cloneable input, answers with a structured-cloneable result. */
export type Task<I, R> = (input: I) => Promise<TaskAnswer<R>>

/** A task module's `tasks`: tasks by name. */
export type TaskTable = Record<string, Task<never, unknown>>

/** The input a task of a table takes. */
export type TaskInput<T> = T extends Task<infer I, unknown> ? I : never

/** The result a task of a table answers with. */
export type TaskResult<T> = T extends Task<never, infer R> ? R : never

/** Calling thread → helper: run `kind` on `input`. */
export interface TaskRequest {
  id: number
  kind: string
  input: unknown
}

/** Helper → calling thread: the result of request `id`, or the message of what it threw. */
export type TaskReply = { id: number; result: unknown } | { id: number; error: string }
