/**
 * The metadata pass: every row's partition keys, `audio_size` and `text`, read per row group (never audio bytes).
 */
import { finding } from '../../core/findings.ts'
import type { DatasetFile } from '../../dataset/dataset.ts'
import type { OpenDataset } from '../../dataset/open.ts'
import { toNumber, toText } from '../../parquet/reader.ts'
import { hoursOf } from '../../dataset/stats.ts'
import { mapLimit } from '../../core/map-limit.ts'
import type { AuditItem, AuditRow } from './types.ts'

/** What `readAuditRows` returns: rows in file order, then row order; findings for row groups that did not read. */
export interface AuditRows {
  rows: AuditRow[]
  items: AuditItem[]
  /** Row groups read. */
  rowGroups: number
}

/** Options of `readAuditRows`. */
export interface ReadRowsOptions {
  signal?: AbortSignal
  concurrency?: number
  /** Called after each row group with (done, total). */
  onRowGroup?: (done: number, total: number) => void
  /** Reads only the row groups this accepts (a shard's range, src/engine/shard); default: every row group. */
  select?: (file: number, rowGroup: number) => boolean
}

/** Hours of `samples` stored 16 kHz samples (0 for null). */
export function rowHours(samples: number | null): number {
  return samples === null ? 0 : hoursOf(samples)
}

/**
 * Reads `audio_size` and `text` of every readable file's row groups.
 * @returns rows in dataset order (file order, then row order), deterministic whatever the concurrency
 */
export async function readAuditRows(dataset: OpenDataset, options: ReadRowsOptions = {}): Promise<AuditRows> {
  const select = options.select ?? (() => true)
  // only the files with a selected row group (a shard's few of 100,000)
  const readable = dataset.files.map((file, index) => ({ file, index })).filter(({ file, index }) => file.readable && file.rowGroups.some((g) => select(index, g.index)))
  const total = readable.reduce((n, { file, index }) => n + file.rowGroups.filter((g) => select(index, g.index)).length, 0)
  let done = 0
  const perFile = await mapLimit(readable, options.concurrency ?? 8, async ({ file, index }) => {
    const rows: AuditRow[] = []
    const items: AuditItem[] = []
    const columns = ['audio_size', 'text'].filter((c) => file.columns.some((col) => col.name === c))
    for (const group of file.rowGroups) {
      if (!select(index, group.index)) continue
      try {
        const data = columns.length > 0 ? await dataset.parquet.readColumns(file, group.index, columns, { signal: options.signal }) : {}
        for (let i = 0; i < group.rows; i++) {
          rows.push(rowOf(file, index, group.index, group.firstRow + i, data.audio_size?.[i], data.text?.[i]))
        }
      } catch (error) {
        if (options.signal?.aborted) throw error
        items.push({
          finding: finding('error', 'unreadable-row-group', file.path, (error as Error).message, { row_group: group.index }),
          rows: group.rows, samples: 0, corpus: file.keys.corpus ?? null, language: file.keys.language ?? null,
        })
      }
      options.onRowGroup?.(++done, total)
    }
    return { rows, items }
  })
  return { rows: perFile.flatMap((f) => f.rows), items: perFile.flatMap((f) => f.items), rowGroups: total }
}

function rowOf(file: DatasetFile, index: number, rowGroup: number, row: number, size: unknown, text: unknown): AuditRow {
  const n = toNumber(size)
  return {
    file: index, path: file.path, row, rowGroup,
    corpus: file.keys.corpus ?? '', language: file.keys.language ?? '', split: file.keys.split ?? '',
    audioSize: n !== null && Number.isFinite(n) ? n : null,
    text: toText(text),
  }
}

/** The example id `<file>:<row>` (docs/conventions.md "example id"). */
export function exampleId(row: { path: string; row: number }): string {
  return `${row.path}:${row.row}`
}

/** An item about one row. */
export function rowItem(row: Omit<AuditRow, 'text' | 'file'>, severity: 'error' | 'warning' | 'info', kind: string, message: string): AuditItem {
  return {
    finding: finding(severity, kind, row.path, message, { row: row.row, row_group: row.rowGroup }),
    rows: 1, samples: row.audioSize ?? 0, corpus: row.corpus || null, language: row.language || null,
  }
}

/** Groups `rows` by a key, keeping first-appearance order of keys and row order inside each group. */
export function groupRows<K>(rows: readonly AuditRow[], key: (row: AuditRow) => K): Map<K, AuditRow[]> {
  const out = new Map<K, AuditRow[]>()
  for (const row of rows) {
    const k = key(row)
    const list = out.get(k)
    if (list) list.push(row)
    else out.set(k, [row])
  }
  return out
}

/** Σ audio_size of rows (nulls count 0). */
export function samplesOf(rows: readonly AuditRow[]): number {
  let n = 0
  for (const r of rows) n += r.audioSize ?? 0
  return n
}
