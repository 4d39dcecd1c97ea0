/**
 * What the CLI's helper threads run (the task module of src/cli/lib/helper-pool.ts): the audit's audio measure of
 * one row group (`measureAudioTask`) and the dataprep's conversion of one clip (`processClipNode`, its encoded audio
 * moved back, not copied).
 */
import { measureAudioTask, processClipNode, type AudioMeasure, type AudioTask, type ClipResult, type ClipTask } from '../../engine/node.ts'
import type { Task } from './worker-protocol.ts'

/** The tasks by name. */
export const tasks = {
  'measure-audio': (async (task) => ({ result: await measureAudioTask(task) })) satisfies Task<AudioTask, AudioMeasure[]>,
  'process-clip': (async (task) => {
    const result = await processClipNode(task)
    return { result, transfer: result.ok ? [result.audio.buffer as ArrayBuffer] : [] }
  }) satisfies Task<ClipTask, ClipResult>,
}

/** The table's type, for `createWorkerPool<CliTasks>`. */
export type CliTasks = typeof tasks
