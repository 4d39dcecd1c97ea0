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
