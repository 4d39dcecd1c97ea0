/**
 * Ranks check: row groups (fragments, the reference's unit of sharding) per mixture partition of the selected split
 * against `world_size` (docs/reference-pipeline.md §6), and row-group sizes against the ≤ 100 rows the dataprep writes (§17).
 */
import { compareUtf8, finding } from '../../core/findings.ts'
import type { DatasetFile } from '../../dataset/dataset.ts'
import { isTrainStreaming, parseSplit } from '../../pipeline/config/split.ts'
import type { SyncMode } from '../../pipeline/config/types.ts'
import { rankDiagnostics, type MixturePartition } from '../../pipeline/plan-batches.ts'
import { medianSorted } from './text.ts'
import type { AuditItem, CheckResult, TableRow } from '../rows/types.ts'

/** Rows per row group the dataprep writes (`row_group_size=100`). */
export const referenceRowGroupRows = 100
/** Largest/smallest row-group ratio (last group of each file excluded) above which a partition's spread is noted. */
export const rowGroupSpreadRatio = 10

/** Config fields the ranks check reads. */
export interface RanksCheckConfig {
  split: string
  sync_mode: SyncMode
  world_size: number
}

/** Mixture partitions of the selected split, in the reference's order (first appearance in path order). */
export function selectedPartitions(files: readonly DatasetFile[], splitString: string): MixturePartition[] {
  const { split, corpus } = parseSplit(splitString)
  const out = new Map<string, MixturePartition>()
  for (const f of files) {
    if (!f.readable || f.keys.split !== split || (corpus !== null && f.keys.corpus !== corpus)) continue
    if (f.keys.language === undefined || f.keys.corpus === undefined) continue
    const id = `${f.keys.language}\u0000${f.keys.corpus}`
    let p = out.get(id)
    if (!p) out.set(id, p = { corpus: f.keys.corpus, language: f.keys.language, fragments: [] })
    for (const g of f.rowGroups) p.fragments.push({ path: f.path, rowGroup: g.index, rows: g.rows, firstRow: g.firstRow })
  }
  return [...out.values()]
}

/**
 * @returns `few-fragments-for-ranks` (warning when some rank reads nothing in eval, info when train ranks share
 *   row groups), `row-group-over-100` (warning per file), `row-group-size-spread` (info per partition folder);
 *   tables `rank_fragments` and `row_groups`
 */
export function checkRanks(files: readonly DatasetFile[], config: RanksCheckConfig): CheckResult {
  const items: AuditItem[] = []
  const W = Math.max(1, config.world_size)
  const train = isTrainStreaming(config.split, config.sync_mode)
  const partitions = selectedPartitions(files, config.split)
  const rankTable: TableRow[] = []
  const perRank = Array.from({ length: W }, (_, r) => rankDiagnostics(partitions, train, r, W))
  partitions.forEach((p, i) => {
    const counts = perRank.map((d) => d[i].fragmentsThisRank)
    const idle = counts.filter((n) => n === 0).length
    rankTable.push({ corpus: p.corpus, language: p.language, fragments: p.fragments.length, world_size: W,
      min_fragments_per_rank: Math.min(...counts), max_fragments_per_rank: Math.max(...counts), ranks_without_data: idle })
    const first = p.fragments[0]
    const rows = p.fragments.reduce((n, f) => n + f.rows, 0)
    if (!train && idle > 0) {
      items.push({ rows, samples: 0, corpus: p.corpus, language: p.language, finding: finding('warning', 'few-fragments-for-ranks', first.path,
        `(corpus ${p.corpus}, language ${p.language}) has ${p.fragments.length} row group(s) in split "${config.split}" for ${W} ranks: ${idle} rank(s) read none of it`) })
    } else if (train && p.fragments.length < W) {
      items.push({ rows, samples: 0, corpus: p.corpus, language: p.language, finding: finding('info', 'few-fragments-for-ranks', first.path,
        `(corpus ${p.corpus}, language ${p.language}) has ${p.fragments.length} row group(s) for ${W} ranks: ranks read the same row groups at the same time, from different epochs' permutations`) })
    }
  })
  return { items: [...items, ...rowGroupItems(files)], tables: { rank_fragments: rankTable, row_groups: rowGroupTable(files) } }
}

function rowGroupItems(files: readonly DatasetFile[]): AuditItem[] {
  const items: AuditItem[] = []
  for (const f of files) {
    const big = f.rowGroups.filter((g) => g.rows > referenceRowGroupRows)
    if (big.length === 0) continue
    items.push({ rows: big.reduce((n, g) => n + g.rows, 0), samples: 0, corpus: f.keys.corpus ?? null, language: f.keys.language ?? null,
      finding: finding('warning', 'row-group-over-100', f.path,
        `${f.path} has ${big.length} row group(s) over ${referenceRowGroupRows} rows (largest ${Math.max(...big.map((g) => g.rows))}): the reference shuffles and shards whole row groups, so big groups mean coarser mixing and more memory per fragment`) })
  }
  for (const [partition, list] of byPartitionFolder(files)) {
    const sizes = list.flatMap((f) => f.rowGroups.slice(0, -1).map((g) => g.rows)).sort((a, b) => a - b)
    if (sizes.length < 2 || sizes[0] === 0 || sizes[sizes.length - 1] / sizes[0] <= rowGroupSpreadRatio) continue
    items.push({ rows: 0, samples: 0, corpus: list[0].keys.corpus ?? null, language: list[0].keys.language ?? null,
      finding: finding('info', 'row-group-size-spread', list[0].path,
        `partition ${partition} has row groups of ${sizes[0]} to ${sizes[sizes.length - 1]} rows (last group of each file not counted): fragments weigh unequally in the row-group shuffle`) })
  }
  return items
}

function byPartitionFolder(files: readonly DatasetFile[]): [string, DatasetFile[]][] {
  const map = new Map<string, DatasetFile[]>()
  for (const f of files) {
    if (!f.readable) continue
    const list = map.get(f.partition)
    if (list) list.push(f)
    else map.set(f.partition, [f])
  }
  return [...map].sort((a, b) => compareUtf8(a[0], b[0]))
}

function rowGroupTable(files: readonly DatasetFile[]): TableRow[] {
  return byPartitionFolder(files).map(([partition, list]) => {
    const sizes = list.flatMap((f) => f.rowGroups.map((g) => g.rows)).sort((a, b) => a - b)
    return { partition, files: list.length, row_groups: sizes.length, min_rows: sizes[0] ?? 0, median_rows: sizes.length ? medianSorted(sizes) : 0,
      max_rows: sizes[sizes.length - 1] ?? 0, over_100: sizes.filter((n) => n > referenceRowGroupRows).length }
  })
}
