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

  /** Whether the background fill has been started. */
  get isStarted(): boolean {
    return this.running !== null
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
   * in stream order, as the eager sampler raises it. Before the sampler has bound its fill, resolves at once.
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
    }
    return this.running
  }
}

/**
 * Runs `batches`, starting `fill` once the first item is out; an error of `batches` waits for the fill and gives way
 * to the fill's own error (the reference raises that one first, before any batch).
 */
export async function* afterFirstStartFill<T>(batches: AsyncGenerator<T>, fill: DeferredFill): AsyncGenerator<T> {
  let first = true
  try {
    for (;;) {
      const next = await batches.next()
      if (next.done) {
        await fill.start()
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
    await fill.start() // throws the fill's error when it has one
    throw error
  } finally {
    await batches.return(undefined)
  }
}
