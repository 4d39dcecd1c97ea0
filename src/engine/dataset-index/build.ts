/**
 * Building the dataset index from an opened dataset. The index is a function of (files, row groups): `indexUnits`
 * lists the units in dataset order (every row group of every readable parquet file; one unit for any other file),
 * `indexRowsOf` turns any slice of them into index rows from what the dataset already holds (no I/O), and
 * `buildIndexRows` reads the `audio_size` facts the slice still lacks first. A shard (`index --shard i/N`) builds
 * the rows of its contiguous slice; the parts, concatenated in shard order, are the rows of the whole index.
 */
import type { Dataset, DatasetFile, RunOptions } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { compareUtf8 } from '../core/findings.ts'
import { readFileFacts, columnKeysOf, hasAudioSize } from '../dataset/facts.ts'
import type { SourceFile } from '../source/source.ts'
import { mapLimit } from '../core/map-limit.ts'
import { columnsJson } from '../dataset/index-entries.ts'
import type { IndexRow } from '../dataset/index-format.ts'

/** One unit of the index: a row group of a readable parquet file, or a file without one (`rowGroup: null`). */
export interface IndexUnit {
  path: string
  rowGroup: number | null
  /** Compressed bytes of the row group (0 for a file without one): what shards balance. */
  compressedBytes: number
}

/**
 * The units of a dataset in docs/conventions.md "Discovery" order: the listed files that are not ignored (parquet
 * files and the others: the TSV at the root, stray files), by path; a readable parquet file's row groups in order.
 */
export function indexUnits(dataset: Dataset): IndexUnit[] {
  const units: IndexUnit[] = []
  const add = (file: DatasetFile | SourceFile) => {
    if ('rowGroups' in file && file.readable && file.rowGroups.length > 0) {
      for (const g of file.rowGroups) units.push({ path: file.path, rowGroup: g.index, compressedBytes: g.compressedBytes ?? 0 })
    } else units.push({ path: file.path, rowGroup: null, compressedBytes: 0 })
  }
  let i = 0
  let j = 0
  const files = dataset.files
  const others = dataset.otherFiles
  while (i < files.length || j < others.length) {
    if (j >= others.length || (i < files.length && compareUtf8(files[i].path, others[j].path) < 0)) add(files[i++])
    else add(others[j++])
  }
  return units
}

/** Why `stats` cannot take this file's numbers from the index and must read it, or `null`. */
export function needsReadReason(file: DatasetFile): string | null {
  const columnKeys = columnKeysOf(file)
  if (columnKeys.length > 0) return `${columnKeys.join(', ')} ${columnKeys.length > 1 ? 'are columns' : 'is a column'}, not folder keys: its rows fall into partitions a read tells`
  const size = file.columns.find((c) => c.name === 'audio_size')
  if (size && !/^u?int(8|16|32|64)$/.test(size.type)) return `audio_size is ${size.type}, not an integer column`
  if (file.facts?.groups.some((g) => !Number.isSafeInteger(g.sum))) return 'an audio_size sum is not an exact integer below 2^53'
  return null
}

/**
 * Index rows of `units` (default: all, `indexUnits(dataset)`), from the dataset's files and their facts; pure.
 * A readable parquet file's row groups need its facts (`file.facts`), unless it has no `audio_size` column.
 * @throws Error when a unit names a file or row group the dataset does not have, or facts are missing
 */
export function indexRowsOf(dataset: Dataset, units: readonly IndexUnit[] = indexUnits(dataset)): IndexRow[] {
  const parquet = new Map(dataset.files.map((f) => [f.path, f]))
  const others = new Map(dataset.otherFiles.map((f) => [f.path, f]))
  return units.map((unit) => {
    const file = parquet.get(unit.path)
    if (!file) {
      const other = others.get(unit.path)
      if (!other) throw new Error(`index: unit ${unit.path} is not a file of the dataset`)
      return emptyRow({ path: other.path, size: other.size, mtime_ms: other.mtimeMs ?? null })
    }
    const keys = file.keys
    const base = {
      path: file.path, size: file.size, mtime_ms: file.mtimeMs ?? null, partition: file.partition,
      corpus: keys.corpus ?? null, split: keys.split ?? null, language: keys.language ?? null,
    }
    if (!file.readable) return emptyRow({ ...base, error: file.error ?? 'unreadable' })
    const columns = columnsJson(file.columns)
    if (unit.rowGroup === null) return emptyRow({ ...base, rows: 0, columns })
    const group = file.rowGroups[unit.rowGroup]
    if (!group) throw new Error(`index: ${file.path} has no row group ${unit.rowGroup}`)
    const sized = hasAudioSize(file)
    const facts = file.facts?.groups[unit.rowGroup]
    if (!facts && sized) throw new Error(`index: ${file.path} row group ${unit.rowGroup} has no facts (read them with readFileFacts)`)
    const needsRead = needsReadReason(file)
    const exact = facts && Number.isSafeInteger(facts.sum) && (facts.min === null || Number.isSafeInteger(facts.min)) && (facts.max === null || Number.isSafeInteger(facts.max))
    const numbers = sized && facts && facts.error === null && exact
    return {
      ...emptyRow(base),
      row_group: unit.rowGroup,
      rows: group.rows,
      audio_size_sum: numbers ? facts.sum : null,
      audio_size_min: numbers ? facts.min : null,
      audio_size_max: numbers ? facts.max : null,
      first_row: group.firstRow,
      compressed_bytes: group.compressedBytes ?? null,
      audio_size_nulls: sized && facts && facts.error === null ? facts.nulls : null,
      read_error: facts?.error ?? null,
      needs_read: needsRead,
      columns,
    }
  })
}

function emptyRow(fields: Partial<IndexRow> & Pick<IndexRow, 'path' | 'size' | 'mtime_ms'>): IndexRow {
  return {
    row_group: null, rows: null, audio_size_sum: null, audio_size_min: null, audio_size_max: null, error: null,
    first_row: null, compressed_bytes: null, audio_size_nulls: null, read_error: null, needs_read: null,
    partition: null, corpus: null, split: null, language: null, columns: null, ...fields,
  }
}

/** Options of `buildIndexRows`. */
export interface BuildIndexOptions extends RunOptions {
  /** The slice to build (default: every unit). */
  units?: readonly IndexUnit[]
  /** Files read at once (default 8). */
  concurrency?: number
}

/**
 * Index rows of an opened dataset (or of a slice of its units): reads the facts of the files of the slice that do
 * not have them yet (the whole file's, once), then `indexRowsOf`.
 */
export async function buildIndexRows(dataset: OpenDataset, options: BuildIndexOptions = {}): Promise<IndexRow[]> {
  const units = options.units ?? indexUnits(dataset)
  const wanted = new Set(units.filter((u) => u.rowGroup !== null).map((u) => u.path))
  const missing = dataset.files.filter((f) => wanted.has(f.path) && f.readable && !f.facts && hasAudioSize(f))
  let done = 0
  const source = dataset.source
  await mapLimit(missing, options.concurrency ?? 8, async (file) => {
    file.facts = await readFileFacts(dataset.parquet, file, { signal: options.signal })
    options.onProgress?.({ phase: 'stats', done: ++done, total: missing.length, requests: source.counters.requests, bytes: source.counters.bytes })
  })
  return indexRowsOf(dataset, units)
}
