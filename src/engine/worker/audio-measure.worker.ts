/**
 * A helper Worker started by the engine worker for the deep audit: decodes and measures one row group's audio per
 * message (`measureAudioTask`), so the audio pass uses every core, as the CLI's worker pool does in Node.
 */
import { measureAudioTask } from '../audit/measure.ts'
import type { AudioMeasure, AudioTask } from '../audit/types.ts'

self.onmessage = (event: MessageEvent<{ id: number; task: AudioTask }>) => {
  const { id, task } = event.data
  measureAudioTask(task).then(
    (measures: AudioMeasure[]) => self.postMessage({ id, measures }),
    (error: unknown) => self.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  )
}
