/**
 * Field-by-field equality of `stats` numbers (no serialization): what lets the worker leave out partitions the page
 * has already, and an open check the index's summary against its rows.
 */
import type { StatsReport } from './stats-types.ts'

/** True when two lists of partitions hold the same keys and numbers, in the same order (field by field). */
export function samePartitions(a: StatsReport['partitions'], b: StatsReport['partitions']): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const p = a[i]
    const q = b[i]
    const keys = Object.keys(p)
    if (keys.length !== Object.keys(q).length) return false
    for (const k of keys) if (!Object.is(p[k], q[k])) return false
  }
  return true
}

/** True when two totals hold the same numbers. */
export function sameTotals(a: StatsReport['totals'], b: StatsReport['totals']): boolean {
  return (['files', 'row_groups', 'rows', 'samples', 'hours'] as const).every((k) => Object.is(a[k], b[k]))
}
