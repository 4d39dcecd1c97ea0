/** Filtering and sorting the partition table (pure, so 10,000 folders stay fast and testable). */
import { compareUtf8 } from '../../../engine/findings.ts'
import type { PartitionStats } from '../../../engine/stats/types.ts'

export type PartitionSortKey = 'corpus' | 'language' | 'split' | 'files' | 'row_groups' | 'rows' | 'hours'

/**
 * Folders matching every token of `query` (split on spaces and `/`): `key=value` tokens must equal that hive key's
 * value (so a folder path such as `corpus=mls/split=train/language=eng_Latn` selects exactly that folder); other
 * tokens must be a substring (case-insensitive) of some key value.
 */
export function filterPartitions(partitions: readonly PartitionStats[], query: string): PartitionStats[] {
  const tokens = query.split(/[\s/]+/).filter((t) => t !== '')
  if (tokens.length === 0) return [...partitions]
  return partitions.filter((p) => tokens.every((token) => {
    const eq = token.indexOf('=')
    if (eq > 0) {
      const value = p[token.slice(0, eq)]
      return value !== undefined && value !== null && String(value) === token.slice(eq + 1)
    }
    const needle = token.toLowerCase()
    return Object.values(p).some((v) => typeof v === 'string' && v.toLowerCase().includes(needle))
  }))
}

/** Sorted copy: text keys by UTF-8 bytes (nulls last), numbers numerically; ties keep the engine's order. */
export function sortPartitions(partitions: readonly PartitionStats[], key: PartitionSortKey, descending: boolean): PartitionStats[] {
  const sign = descending ? -1 : 1
  const indexed = partitions.map((p, i) => [p, i] as const)
  indexed.sort(([a, i], [b, j]) => {
    const x = a[key]
    const y = b[key]
    let c: number
    if (typeof x === 'number' && typeof y === 'number') c = x - y
    else if (x === null || x === undefined) c = y === null || y === undefined ? 0 : 1
    else if (y === null || y === undefined) c = -1
    else c = compareUtf8(String(x), String(y))
    return sign * c || i - j
  })
  return indexed.map(([p]) => p)
}
