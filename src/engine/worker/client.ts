/**
 * The UI thread's only door to the engine: Promise functions that mirror the engine API, backed by the worker.
 * Modelled on hyperparam-cli `parquetWorkerClient.ts`: a pending map keyed by request id, a lazily started
 * worker, and an AbortSignal turned into an `abort` message. Errors surface as rejected promises:
 * `AbortError` (a DOMException) when the caller aborted, `WorkerRequestError` (with the engine's `kind`) otherwise.
 */
import type { Progress } from '../dataset/dataset.ts'
import type { ClientMessage, PartialOf, RequestKind, Requests, WorkerMessage } from './protocol.ts'
import type { OpenResult, SourceDescription, SummaryFile } from './protocol/dataset.ts'
import { joinLongArrays, type ArrayChunk } from './chunking.ts'

/** The part of `Worker` the client uses (a fake one in tests). */
export interface WorkerLike {
  postMessage(message: ClientMessage): void
  onmessage: ((event: MessageEvent<WorkerMessage>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
  terminate(): void
}

/** Options every request takes. */
export interface RequestOptions<P = unknown> {
  signal?: AbortSignal
  onProgress?: (progress: Progress) => void
  /** Provisional results before the final one, for kinds that send them (the progressive `open`). */
  onPartial?: (partial: P) => void
}

/** An engine error that came back from the worker; `kind` is the engine's kebab-case kind. */
export class WorkerRequestError extends Error {
  constructor(message: string, readonly kind: string) {
    super(message)
    this.name = 'WorkerRequestError'
  }
}

/** The typed Promise API over the worker. */
export interface EngineClient {
  /** Opens a dataset in the worker: discovery, stats, shallow validation. The dataset stays there under `result.dataset`. */
  openDataset(source: SourceDescription, options?: RequestOptions<OpenResult> & { summary?: SummaryFile }): Promise<OpenResult>
  /** Releases a dataset the worker holds. */
  closeDataset(dataset: number): Promise<null>
  /** Any request kind of `Requests` (protocol.ts), typed by its kind: the way later views call the engine. */
  request<K extends RequestKind>(kind: K, params: Requests[K]['params'], options?: RequestOptions<PartialOf<K>>): Promise<Requests[K]['result']>
  /**
   * Resolves once the worker thread runs (its `started` message), before its engine has loaded: the first request
   * starts the worker. The page waits for it before evaluating its own bundle (src/app/main.tsx).
   */
  started(): Promise<void>
  /** Stops the worker; pending requests reject. */
  terminate(): void
}

interface Pending {
  resolve: (result: unknown) => void
  reject: (error: unknown) => void
  onProgress?: (progress: Progress) => void
  onPartial?: (partial: never) => void
  /** Slices of long arrays of the next partial or result (chunking.ts). */
  chunks?: ArrayChunk[]
}

/**
 * A partial the worker posted without its partitions (`OpenResult.samePartitions`), with those of the partial before
 * it put back: the same objects, groupings included; its own TSV comparison kept.
 */
function withPartitionsOf(partial: OpenResult, previous: OpenResult | null): OpenResult {
  if (!previous) throw new WorkerRequestError('worker: a partial left out its partitions, but no partial came before it', 'internal')
  const { samePartitions: _, ...rest } = partial
  return {
    ...rest,
    stats: { ...partial.stats, partitions: previous.stats.partitions },
    overview: { ...previous.overview, tsvCoverage: partial.overview.tsvCoverage },
  }
}

/** Starts the real engine worker (Vite bundles it from this `new URL` pattern). */
function startEngineWorker(): WorkerLike {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'mixscope-engine' })
}

function abortError(kind: string): DOMException {
  return new DOMException(`${kind} aborted`, 'AbortError')
}

/**
 * Creates a client. The worker starts on the first request.
 * @param startWorker factory for the worker (tests pass a fake)
 */
export function createEngineClient(startWorker: () => WorkerLike = startEngineWorker): EngineClient {
  const pending = new Map<number, Pending>()
  let worker: WorkerLike | null = null
  let nextId = 1
  let markStarted: () => void = () => undefined
  /** Settles on the next worker's `started` message. */
  const nextStart = () => new Promise<void>((resolve) => { markStarted = resolve })
  let started = nextStart()

  function receive(message: WorkerMessage): void {
    if (message.kind === 'started') {
      markStarted()
      return
    }
    const entry = pending.get(message.id)
    if (!entry) return // aborted or unknown: drop
    if (message.kind === 'chunk') {
      (entry.chunks ??= []).push(message.chunk)
      return
    }
    if ((message.kind === 'partial' || message.kind === 'result') && entry.chunks) {
      const payload = message.kind === 'partial' ? message.partial : message.result
      joinLongArrays(payload, entry.chunks)
      entry.chunks = undefined
    }
    if (message.kind === 'progress') {
      entry.onProgress?.(message.progress)
      return
    }
    if (message.kind === 'partial') {
      (entry.onPartial as ((partial: unknown) => void) | undefined)?.(message.partial)
      return
    }
    pending.delete(message.id)
    if (message.kind === 'result') entry.resolve(message.result)
    else if (message.error.kind === 'aborted') entry.reject(abortError('request'))
    else entry.reject(new WorkerRequestError(message.error.message, message.error.kind))
  }

  function failAll(error: Error): void {
    for (const entry of pending.values()) entry.reject(error)
    pending.clear()
  }

  function ensureWorker(): WorkerLike {
    if (worker) return worker
    worker = startWorker()
    worker.onmessage = (event) => receive(event.data)
    worker.onerror = (event) => failAll(new WorkerRequestError(`worker: engine worker failed (${event.message || 'script error'})`, 'worker-failed'))
    return worker
  }

  function request<K extends RequestKind>(kind: K, params: Requests[K]['params'], options: RequestOptions<PartialOf<K>> = {}): Promise<Requests[K]['result']> {
    const { signal, onProgress, onPartial } = options
    if (signal?.aborted) return Promise.reject(abortError(kind))
    const target = ensureWorker()
    const id = nextId++
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve: resolve as (result: unknown) => void, reject, onProgress, onPartial: onPartial as ((partial: never) => void) | undefined })
      signal?.addEventListener('abort', () => {
        if (!pending.delete(id)) return
        target.postMessage({ kind: 'abort', id } satisfies ClientMessage)
        reject(abortError(kind))
      }, { once: true })
      // kind and id last: a parameter of the same name can never replace them
      target.postMessage({ ...params, kind, id } as unknown as ClientMessage)
    })
  }

  return {
    openDataset: async (source, { summary, ...options } = {}) => {
      // the final result may leave out the stats a `validating` partial already carried (OpenResultMessage)
      let validating: OpenResult | null = null
      let previous: OpenResult | null = null
      const onPartial = (posted: OpenResult) => {
        const partial = posted.samePartitions ? withPartitionsOf(posted, previous) : posted
        previous = partial
        if (partial.provisional?.stage === 'validating') validating = partial
        options.onPartial?.(partial)
      }
      const message = await request('open', summary ? { source, summary } : { source }, { ...options, onPartial })
      if (message.stats !== null) return message
      const from = validating as OpenResult | null
      if (!from) throw new WorkerRequestError('worker: the open result left out its stats, but no validating partial carried them', 'internal')
      return { ...message, stats: from.stats, overview: from.overview }
    },
    closeDataset: (dataset) => request('close', { dataset }),
    request,
    started: () => started,
    terminate() {
      worker?.terminate()
      worker = null
      started = nextStart()
      failAll(new WorkerRequestError('worker: engine worker terminated', 'worker-terminated'))
    },
  }
}
