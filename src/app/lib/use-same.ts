/**
 * `useSame`: the previous value while a new one is equal to it, so memoized children keep their props. A beta step
 * answers twice (the weights, then the full report with the sampler's draws), and the second answer has the same
 * shares and probabilities: the charts drawn from them need not render again (docs/architecture.md "What a config
 * change recomputes").
 */
import { useState } from 'react'

/** Whether two arrays of plain records have the same length and, item by item, the same values under `===`. */
export function sameRecords<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>
    const y = b[i] as Record<string, unknown>
    const keys = Object.keys(x)
    if (keys.length !== Object.keys(y).length) return false
    for (const k of keys) if (x[k] !== y[k]) return false
  }
  return true
}

/**
 * `value`, or the value this hook returned last time when `equal` says the two are the same (kept in state, updated
 * during render: React's pattern for information from previous renders).
 */
export function useSame<T>(value: T, equal: (a: T, b: T) => boolean): T {
  const [kept, setKept] = useState(value)
  if (kept === value || equal(kept, value)) return kept
  setKept(value)
  return value
}
