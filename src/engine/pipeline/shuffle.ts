/**
 * fairseq2's `shuffle(window, seed)` (FS2:native/src/fairseq2n/data/shuffle_data_source.cc; docs/reference-pipeline.md §16):
 * a cyclic buffer of `window` items, re-shuffled in place with the torch CPU generator every time the read position
 * comes back to the buffer start.
 */
import { asyncIteratorOf, type ItemSource } from './iterables.ts'
import { TorchGenerator } from '../random/torch-generator.ts'

/**
 * Fisher-Yates as fairseq2 does it: for `s = n .. 2`, `j = random64() % s`, swap `[s-1]` and `[j]` when different.
 * @param items array shuffled in place over `[0, n)`.
 * @param n number of live items at the start of `items`.
 */
export function shuffleInPlace<T>(items: T[], n: number, generator: TorchGenerator): void {
  for (let s = n; s > 1; s--) {
    const j = generator.random64Mod(s)
    if (j !== s - 1) {
      const t = items[s - 1]
      items[s - 1] = items[j]
      items[j] = t
    }
  }
}

/**
 * Yields the items of `source` in fairseq2's windowed shuffle order.
 * - `window` 1: pass-through (no RNG use); `window` 0: unbounded (the whole input is buffered).
 * - First call: fill up to `window` items. Whenever the position is at the buffer start, shuffle the live part.
 *   Emit the item at the position and, while input remains, replace it with the next input item; advance cyclically.
 * - When input ends, the slot where it ended marks the end: the items after it are emitted, then the part before
 *   the mark is reshuffled and emitted.
 * @param window buffer size in items (≥ 0).
 * @param seed torch generator seed (`manual_seed`).
 */
export async function* shuffleWindow<T>(source: ItemSource<T>, window: number, seed: number): AsyncGenerator<T> {
  if (!Number.isSafeInteger(window) || window < 0) {
    throw new RangeError(`shuffle: window must be a non-negative integer, got ${window}`)
  }
  if (window === 1) {
    yield* source
    return
  }
  const input = asyncIteratorOf(source)
  const generator = new TorchGenerator(seed)
  const capacity = window === 0 ? Infinity : window
  const buffer: T[] = []
  while (buffer.length < capacity) {
    const r = await input.next()
    if (r.done) break
    buffer.push(r.value)
  }
  let end = buffer.length
  let inputDone = false
  let pos = 0
  while (pos !== end) {
    if (pos === 0) shuffleInPlace(buffer, end, generator)
    const out = buffer[pos]
    if (!inputDone) {
      const r = await input.next()
      if (r.done) {
        inputDone = true
        end = pos
      } else {
        buffer[pos] = r.value
      }
    }
    pos = pos + 1 === buffer.length ? 0 : pos + 1
    yield out
  }
}
