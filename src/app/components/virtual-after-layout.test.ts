import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Virtualizer } from '@tanstack/react-virtual'
import { virtualAfterLayout } from './virtual-after-layout.ts'

/** A ResizeObserver stand-in whose observations the test delivers. */
class FakeResizeObserver {
  static all: FakeResizeObserver[] = []
  observed: Element[] = []
  disconnected = false
  constructor(readonly callback: () => void) { FakeResizeObserver.all.push(this) }
  observe(el: Element) { this.observed.push(el) }
  disconnect() { this.disconnected = true }
}

function fakeBox() {
  const scrolls: unknown[] = []
  const element = {
    getBoundingClientRect: vi.fn(() => ({ width: 300.4, height: 419.6 })),
    scrollTo: (o: unknown) => scrolls.push(o),
  }
  return { element, scrolls }
}

afterEach(() => { vi.unstubAllGlobals(); FakeResizeObserver.all = [] })

describe('virtualAfterLayout', () => {
  it('reads the box only in the ResizeObserver callback, never when the virtualizer mounts', () => {
    vi.stubGlobal('ResizeObserver', FakeResizeObserver)
    const { element } = fakeBox()
    const options = virtualAfterLayout<HTMLDivElement, Element>(480)
    expect(options.initialRect).toEqual({ width: 0, height: 480 })
    const rects: unknown[] = []
    const instance = { scrollElement: element } as unknown as Virtualizer<HTMLDivElement, Element>
    const stop = options.observeElementRect!(instance, (r) => rects.push(r))
    expect(element.getBoundingClientRect).not.toHaveBeenCalled()
    expect(rects).toEqual([])
    FakeResizeObserver.all[0].callback()
    expect(rects).toEqual([{ width: 300, height: 420 }])
    ;(stop as () => void)()
    expect(FakeResizeObserver.all[0].disconnected).toBe(true)
  })

  it('leaves out only the mount\'s first write of offset 0; every later write scrolls', () => {
    const { element, scrolls } = fakeBox()
    const options = virtualAfterLayout<HTMLDivElement, Element>(480)
    const instance = { scrollElement: element, options: { horizontal: false } } as unknown as Virtualizer<HTMLDivElement, Element>
    options.scrollToFn!(0, {}, instance)
    expect(scrolls).toEqual([])
    options.scrollToFn!(0, {}, instance)
    options.scrollToFn!(240, { behavior: 'smooth' }, instance)
    expect(scrolls).toEqual([{ top: 0, behavior: undefined }, { top: 240, behavior: 'smooth' }])
    // another virtualizer's first write of a non-zero offset (a restored scroll position) is made
    const other = fakeBox()
    options.scrollToFn!(96, {}, { scrollElement: other.element, options: { horizontal: false } } as unknown as Virtualizer<HTMLDivElement, Element>)
    expect(other.scrolls).toEqual([{ top: 96, behavior: undefined }])
  })
})
