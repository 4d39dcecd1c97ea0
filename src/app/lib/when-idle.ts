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

