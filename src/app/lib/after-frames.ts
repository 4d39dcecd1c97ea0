/**
 * Waiting for the browser to paint. `afterFrames(n, callback)` runs `callback` once `n` frames have been rendered:
 * each step waits for an animation frame and then for a task after it, which runs once that frame's style, layout
 * and paint are done. A page that changes several blocks at once lays them all out in one frame; changing block `k`
 * after `k` frames gives each block a frame of its own (components/paced.ts).
 */

/** The two browser calls it needs (passed in by tests). */
export interface FrameClock {
  requestAnimationFrame(callback: () => void): number
  cancelAnimationFrame(id: number): void
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(id: unknown): void
}

const browserClock: FrameClock = {
  requestAnimationFrame: (callback) => requestAnimationFrame(callback),
  cancelAnimationFrame: (id) => cancelAnimationFrame(id),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
}

/**
 * Runs `callback` after `frames` rendered frames (`frames` ≤ 0: in a task of its own at once). Returns a function that
 * cancels it; calling it after `callback` ran does nothing.
 */
export function afterFrames(frames: number, callback: () => void, clock: FrameClock = browserClock): () => void {
  let left = Math.max(0, Math.floor(frames))
  let frame: number | null = null
  let timer: unknown = null
  let done = false
  const step = () => {
    timer = null
    if (left === 0) {
      done = true
      callback()
      return
    }
    left -= 1
    frame = clock.requestAnimationFrame(() => {
      frame = null
      timer = clock.setTimeout(step, 0)
    })
  }
  timer = clock.setTimeout(step, 0)
  return () => {
    if (done) return
    done = true
    if (frame !== null) clock.cancelAnimationFrame(frame)
    if (timer !== null) clock.clearTimeout(timer)
  }
}
