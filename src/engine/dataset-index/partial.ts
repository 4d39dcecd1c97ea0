/**
 * The sharded dataset index (`index --shard i/N --out FILE`, docs/conventions.md "Sharded jobs"): shard i builds the
 * index rows of its contiguous range of `indexUnits` (row groups balanced by compressed bytes; files without a row
 * group weigh nothing), reading only its files' `audio_size` facts; `mergeIndexParts` concatenates the parts' rows in
 * shard order and writes them with the same writer as `mixscope index`, so the merged `_mixscope_index.parquet` is
 * the unsharded one byte for byte. Every shard lists the dataset and reads every footer (the cut is made from them).
 */
import type { OpenDataset } from '../dataset/open.ts'
import { contentHash } from '../core/content-hash.ts'
import { MixscopeError, sortFindings, type Finding } from '../core/findings.ts'
import { shardRange } from '../shard/balance.ts'
import { checkPartSet, type NamedPart, type PartHeader } from '../shard/part.ts'
import type { ShardSpec } from '../shard/select.ts'
import type { RunOptions } from '../dataset/dataset.ts'
import { buildIndexRows, indexUnits } from './build.ts'
import type { IndexRow } from '../dataset/index-format.ts'
import { writeDatasetIndex } from './write.ts'

/** One shard's index part: its rows, in dataset order. */
export interface IndexPart extends PartHeader {
  kind: 'index'
  rows: IndexRow[]
  /** Only in shard 0: what `mixscope index` reports (unreadable files…) and counts for its `--json`. */
  global: { findings: Finding[]; files: number } | null
}

const utf8 = new TextEncoder()

/** What an index is built from: every listed file's path, size and mtime (the index records them). */
export function indexDatasetFingerprint(dataset: OpenDataset): string {
  return contentHash(utf8.encode(JSON.stringify([
    dataset.files.map((f) => [f.path, f.size, f.mtimeMs ?? null, f.readable ? f.rowGroups.length : -1]),
    dataset.otherFiles.map((f) => [f.path, f.size, f.mtimeMs ?? null]),
  ])))
}

/** What `mixscope index` reports as its findings: what the index records as problems, not that an old one was stale. */
export function indexFindings(dataset: OpenDataset): Finding[] {
  return sortFindings(dataset.findings.filter((f) => f.severity !== 'info' && f.kind !== 'stale-index'))
}

/**
 * Builds shard `shard` of the index of `dataset` (opened without facts: the shard reads those of its files only).
 * @returns the part (`index --shard i/N --out FILE` writes it with `stringifyPart`)
 */
export async function indexShard(dataset: OpenDataset, shard: Pick<ShardSpec, 'index' | 'count'>, options: RunOptions = {}): Promise<IndexPart> {
  const started = performance.now()
  const units = indexUnits(dataset)
  const range = shardRange(units.map((u) => u.compressedBytes), shard.index, shard.count)
  const rows = await buildIndexRows(dataset, { ...options, units: units.slice(range.first, range.end) })
  return {
    format: 'mixscope-part', version: 1, kind: 'index',
    shard: { index: shard.index, count: shard.count },
    dataset: { root: dataset.root, fingerprint: indexDatasetFingerprint(dataset), files: dataset.files.length + dataset.otherFiles.length, units: units.length },
    // the index has no settings: its rows are a function of the files
    config: { fingerprint: 'index-1', description: 'dataset index version 1' },
    range,
    timing: { seconds: (performance.now() - started) / 1000 },
    rows,
    global: shard.index === 0 ? { findings: indexFindings(dataset), files: dataset.files.length + dataset.otherFiles.length } : null,
  }
}

/** What `mergeIndexParts` returns. */
export interface MergedIndex {
  /** The `_mixscope_index.parquet` bytes. */
  bytes: Uint8Array
  rows: IndexRow[]
  root: string
  files: number
  findings: Finding[]
  /** Seconds each shard ran, in shard order. */
  shardSeconds: number[]
}

/**
 * Merges index parts (any order) into the whole dataset's index file.
 * @throws MixscopeError (`bad-parts`, exit class usage) when the parts are not exactly shards 0…N−1 of one index, or a part's rows do not fill its range
 */
export function mergeIndexParts(parts: readonly NamedPart<IndexPart>[]): MergedIndex {
  const ordered = checkPartSet(parts)
  const first = ordered[0].header
  if (!first.global) throw new MixscopeError(`merge: ${ordered[0].name} is shard 0 but lacks the dataset-wide part ("global")`, 'bad-parts', 'usage')
  const rows: IndexRow[] = []
  for (const p of ordered) {
    const { range } = p.header
    if (!Array.isArray(p.header.rows) || p.header.rows.length !== range.end - range.first) {
      throw new MixscopeError(`merge: ${p.name} holds ${Array.isArray(p.header.rows) ? p.header.rows.length : 'no'} index rows for its ${range.end - range.first} units`, 'bad-parts', 'usage')
    }
    for (const row of p.header.rows) rows.push(row)
  }
  return {
    bytes: writeDatasetIndex(rows), rows, root: first.dataset.root, files: first.global.files, findings: first.global.findings,
    shardSeconds: ordered.map((p) => p.header.timing.seconds),
  }
}
