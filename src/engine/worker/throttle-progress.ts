/** Progress throttling for the worker boundary: the UI needs a few updates a second, not one per footer. */
import type { Progress } from '../dataset/dataset.ts'

/**
 * Wraps a progress callback so it fires at most once per `intervalMs` within a phase; a phase change and a
 * phase's final unit (`done === total`) always go through, so the UI never shows a stale phase.
 * @param send called with the progress to forward
 * @param intervalMs minimum milliseconds between two forwarded updates of the same phase
 * @param now clock in milliseconds (injectable for tests)
 */
export function throttleProgress(
  send: (progress: Progress) => void,
  intervalMs = 50,
  now: () => number = () => performance.now(),
): (progress: Progress) => void {
  let lastPhase: Progress['phase'] | null = null
  let lastTime = -Infinity
  return (progress) => {
    const t = now()
    const final = progress.total !== null && progress.done >= progress.total
    if (progress.phase !== lastPhase || final || t - lastTime >= intervalMs) {
      lastPhase = progress.phase
      lastTime = t
      send({ ...progress })
    }
  }
}
