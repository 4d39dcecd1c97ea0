/**
 * `SplitCell`: the rows of one (corpus, language, split), counted: all the splits and mixture checks read of the rows.
 * Made from a row table (each cell's `audio_size` added in row order, docs/interpretations.md "Sharded jobs") or
 * from per-file counts (the audit's metadata pass, which keeps no row of the whole dataset: it does so only when
 * every `audio_size` is an integer, whose sums are exact in any order), with the same cells in the same order.
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

/** Rows, Σ audio_size and the first row's path of a set of rows. */
export interface RowsTotal {
  rows: number
  samples: number
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

/** The cells of every row of `t`, each cell's `audio_size` added in row order. */
export function splitCellsOf(t: RowTable): SplitCell[] {
  const byKey = new Map<string, SplitCell>()
  const cells: SplitCell[] = []
  // per file of `t`: its cell (files are few next to rows)
  const cellOf: (SplitCell | undefined)[] = new Array(t.files.length)
  for (let i = 0; i < t.length; i++) {
    const f = t.fileOf[i]
    let cell = cellOf[f]
    if (!cell) {
      const file = t.files[f]
      const key = `${file.corpus}\u0000${file.language}\u0000${file.split}`
      cell = byKey.get(key)
      if (!cell) {
        byKey.set(key, cell = { corpus: file.corpus, language: file.language, split: file.split, rows: 0, samples: 0, first: i, path: file.path })
        cells.push(cell)
      }
      cellOf[f] = cell
    }
    const n = t.audioSize[i]
    cell.rows++
    cell.samples += Number.isNaN(n) ? 0 : n
  }
  return cells
}
