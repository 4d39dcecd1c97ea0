/**
 * The width of a chart's box in px, read once in the mount's layout phase (so the first paint already has the chart
 * at its width, not an empty frame) and after that from a ResizeObserver.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react'

/** A ref for the chart's box and its content width in px (0 until measured). */
export function useWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null)
  const [width, setWidth] = useState(0)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    setWidth(Math.floor(el.clientWidth))
    const observer = new ResizeObserver((entries) => {
      const w = Math.floor(entries[entries.length - 1].contentRect.width)
      setWidth((old) => (old === w ? old : w))
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return [ref, width]
}
