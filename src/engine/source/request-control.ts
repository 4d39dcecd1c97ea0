/**
 * Request control for the HTTP source: a per-request timeout scope joined to the caller's abort, a counting
 * semaphore for requests in flight, and an abortable sleep between retries.
 */
import { throwIfAborted } from './source.ts'

/** The timers a source waits with: the global ones, or manual ones in tests (time as an input, not a measurement). */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** `setTimeout` / `clearTimeout` of the runtime. */
export const globalTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/** The signal's reason, or an AbortError when it has none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('aborted', 'AbortError')
}

/** An AbortSignal that fires on the caller's abort or after `ms`; `timedOut()` tells which. */
export function timeoutScope(outer: AbortSignal | undefined, ms: number, timers: Timers = globalTimers) {
  const controller = new AbortController()
  let timedOut = false
  const timer = timers.setTimeout(() => {
    timedOut = true
    controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'))
  }, ms)
  const onAbort = () => controller.abort(abortReason(outer as AbortSignal))
  outer?.addEventListener('abort', onAbort, { once: true })
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      timers.clearTimeout(timer)
      outer?.removeEventListener('abort', onAbort)
    },
  }
}

/**
 * A counting semaphore (`createLimiter`): call it to wait for a slot; `setMax` changes the number of slots. A
 * `background` caller gets a slot only while no foreground caller holds or waits for one (the row checks that go on
 * after a dataset is usable read between a view's reads, never beside them: docs/architecture.md "Views while the
 * rows are read").
 */
export interface Limiter {
  (signal?: AbortSignal, background?: boolean): Promise<() => void>
  /** Slots now. */
  readonly max: number
  /** Changes the number of slots; more wakes waiters at once, fewer takes effect as holders release. */
  setMax(max: number): void
}

/**
 * A counting semaphore: resolves to a release function once fewer than `max` holders are active; a freed slot goes
 * to the longest-waiting foreground caller, else, when no foreground caller holds a slot, to the longest-waiting
 * background one.
 */
export function createLimiter(initialMax: number): Limiter {
  let max = initialMax
  let foreground = 0
  let background = 0
  const waiting: Array<() => void> = []
  const waitingBackground: Array<() => void> = []
  /** Hands free slots to waiters (each waiter's count is taken here, before it wakes). */
  const pump = () => {
    while (foreground + background < max) {
      if (waiting.length > 0) {
        foreground++
        waiting.shift()!()
      } else if (waitingBackground.length > 0 && foreground === 0) {
        background++
        waitingBackground.shift()!()
      } else break
    }
  }
  const releaser = (isBackground: boolean) => {
    let released = false
    return () => {
      if (released) return
      released = true
      if (isBackground) background--
      else foreground--
      pump()
    }
  }
  const acquire = async (signal?: AbortSignal, isBackground = false) => {
    throwIfAborted(signal)
    const free = foreground + background < max
    if (!isBackground && free && waiting.length === 0) {
      foreground++
      return releaser(false)
    }
    if (isBackground && free && foreground === 0 && waiting.length === 0 && waitingBackground.length === 0) {
      background++
      return releaser(true)
    }
    const queue = isBackground ? waitingBackground : waiting
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      const onAbort = () => {
        queue.splice(queue.indexOf(wake), 1)
        reject(abortReason(signal as AbortSignal))
      }
      queue.push(wake)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
    return releaser(isBackground)
  }
  const limiter = acquire as Limiter
  Object.defineProperty(limiter, 'max', { get: () => max })
  limiter.setMax = (next: number) => {
    max = next
    pump()
  }
  return limiter
}

/** Resolves after `ms`, or rejects with the abort reason as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal, timers: Timers = globalTimers): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal))
    const onAbort = () => {
      timers.clearTimeout(timer)
      reject(abortReason(signal as AbortSignal))
    }
    const timer = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

