/**
 * Maps `items` through `fn` with at most `limit` calls in flight; results keep the input order.
 * The first rejection rejects the whole map (after in-flight calls settle).
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  let failure: unknown = null
  async function worker(): Promise<void> {
    while (next < items.length && failure === null) {
      const i = next++
      try {
        results[i] = await fn(items[i], i)
      } catch (error) {
        failure ??= error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker))
  if (failure !== null) throw failure
  return results
}

/**
 * `mapLimit` whose limit may grow while it runs (an HTTP source raises its cap once it sees HTTP/2): `limit()` is read
 * again whenever a call ends, and more calls start when it has grown. Results keep the input order.
 */
export async function mapGrowing<T, R>(items: readonly T[], limit: () => number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  let running = 0
  let failure: unknown = null
  const workers: Promise<void>[] = []
  const spawn = () => {
    while (failure === null && next < items.length && running < Math.max(1, limit())) {
      running++
      workers.push(worker())
    }
  }
  async function worker(): Promise<void> {
    while (next < items.length && failure === null) {
      const i = next++
      try {
        results[i] = await fn(items[i], i)
      } catch (error) {
        failure ??= error
      }
      if (running < limit()) spawn()
    }
    running--
  }
  spawn()
  for (let i = 0; i < workers.length; i++) await workers[i]
  if (failure !== null) throw failure
  return results
}
