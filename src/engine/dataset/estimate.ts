/**
 * The first numbers of a progressive open (`DatasetEstimate`): what the file listing and the stats TSV say before a
 * footer is read. Files and bytes per partition folder are exact; hours are the TSV's per (corpus, language), shared
 * out over that pair's folders (its splits) by their bytes, so hours per language or corpus add up to the TSV's.
 */
import { compareUtf8 } from '../core/findings.ts'
import type { DatasetEstimate, PartitionEstimate, SummaryTsv } from './dataset.ts'
import type { SourceFile } from '../source/source.ts'
import { hiveKeysOf, partitionIdOf, requiredKeys } from './hive.ts'

/**
 * The estimate for the parquet files of a listing (in dataset order) and the TSV, if any.
 * Partition folders come in the order of their first file, as `stats` orders them.
 */
export function estimateDataset(parquet: readonly SourceFile[], summary: SummaryTsv | null): DatasetEstimate {
  const folders = new Map<string, { keys: Record<string, string>; files: number; bytes: number }>()
  const keyNames = new Set<string>()
  let bytes = 0
  for (const file of parquet) {
    const keys = hiveKeysOf(file.path)
    for (const k of Object.keys(keys)) keyNames.add(k)
    const id = partitionIdOf(keys)
    let slot = folders.get(id)
    if (!slot) folders.set(id, slot = { keys, files: 0, bytes: 0 })
    slot.files++
    slot.bytes += file.size
    bytes += file.size
  }
  const tsvHours = new Map<string, number>()
  for (const row of summary?.rows ?? []) {
    if (!Number.isFinite(row.hours)) continue
    const id = JSON.stringify([row.corpus, row.language])
    tsvHours.set(id, (tsvHours.get(id) ?? 0) + row.hours)
  }
  const pairBytes = new Map<string, number>()
  const pairFolders = new Map<string, number>()
  for (const { keys, bytes: b } of folders.values()) {
    const id = JSON.stringify([keys.corpus, keys.language])
    pairBytes.set(id, (pairBytes.get(id) ?? 0) + b)
    pairFolders.set(id, (pairFolders.get(id) ?? 0) + 1)
  }
  const extra = [...keyNames].filter((k) => !(requiredKeys as readonly string[]).includes(k)).sort(compareUtf8)
  const partitions = [...folders.values()].map(({ keys, files, bytes: b }) => {
    const pair = JSON.stringify([keys.corpus, keys.language])
    const hours = tsvHours.get(pair)
    const share = pairBytes.get(pair) || 0
    const p: PartitionEstimate = {
      corpus: keys.corpus ?? null, language: keys.language ?? null, split: keys.split ?? null,
      files: 0, bytes: 0, hours: null,
    }
    for (const k of extra) p[k] = keys[k] ?? null
    Object.assign(p, { files, bytes: b, hours: hours === undefined ? null : share > 0 ? hours * (b / share) : hours / pairFolders.get(pair)! })
    return p
  })
  return { partitions, files: parquet.length, bytes, hoursFrom: summary?.path ?? null }
}
