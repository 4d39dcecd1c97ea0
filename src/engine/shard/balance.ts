/**
 * Shard ranges (docs/conventions.md "Sharded jobs"): the units of work (row groups of the readable files, in dataset
 * order, or a dataprep's input rows in reading order) cut into N contiguous ranges whose compressed bytes are as
 * equal as the unit boundaries allow. Every shard computes the same cut from the same footers, so no shard needs
 * to hear from another.
 */
import type { FileMetaData } from 'hyparquet'
import type { OpenDataset } from '../dataset/open.ts'

/** One row group of one readable file: the unit of a sharded `audit` or `index`. */
export interface RowGroupUnit {
  /** Index of the file in `dataset.files`. */
  file: number
  /** Row group within the file. */
  rowGroup: number
  /** Compressed bytes of the row group (Σ its column chunks' `total_compressed_size`). */
  bytes: number
}

/** A half-open range `[first, end)` of unit indices. */
export interface UnitRange {
  first: number
  end: number
}

/** Compressed bytes of row group `g` of a footer (its column chunks; the row group's own total when it has no columns). */
export function rowGroupBytes(metadata: FileMetaData, g: number): number {
  const rg = metadata.row_groups[g]
  let n = 0
  for (const c of rg.columns) n += Number(c.meta_data?.total_compressed_size ?? 0n)
  return rg.columns.length > 0 ? n : Number(rg.total_compressed_size ?? rg.total_byte_size)
}

/** Every row group of every readable file of `dataset`, in dataset order (file order, then row group). */
export function rowGroupUnits(dataset: OpenDataset): RowGroupUnit[] {
  const units: RowGroupUnit[] = []
  dataset.files.forEach((file, index) => {
    if (!file.readable || file.rowGroups.length === 0) return
    // the row groups' sizes as discovery kept them; the footer (parsed again from the bounded store: slow on
    // 100,000 files) only where they were not kept
    if (file.rowGroups.every((g) => g.compressedBytes !== undefined)) {
      for (const g of file.rowGroups) units.push({ file: index, rowGroup: g.index, bytes: g.compressedBytes! })
      return
    }
    const metadata = dataset.parquet.footer(file.path)
    for (const g of file.rowGroups) units.push({ file: index, rowGroup: g.index, bytes: rowGroupBytes(metadata, g.index) })
  })
  return units
}

/**
 * Cuts `weights` (one per unit, in order) into `count` contiguous ranges: boundary k is the unit boundary whose
 * prefix sum is nearest to k/count of the total (ties: the earlier boundary), never before boundary k−1. Ranges may
 * be empty (more shards than units, or one unit heavier than a share). Deterministic: the same weights and count
 * give the same cut everywhere.
 * @returns `count` ranges that tile `[0, weights.length)`
 */
export function balancedRanges(weights: readonly number[], count: number): UnitRange[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`shard: the number of shards must be a positive integer, got ${count}`)
  const prefix = new Float64Array(weights.length + 1)
  for (let i = 0; i < weights.length; i++) prefix[i + 1] = prefix[i] + Math.max(0, weights[i])
  const total = prefix[weights.length]
  const cuts = [0]
  let j = 0
  for (let k = 1; k < count; k++) {
    const target = (total * k) / count
    // advance while the next boundary is at least as near the target (strictly nearer: ties keep the earlier)
    while (j < weights.length && Math.abs(prefix[j + 1] - target) < Math.abs(prefix[j] - target)) j++
    // all-zero weights (or a total of 0): split by count instead
    if (total === 0) j = Math.max(j, Math.round((weights.length * k) / count))
    cuts.push(j)
  }
  cuts.push(weights.length)
  return Array.from({ length: count }, (_, k) => ({ first: cuts[k], end: cuts[k + 1] }))
}

/** The range of shard `index` of `count` over `weights`. */
export function shardRange(weights: readonly number[], index: number, count: number): UnitRange {
  return balancedRanges(weights, count)[index]
}
