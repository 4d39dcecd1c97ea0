/**
 * Small helpers to treat sync and async item sources alike: every pipeline stage takes either and yields async.
 */

/** Anything a stage can pull items from. */
export type ItemSource<T> = Iterable<T> | AsyncIterable<T>

/** Returns an async iterator over a sync or async iterable. */
export function asyncIteratorOf<T>(source: ItemSource<T>): AsyncIterator<T> {
  if (Symbol.asyncIterator in source) return source[Symbol.asyncIterator]()
  const it = source[Symbol.iterator]()
  return {
    next: () => Promise.resolve(it.next()),
    return: (value?: unknown) => Promise.resolve(it.return ? it.return(value) : { done: true as const, value: undefined }),
  } as AsyncIterator<T>
}

/**
 * Collects up to `limit` items (all when omitted) from a source into an array.
 * @param limit maximum number of items to take; the source is closed after that.
 */
export async function collect<T>(source: ItemSource<T>, limit = Infinity): Promise<T[]> {
  const out: T[] = []
  if (limit <= 0) return out
  for await (const item of source) {
    out.push(item)
    if (out.length >= limit) break
  }
  return out
}
