/**
 * Pacing a page's blocks over frames. While a progressive open streams snapshots, every block of the Overview
 * changes at once: one React commit and then one frame whose layout and paint cover the whole page (at 1,600
 * languages: ~500 changed layout objects, 35–40 ms of main-thread time in a single frame on a 2-core machine).
 * A block that takes its input through `usePaced(value, k)` shows a new value `k` painted frames after it came, so
 * the blocks of a page change one or two per frame and each frame stays short. The value a block shows is at most
 * `k` frames old, and always the latest: values that come while a block waits replace the one it will show.
 */
import { startTransition, useEffect, useRef, useState } from 'react'
import { afterFrames } from '../lib/after-frames.ts'

/**
 * `value` as block `slot` shows it: at once for slot ≤ 0 (and at mount), else `slot` painted frames after it last
 * changed (lib/after-frames.ts), adopted in a transition (rendered in slices). The caller marks the block
 * `aria-busy` while the result is not `value`.
 */
export function usePaced<T>(value: T, slot: number): T {
  const [shown, setShown] = useState(value)
  const latest = useRef(value)
  const cancel = useRef<(() => void) | null>(null)
  useEffect(() => {
    latest.current = value
    // one countdown at a time, never restarted by a newer value: a block fed faster than `slot` frames would
    // otherwise never catch up; when it fires it takes the latest value
    if (slot <= 0 || shown === value || cancel.current) return
    cancel.current = afterFrames(slot, () => {
      cancel.current = null
      startTransition(() => setShown(latest.current))
    })
  }, [value, shown, slot])
  useEffect(() => () => {
    cancel.current?.()
    cancel.current = null
  }, [])
  return slot <= 0 ? value : shown
}
