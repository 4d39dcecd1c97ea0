/**
 * A helper Worker of the Prepare view: converts clips (decode → mono → 16 kHz → FLAC/Ogg, src/engine/prepare/clip.ts)
 * for the engine worker, which reads the input and writes parquet. Input and encoded bytes are transferred.
 */
import { createClipProcessor, type ClipResult, type ClipTask } from '../prepare/clip.ts'
import { loadLibFlacBrowser } from '../prepare/libflac-browser.ts'

const processClip = createClipProcessor(loadLibFlacBrowser)

self.onmessage = (event: MessageEvent<{ id: number; task: ClipTask }>) => {
  const { id, task } = event.data
  processClip(task).then(
    (result: ClipResult) => self.postMessage({ id, result }, { transfer: result.ok ? [result.audio.buffer as ArrayBuffer] : [] }),
    (error: unknown) => self.postMessage({ id, result: { ok: false, error: String((error as Error)?.message ?? error) } }),
  )
}
