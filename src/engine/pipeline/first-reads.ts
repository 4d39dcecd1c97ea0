/**
 * The first row groups of a mixture's partition streams, read a window at a time ahead of the sampler's first call,
 * which pulls one row from every stream in order (docs/reference-pipeline.md §5; the reference warms its streams up
 * in a pool of 30 threads, OA:...storage.py:486-537). Only I/O moves: each stream still reads exactly the row groups
 * it reads unprimed, in the same order, and at most `window` primed row groups wait to be taken.
 */
import type { FragmentRef } from './fragments.ts'
import type { FragmentMeta, ReadFragmentMeta } from './fragment-rows.ts'
import type { DeferredFill } from './deferred-fill.ts'

/** Partition streams read at once ahead of the sampler's first call: the reference's warm-up pool (`max_workers`). */
export const FIRST_READ_WINDOW = 30

/** A stream's row-group order with its first row group known in advance. */
export interface PeekedOrder {
  first: FragmentRef | undefined
  order: Generator<FragmentRef>
}

/** Takes the first row group of `order` out in advance; `order` of the result still yields it first. */
export function peekFirst(order: Iterator<FragmentRef>): PeekedOrder {
  const head = order.next()
  const first = head.done ? undefined : head.value
  function* again(): Generator<FragmentRef> {
    if (first === undefined) return
    yield first
    for (let r = order.next(); !r.done; r = order.next()) yield r.value
  }
  return { first, order: again() }
}

/**
 * One read function per stream: the first read of stream `i`'s first row group is served from a read started
 * ahead; every other read goes to `read`. The first read of any stream starts streams `0 .. window-1`, and each primed
 * read taken starts the next stream's. With `deferred` (the sampler's first fill put off, deferred-fill.ts), nothing is
 * read ahead until that fill starts, nor while it gives way to a batch: a stream's first read is then its own, and
 * the fill skips streams read so.
 */
export function primedReads(firsts: readonly (FragmentRef | undefined)[], read: ReadFragmentMeta, window = FIRST_READ_WINDOW, signal?: AbortSignal,
  deferred?: DeferredFill): ReadFragmentMeta[] {
  const primed = new Map<number, Promise<FragmentMeta>>()
  const readAlready = new Uint8Array(firsts.length)
  let next = 0
  const fill = () => {
    if (deferred && !deferred.mayRead) return
    while (primed.size < window && next < firsts.length) {
      const i = next++
      const fragment = firsts[i]
      if (fragment === undefined || readAlready[i] || signal?.aborted) continue
      const meta = read(fragment, signal)
      meta.catch(() => undefined) // taken (and awaited) by its stream, or never needed
      primed.set(i, meta)
    }
  }
  deferred?.onStart(fill)
  deferred?.onResume(fill)
  return firsts.map((first, i) => (fragment: FragmentRef, s?: AbortSignal) => {
    fill() // (the first read of any stream starts the window: nothing is read before the plan is pulled)
    const meta = primed.get(i)
    if (meta && fragment === first) {
      primed.delete(i)
      fill()
      return meta
    }
    if (fragment === first) readAlready[i] = 1
    return read(fragment, s)
  })
}
