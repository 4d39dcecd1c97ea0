/**
 * A helper thread of the worker pool (src/cli/lib/worker-pool.ts): loads the task module named in `workerData.tasks`
 * and answers each request with its task's result, or the message of what it threw. The pool starts this module with
 * the CLI's loaders (src/cli/lib/loaders.mjs), so it and the task module load as TypeScript, as the CLI does.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { TaskReply, TaskRequest, TaskTable } from './worker-protocol.ts'

const port = parentPort
if (!port) throw new Error('worker-pool: src/cli/lib/worker-main.ts runs only in a worker thread')
const tasksUrl = (workerData as { tasks: string }).tasks
const table: Promise<TaskTable> = import(tasksUrl).then((module: { tasks?: TaskTable }) => {
  if (!module.tasks) throw new Error(`worker-pool: ${tasksUrl} exports no "tasks"`)
  return module.tasks
})

port.on('message', async ({ id, kind, input }: TaskRequest) => {
  try {
    const task = (await table)[kind]
    if (!task) throw new Error(`no task ${JSON.stringify(kind)} in ${tasksUrl}`)
    const answer = await task(input as never)
    port.postMessage({ id, result: answer.result } satisfies TaskReply, answer.transfer ?? [])
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies TaskReply)
  }
})
