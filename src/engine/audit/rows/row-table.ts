/**
 * `RowTable`: the audit's rows as columns (typed arrays) instead of one object per row, for the dataset-level checks
 * (splits, mixture, length, text, leakage) that the unsharded audit and the merge of shard parts share. A merge of a
 * 10^6–10^7-row dataset holds ~25 bytes per row this way rather than an `AuditRow` object and the groupings built
 * from it. Per-row strings (path, keys) live once per file in `files`.
 */
import { finding } from '../../core/findings.ts'
import type { AuditItem, AuditRow } from './types.ts'

/** What every row of one file shares. */
export interface TableFile {
  path: string
  corpus: string
  language: string
  split: string
}

/** Rows in dataset order (file order, then row order). */
export interface RowTable {
  readonly length: number
  /** The files rows point to (a file may appear more than once, e.g. once per shard part that read it). */
  readonly files: readonly TableFile[]
  /** Per row: index into `files`. */
  readonly fileOf: Int32Array
  /** Per row: 0-based row within its file. */
  readonly row: Float64Array
  /** Per row: row group within its file. */
  readonly rowGroup: Int32Array
  /** Per row: stored `audio_size` (16 kHz samples); `NaN` for null. */
  readonly audioSize: Float64Array
}

/** `audio_size` of row `i`, `null` when it has none. */
export function audioSizeAt(t: RowTable, i: number): number | null {
  const n = t.audioSize[i]
  return Number.isNaN(n) ? null : n
}

/** The file of row `i`. */
export function fileAt(t: RowTable, i: number): TableFile {
  return t.files[t.fileOf[i]]
}

/** The example id `<file>:<row>` of row `i` (docs/conventions.md "example id"). */
export function exampleIdAt(t: RowTable, i: number): string {
  return `${t.files[t.fileOf[i]].path}:${t.row[i]}`
}

/** An item about row `i` (as `rowItem` makes one about an `AuditRow`). */
export function rowItemAt(t: RowTable, i: number, severity: 'error' | 'warning' | 'info', kind: string, message: string): AuditItem {
  const f = t.files[t.fileOf[i]]
  const n = t.audioSize[i]
  return {
    finding: finding(severity, kind, f.path, message, { row: t.row[i], row_group: t.rowGroup[i] }),
    rows: 1, samples: Number.isNaN(n) ? 0 : n, corpus: f.corpus || null, language: f.language || null,
  }
}

/** The `AuditRow` of row `i` (text left out), for the few rows a check needs as objects (the audio check's). */
export function auditRowAt(t: RowTable, i: number, datasetFile: number): AuditRow {
  const f = t.files[t.fileOf[i]]
  return { file: datasetFile, path: f.path, row: t.row[i], rowGroup: t.rowGroup[i], corpus: f.corpus, language: f.language, split: f.split, audioSize: audioSizeAt(t, i), text: null }
}

/** The table of `rows` (each file once). */
export function rowTableOf(rows: readonly AuditRow[]): RowTable {
  const n = rows.length
  const files: TableFile[] = []
  const local = new Map<number, number>()
  const fileOf = new Int32Array(n)
  const row = new Float64Array(n)
  const rowGroup = new Int32Array(n)
  const audioSize = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const r = rows[i]
    let f = local.get(r.file)
    if (f === undefined) {
      local.set(r.file, f = files.length)
      files.push({ path: r.path, corpus: r.corpus, language: r.language, split: r.split })
    }
    fileOf[i] = f
    row[i] = r.row
    rowGroup[i] = r.rowGroup
    audioSize[i] = r.audioSize ?? NaN
  }
  return { length: n, files, fileOf, row, rowGroup, audioSize }
}

/** Rows grouped by a key of their file: groups in first-appearance order, each group's rows in row order. */
export interface RowGroups<K> {
  keys: K[]
  /** Rows of group `g`: `order[start[g] … start[g + 1])`. */
  start: Int32Array
  order: Int32Array
}

/**
 * Groups the rows of `t` by `key(file)` (`null`: the row is left out), as `groupRows` does: first-appearance order
 * of keys, row order inside each group. Stable counting sort: one pass to count, one to place.
 */
export function groupTable<K>(t: RowTable, key: (file: TableFile) => K | null): RowGroups<K> {
  const ids = new Map<K, number>()
  const keys: K[] = []
  // a file's key decides its group; files are few next to rows
  const fileKeys = t.files.map(key)
  const groupOfRow = new Int32Array(t.length)
  const counts: number[] = []
  for (let i = 0; i < t.length; i++) {
    const k = fileKeys[t.fileOf[i]]
    if (k === null) { groupOfRow[i] = -1; continue }
    let g = ids.get(k)
    if (g === undefined) {
      ids.set(k, g = keys.length)
      keys.push(k)
      counts.push(0)
    }
    groupOfRow[i] = g
    counts[g]++
  }
  const start = new Int32Array(keys.length + 1)
  for (let g = 0; g < keys.length; g++) start[g + 1] = start[g] + counts[g]
  const at = start.slice(0, keys.length)
  const order = new Int32Array(start[keys.length])
  for (let i = 0; i < t.length; i++) {
    const g = groupOfRow[i]
    if (g >= 0) order[at[g]++] = i
  }
  return { keys, start, order }
}

/** The rows of group `g`. */
export function groupRowsOf<K>(groups: RowGroups<K>, g: number): Int32Array {
  return groups.order.subarray(groups.start[g], groups.start[g + 1])
}

/** Σ audio_size of `rows` (indices into `t`, nulls count 0), added in the order given. */
export function samplesAt(t: RowTable, rows: ArrayLike<number>): number {
  let n = 0
  for (let i = 0; i < rows.length; i++) {
    const s = t.audioSize[rows[i]]
    n += Number.isNaN(s) ? 0 : s
  }
  return n
}

/** Σ audio_size of every row of `t` (nulls count 0), in row order. */
export function tableSamples(t: RowTable): number {
  let n = 0
  for (let i = 0; i < t.length; i++) {
    const s = t.audioSize[i]
    n += Number.isNaN(s) ? 0 : s
  }
  return n
}
