/**
 * A helper Worker started by the engine worker (audio-pool.ts): measures one row group's audio for the deep audit
 * (`measureAudioTask`), or decodes one run of a batch's files for featurizing (`decodeMany`), so that audio work uses
 * every core, as the CLI's worker pool does in Node. Decoded samples are transferred back, not copied.
 */
import { measureAudioTask } from '../audit/measure.ts'
import { DEFAULT_DECODE_CONCURRENCY } from '../audio/batch-decoder.ts'
import { decodeMany, type DecodeResult } from '../audio/decode.ts'
import type { HelperReply, HelperRequest } from './audio-pool.ts'

/** The distinct buffers under the decoded samples (two channels may share one). */
function buffersOf(results: DecodeResult[]): ArrayBuffer[] {
  const set = new Set<ArrayBuffer>()
  for (const r of results) if (r.ok) for (const c of r.audio.channels) set.add(c.buffer as ArrayBuffer)
  return [...set]
}

self.onmessage = (event: MessageEvent<HelperRequest>) => {
  const request = event.data
  const reply = (message: HelperReply, transfer: ArrayBuffer[] = []) => self.postMessage(message, { transfer })
  const fail = (error: unknown) => reply({ id: request.id, error: error instanceof Error ? error.message : String(error) })
  if ('task' in request) {
    measureAudioTask(request.task).then((measures) => reply({ id: request.id, measures }), fail)
  } else {
    decodeMany(request.decode.items, { concurrency: DEFAULT_DECODE_CONCURRENCY, ...request.decode.options })
      .then((results) => reply({ id: request.id, results }, buffersOf(results)), fail)
  }
}
