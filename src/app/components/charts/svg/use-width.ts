/**
 * The width of a chart's box in px: read in a passive effect, then followed with a ResizeObserver.
 *
 * A passive effect of a deferred render (every chart's inputs are deferred values or staged mounts) runs after the
 * browser has laid out and painted the commit, so the read finds the layout clean and costs nothing; read in the
 * mount's layout phase, as before, it laid out the page in the middle of React's commit (20–70 ms at 1,600
 * languages). A box inside a block that `content-visibility: auto` skips (off the screen) is laid out by the read
 * alone, so charts below the fold are drawn too (the ResizeObserver alone would not report them until scrolled to).
 * The box keeps its height while the width is 0, so the plot arriving a frame later moves nothing
 * (docs/interpretations.md, "Charts and tables measure after layout").
 */
import { useEffect, useRef, useState, type RefObject } from 'react'

/** A ref for the chart's box and its content width in px (0 until measured). */
export function useWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null)
  const [width, setWidth] = useState(0)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const update = (w: number) => setWidth((old) => (old === w ? old : w))
    update(Math.floor(el.clientWidth))
    const observer = new ResizeObserver((entries) => update(Math.floor(entries[entries.length - 1].contentRect.width)))
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return [ref, width]
}
