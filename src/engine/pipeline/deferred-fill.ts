/**
 * The sampler's first fill, moved behind the first batch (docs/architecture.md "Batches and Mixture").
 *
 * The reference's sampler starts by pulling one row from every partition stream (after each stream's warm-up row), so
 * its first batch waits on one row group of every partition: 6,400 reads at 1,600 languages, of which the first
 * batch of the demo-scale mixture uses a few dozen. Which partitions the sampler draws depends only on its seed and
 * the weights, never on the rows, so the batches come out the same when a stream is first pulled when it is drawn.
 * Only the errors could differ: a fill that fails (an unreadable row group, an empty stream) stops the reference
 * before any batch. A `DeferredFill` therefore fills the rest of the buffer in the background, in stream order, once
 * the first batch is out, and any error of the plan waits for that fill so that the error the reference raises first
 * is the one reported. Until `settled`, the batches shown are provisional.
 *
 * The fill gives way to the batches: while a consumer waits for a batch (`hold`/`release`), the fill starts no new
 * read (the reads its window has in flight finish), so a batch's own reads do not queue behind thousands of fill
 * reads; it goes on once nobody has waited for a batch for a whole task (`setTimeout(0)`: a consumer pulling batch
 * after batch keeps it paused). Whoever must have the fill's outcome before going on (an error waiting for it, the
 * end of the batches) calls `finish`, which no hold pauses.
 */

/** Progress and outcome of a sampler's deferred first fill. */
export class DeferredFill {
  /** Partition streams whose first row is in (their warm-up row dropped). */
  filled = 0
  /** Partition streams of the sampler. */
  total = 0
  /** The fill is through (`error` holds what stopped it, if anything). */
  settled = false
  /** What the eager sampler would have raised before its first draw, once `settled`. */
  error: unknown = undefined
  private fill: (() => Promise<void>) | null = null
  private running: Promise<void> | null = null
  private readonly started: (() => void)[] = []
  /** Consumers waiting for a batch now. */
  private holds = 0
  /** Set by `hold` (and at the start); cleared once a whole task has passed with no hold. */
  private paused = true
  /** Set by `finish`: no hold pauses the fill any more. */
  private urgent = false
  /** Who waits for the fill's turn (`turn`), and the listeners run when it is the fill's turn again (`onResume`). */
  private waiting: (() => void)[] = []
  private readonly resumed: (() => void)[] = []
  private resumeTimer: ReturnType<typeof setTimeout> | null = null

  /** Whether the background fill has been started. */
  get isStarted(): boolean {
    return this.running !== null
  }

  /** Whether the fill may start reads now: started, and nobody waiting for a batch (or `finish` called). */
  get mayRead(): boolean {
    return this.running !== null && (this.urgent || !this.paused)
  }

  /** A consumer starts waiting for a batch: the fill starts no new read until every hold is released. */
  hold(): void {
    this.holds++
    this.paused = true
  }

  /** A consumer has its batch; once no hold is taken again for a whole task, the fill goes on. */
  release(): void {
    this.holds = Math.max(0, this.holds - 1)
    this.checkLater()
  }

  /** After this task: unpauses and wakes the fill when no hold is taken by then. */
  private checkLater(): void {
    if (this.holds > 0 || this.resumeTimer !== null) return
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = null
      if (this.holds > 0 || this.running === null) return
      this.paused = false
      this.resume()
    }, 0)
  }

  /** Resolves when the fill may read (at once when it may). */
  turn(): Promise<void> {
    if (this.mayRead) return Promise.resolve()
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  /** Runs `listener` each time the fill may read again after a pause (the read window refills then). */
  onResume(listener: () => void): void {
    this.resumed.push(listener)
  }

  private resume(): void {
    for (const wake of this.waiting.splice(0)) wake()
    for (const listener of this.resumed) listener()
  }

  /** Starts the fill if it has not started, lets no hold pause it, and resolves or rejects as `start`. */
  finish(): Promise<void> {
    const running = this.start()
    if (!this.urgent) {
      this.urgent = true
      this.resume()
    }
    return running
  }

  /** Called by the sampler with its stream count and the fill (every stream's first pull, in order). */
  bind(total: number, fill: () => Promise<void>): void {
    this.total = total
    this.fill = fill
  }

  /** Runs `listener` when the fill starts (at once when it has). */
  onStart(listener: () => void): void {
    if (this.running) listener()
    else this.started.push(listener)
  }

  /**
   * Starts the fill (once) and resolves when every stream's first row is in; rejects with the first stream's error
   * in stream order, as the eager sampler raises it. Before the sampler has bound its fill, resolves at once. The
   * fill still gives way to consumers waiting for a batch (`finish` does not).
   */
  start(): Promise<void> {
    if (!this.fill) return Promise.resolve()
    if (!this.running) {
      const fill = this.fill
      this.running = (async () => {
        try {
          await fill()
        } catch (error) {
          this.error = error
          throw error
        } finally {
          this.settled = true
        }
      })()
      this.running.catch(() => undefined) // awaited by whoever needs the outcome
      for (const listener of this.started.splice(0)) listener()
      this.checkLater()
    }
    return this.running
  }
}

/**
 * Runs `batches`, starting `fill` once the first item is out and holding it while the next item is awaited; an error
 * of `batches` waits for the fill and gives way to the fill's own error (the reference raises that one first, before
 * any batch).
 */
export async function* afterFirstStartFill<T>(batches: AsyncGenerator<T>, fill: DeferredFill): AsyncGenerator<T> {
  let first = true
  try {
    for (;;) {
      fill.hold()
      let next: IteratorResult<T>
      try {
        next = await batches.next()
      } finally {
        fill.release()
      }
      if (next.done) {
        await fill.finish()
        return
      }
      if (first) {
        first = false
        void fill.start()
      }
      if (fill.settled && fill.error !== undefined) throw fill.error // (the batches stop where the reference's run does)
      yield next.value
    }
  } catch (error) {
    await fill.finish() // throws the fill's error when it has one
    throw error
  } finally {
    await batches.return(undefined)
  }
}
