/**
 * Runs `callback` in the page's next idle period: requestIdleCallback where there is one, at most `timeoutMs` late
 * (so a busy page still gets there), else a timeout. Returns a function that cancels it.
 */
export function whenIdle(callback: () => void, timeoutMs = 250): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(callback, { timeout: timeoutMs })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(callback, 16)
  return () => clearTimeout(id)
}

/**
 * Runs `callback` in a task of its own right after the next frame has painted (a hidden page, which paints no
 * frames, runs it at once in a task). Returns a function that cancels it. For work a view starts when it mounts:
 * started in the mount's own task, its first results (and the worker's CPU, on 2 cores) competed with the view's
 * first frame.
 */
export function afterPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  if (typeof requestAnimationFrame !== 'function' || (typeof document !== 'undefined' && document.visibilityState === 'hidden')) {
    timer = setTimeout(callback, 0)
    return () => clearTimeout(timer)
  }
  const frame = requestAnimationFrame(() => { timer = setTimeout(callback, 0) })
  return () => { cancelAnimationFrame(frame); clearTimeout(timer) }
}
