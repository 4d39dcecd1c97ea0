/**
 * `SplitCell`: the rows of one (corpus, language, split), counted: all the splits and mixture checks read of the rows.
 * Made from a row table (the merge of shard parts) or from per-file counts (the audit's metadata pass, which keeps
 * no row of the whole dataset), with the same cells in the same order.
 */
import type { RowTable, TableFile } from './row-table.ts'

/** One (corpus, language, split) of the rows (keys `''` when absent). */
export interface SplitCell {
  corpus: string
  language: string
  split: string
  rows: number
  /** Σ audio_size of the rows (nulls 0). */
  samples: number
  /** Position of the cell's first row in dataset order (comparable between cells), and its file's path. */
  first: number
  path: string
}

/** Accumulates cells in first-appearance order. */
export class SplitCells {
  private readonly byKey = new Map<string, SplitCell>()

  /** Adds `rows` rows (Σ audio_size `samples`) of `file`, the first of them at position `first`. */
  add(file: TableFile, rows: number, samples: number, first: number): void {
    if (rows === 0) return
    const key = `${file.corpus}\u0000${file.language}\u0000${file.split}`
    const cell = this.byKey.get(key)
    if (!cell) {
      this.byKey.set(key, { corpus: file.corpus, language: file.language, split: file.split, rows, samples, first, path: file.path })
      return
    }
    cell.rows += rows
    cell.samples += samples
    if (first < cell.first) {
      cell.first = first
      cell.path = file.path
    }
  }

  /** The cells, in the order their first rows come (first appearance). */
  cells(): SplitCell[] {
    return [...this.byKey.values()].sort((a, b) => a.first - b.first)
  }
}

/** The cells of every row of `t`. */
export function splitCellsOf(t: RowTable): SplitCell[] {
  // per file of `t`: its rows' count, Σ audio_size and first row, added as one
  const rows = new Float64Array(t.files.length)
  const samples = new Float64Array(t.files.length)
  const first = new Float64Array(t.files.length).fill(Infinity)
  for (let i = 0; i < t.length; i++) {
    const f = t.fileOf[i]
    const n = t.audioSize[i]
    rows[f]++
    samples[f] += Number.isNaN(n) ? 0 : n
    if (i < first[f]) first[f] = i
  }
  const acc = new SplitCells()
  t.files.forEach((file, f) => acc.add(file, rows[f], samples[f], first[f]))
  return acc.cells()
}
