/**
 * The engine worker's request loop (worker.ts loads it): one `self.onmessage` that switches on `kind`. Each request
 * gets its own AbortController, keyed by id, so an `abort` message stops exactly that request. Parquet and audio are
 * only ever read here, never on the UI thread. Errors surface as one `error` message per failed request.
 */
import type { ClientMessage, WorkerError, WorkerMessage } from './protocol.ts'
import { createRequestHandler } from './handlers.ts'
import { throttleProgress } from './throttle-progress.ts'
import { splitLongArrays } from './chunking.ts'

const running = new Map<number, AbortController>()
const handle = createRequestHandler()

/** Posts one typed message to the UI thread; a partial or result with long arrays goes in slices (chunking.ts). */
function post(message: WorkerMessage): void {
  if (message.kind === 'partial' || message.kind === 'result') {
    const { shell, chunks } = splitLongArrays(message)
    for (const chunk of chunks) self.postMessage({ kind: 'chunk', id: message.id, chunk: { path: chunk.path.slice(1), items: chunk.items } } satisfies WorkerMessage)
    self.postMessage(shell)
    return
  }
  self.postMessage(message)
}

/** Turns anything thrown into the plain error that crosses the boundary. */
function toWorkerError(error: unknown, signal: AbortSignal): WorkerError {
  if (signal.aborted || (error instanceof Error && error.name === 'AbortError')) return { message: 'request aborted', kind: 'aborted' }
  if (error instanceof Error) {
    const kind = (error as Error & { kind?: unknown }).kind
    return { message: error.message, kind: typeof kind === 'string' ? kind : 'internal' }
  }
  return { message: String(error), kind: 'internal' }
}

/** One message from the page: an abort, or a request run to its result or error. */
function receive(message: ClientMessage): void {
  if (message.kind === 'abort') {
    running.get(message.id)?.abort()
    return
  }
  const { id } = message
  const controller = new AbortController()
  running.set(id, controller)
  const onProgress = throttleProgress((progress) => post({ kind: 'progress', id, progress }))
  const onPartial = (partial: unknown) => post({ kind: 'partial', id, partial } as WorkerMessage)
  handle(message, { signal: controller.signal, onProgress, onPartial })
    .then(
      (result) => post({ kind: 'result', id, result }),
      (error: unknown) => post({ kind: 'error', id, error: toWorkerError(error, controller.signal) }),
    )
    .finally(() => running.delete(id))
}

/**
 * Takes over the worker's messages: first those that came while this module loaded (in order), then the rest.
 * @param queued the messages worker.ts held
 */
export function serveRequests(queued: readonly ClientMessage[]): void {
  for (const message of queued) receive(message)
  self.onmessage = (event: MessageEvent<ClientMessage>) => receive(event.data)
}
