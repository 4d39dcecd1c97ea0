/** Overview aggregations beyond the language one: hours and rows per corpus or split. */
import { compareUtf8 } from '../../../engine/findings.ts'
import type { PartitionStats } from '../../../engine/stats/types.ts'

/** Hours and rows of one group (a corpus, a split, a language). */
export interface GroupHours {
  key: string
  hours: number
  rows: number
}

/** Hours and rows per value of `field` (`(none)` for a missing key), most hours first, ties by key. */
export function hoursBy(partitions: readonly PartitionStats[], field: 'corpus' | 'split' | 'language'): GroupHours[] {
  const by = new Map<string, GroupHours>()
  for (const p of partitions) {
    const key = p[field] ?? '(none)'
    const g = by.get(key) ?? { key, hours: 0, rows: 0 }
    g.hours += p.hours
    g.rows += p.rows
    by.set(key, g)
  }
  return [...by.values()].sort((a, b) => b.hours - a.hours || compareUtf8(a.key, b.key))
}
