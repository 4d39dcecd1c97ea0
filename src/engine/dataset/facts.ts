/**
 * The `audio_size` facts of a file (`FileFacts`): per row group its rows, Σ, min, max and nulls of `audio_size` (and
 * the rows per partition when split/language/corpus are columns, not folder keys). Stats are computed from facts
 * only, whether they were read from the data here or taken from the dataset index, so both give the same numbers.
 */
import type { FileMetaData } from 'hyparquet'
import type { ColumnInfo, DatasetFile, FileFacts, RowGroupFacts } from './dataset.ts'
import { partitionIdOf, requiredKeys } from './hive.ts'
import { toNumber, toText, type ParquetReader } from '../parquet/reader.ts'
import type { ReadOptions } from '../source/source.ts'

/** Required keys of `file` that are columns, not folder keys (their values are read per row). */
export function columnKeysOf(file: DatasetFile): string[] {
  return requiredKeys.filter((k) => !(k in file.keys) && file.columns.some((c) => c.name === k))
}

/** Column lists seen, and whether they have `audio_size` (the files of a dataset mostly share one interned list). */
const audioSizeIn = new WeakMap<readonly ColumnInfo[], boolean>()

/** Whether `file` has an `audio_size` column. */
export function hasAudioSize(file: DatasetFile): boolean {
  let has = audioSizeIn.get(file.columns)
  if (has === undefined) audioSizeIn.set(file.columns, has = file.columns.some((c) => c.name === 'audio_size'))
  return has
}

/** Options of `readFileFacts`. */
export interface FactsOptions extends ReadOptions {
  /** Columns to bring into the chunk cache with each row group's read (validation's, which run next). */
  alsoRead?: (file: DatasetFile, rowGroup: number, footer: FileMetaData) => string[]
}

/**
 * Reads the facts of one readable file: `audio_size` (and key columns) of every row group, requested together (one
 * round trip per file, not one per row group). A row group that does not decode gets its `error` and the others are
 * still read; an abort rejects.
 */
export async function readFileFacts(parquet: ParquetReader, file: DatasetFile, options: FactsOptions = {}): Promise<FileFacts> {
  const { signal } = options
  const columnKeys = columnKeysOf(file)
  const columns = [...(hasAudioSize(file) ? ['audio_size'] : []), ...columnKeys]
  if (columns.length === 0 && !options.alsoRead) {
    return { groups: file.rowGroups.map((g) => ({ rows: g.rows, sum: 0, min: null, max: null, nulls: 0, error: null })) }
  }
  try {
    const footer = options.alsoRead ? await parquet.loadFooter(file, { signal }) : null
    const also = (rowGroup: number) => (footer && options.alsoRead ? options.alsoRead(file, rowGroup, footer) : [])
    await parquet.prefetch(file, file.rowGroups.map((g) => ({ rowGroup: g.index, columns: [...columns, ...also(g.index)] })), { signal, lone: true })
  } catch (error) {
    if (signal?.aborted) throw error // otherwise each row group below is read (and fails) on its own, as its error
  }
  if (columns.length === 0) {
    return { groups: file.rowGroups.map((g) => ({ rows: g.rows, sum: 0, min: null, max: null, nulls: 0, error: null })) }
  }
  const sizeOnly = columnKeys.length === 0
  const groups = await Promise.all(file.rowGroups.map(async (group): Promise<RowGroupFacts> => {
    try {
      if (sizeOnly) return groupFacts(file, group.rows, await parquet.readIntColumn(file, group.index, 'audio_size', { signal }), columnKeys, {})
      const data = await parquet.readColumns(file, group.index, columns, { signal })
      return groupFacts(file, group.rows, data.audio_size, columnKeys, data)
    } catch (error) {
      if (signal?.aborted) throw error
      return { rows: group.rows, sum: 0, min: null, max: null, nulls: 0, error: (error as Error).message }
    }
  }))
  return { groups }
}

/** The facts of one row group from its decoded columns. */
function groupFacts(file: DatasetFile, rows: number, sizes: ArrayLike<unknown> | undefined,
  columnKeys: string[], data: Record<string, ArrayLike<unknown>>): RowGroupFacts {
  let sum = 0
  let min: number | null = null
  let max: number | null = null
  let nulls = 0
  const byKey = columnKeys.length > 0 ? new Map<string, { keys: Record<string, string>; rows: number; samples: number }>() : null
  for (let i = 0; i < rows; i++) {
    const n = sizes ? toNumber(sizes[i]) : null
    if (sizes && n === null) nulls++
    const finite = n !== null && Number.isFinite(n)
    if (finite) {
      sum += n
      if (min === null || n < min) min = n
      if (max === null || n > max) max = n
    }
    if (byKey) {
      const keys = { ...file.keys }
      for (const k of columnKeys) {
        const v = toText(data[k]?.[i])
        if (v !== null) keys[k] = v
      }
      const id = partitionIdOf(keys)
      let slot = byKey.get(id)
      if (!slot) byKey.set(id, slot = { keys, rows: 0, samples: 0 })
      slot.rows++
      if (finite) slot.samples += n
    }
  }
  const facts: RowGroupFacts = { rows, sum, min, max, nulls, error: null }
  if (byKey) facts.byKeys = [...byKey.values()]
  return facts
}
