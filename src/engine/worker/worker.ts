/**
 * The engine worker's entry, kept tiny: it says `started` at once, holds the requests that arrive while the engine
 * (serve.ts and everything it runs) loads, then hands them over in order. The page waits for `started` before it
 * evaluates its own bundle (src/app/main.tsx): Chromium starts a worker only once the page's main thread has been
 * free for a moment, so a page busy evaluating and rendering would otherwise hold the worker back by that long.
 */
import type { ClientMessage, WorkerMessage } from './protocol.ts'

const queued: ClientMessage[] = []
self.onmessage = (event: MessageEvent<ClientMessage>) => { queued.push(event.data) }
self.postMessage({ kind: 'started', id: 0 } satisfies WorkerMessage)

import('./serve.ts').then(
  ({ serveRequests }) => serveRequests(queued),
  (error: unknown) => {
    // the engine could not load: every request, held or later, fails with why (an abort has nothing to answer)
    const fail = (message: ClientMessage) => {
      if (message.kind !== 'abort') self.postMessage({ kind: 'error', id: message.id, error: { message: `worker: the engine failed to load (${String(error)})`, kind: 'worker-failed' } } satisfies WorkerMessage)
    }
    queued.forEach(fail)
    self.onmessage = (event: MessageEvent<ClientMessage>) => fail(event.data)
  },
)
