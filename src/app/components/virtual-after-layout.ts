/**
 * Options for `useVirtualizer` that never lay the page out during React's commit.
 *
 * When a virtualizer mounts, the library reads its scroll box (`getBoundingClientRect()` in `observeElementRect`) and
 * writes its scroll offset (`scrollTo` of the initial offset, 0) in a layout effect: either lays out then and there
 * the DOM the commit has just written, inside the commit's task (12–35 ms at 1,600 languages). Here the box's size
 * comes from the ResizeObserver's first observation, which runs after the frame's own layout (until then the rows are
 * those of `height` px, `initialRect`), and the mount's write of offset 0 into a box that is at 0 is left out.
 * docs/interpretations.md, "Charts and tables measure after layout".
 */
import { elementScroll, type Rect, type Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual'

type AfterLayout<S extends Element, I extends Element> = Pick<VirtualizerOptions<S, I>, 'initialRect' | 'observeElementRect' | 'scrollToFn'>

/** Spread into `useVirtualizer({...})`: the box is taken to be `height` px tall until its first observation. */
export function virtualAfterLayout<S extends Element, I extends Element>(height: number): AfterLayout<S, I> {
  return {
    initialRect: { width: 0, height },
    observeElementRect: (instance: Virtualizer<S, I>, cb: (rect: Rect) => void) => {
      const element = instance.scrollElement
      if (!element) return
      const observer = new ResizeObserver(() => {
        // inside a ResizeObserver callback the layout is clean: this read costs nothing
        const box = element.getBoundingClientRect()
        cb({ width: Math.round(box.width), height: Math.round(box.height) })
      })
      observer.observe(element, { box: 'content-box' })
      return () => observer.disconnect()
    },
    scrollToFn: (offset, options, instance) => {
      // the mount's first write: offset 0 into a box just made, which is at 0 (reading it would lay out too)
      const first = !wroteOnce.has(instance)
      wroteOnce.add(instance)
      if (first && offset === 0) return
      elementScroll(offset, options, instance)
    },
  }
}

const wroteOnce = new WeakSet<object>()
