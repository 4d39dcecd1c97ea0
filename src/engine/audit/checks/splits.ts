/**
 * Splits check: mixture partitions (corpus, language) without a dev or test split, and split values the reference
 * can never select because its split string is cut at the first `_` (docs/reference-pipeline.md §3, §19.4).
 */
import { compareUtf8, finding } from '../../core/findings.ts'
import { rowHours } from '../rows/rows.ts'
import { fileAt, groupRowsOf, groupTable, rowTableOf, samplesAt, type RowTable } from '../rows/row-table.ts'
import { splitCellsOf, type RowsTotal, type SplitCell } from '../rows/split-cells.ts'
import type { AuditRow, CheckResult, TableRow } from '../rows/types.ts'

/** Held-out splits every mixture partition is expected to have (the recipes validate on `dev`). */
export const expectedHeldOutSplits = ['dev', 'test'] as const

/**
 * @param rows every row of the dataset
 * @returns `missing-split` (warning) per partition and missing split, `unselectable-split` (warning) per split value
 *   with `_`; table `splits`: rows and hours per partition and split
 */
export function checkSplits(rows: readonly AuditRow[]): CheckResult {
  return checkSplitsTable(rowTableOf(rows))
}

/**
 * `checkSplits` over a row table: the cells' and each split's sums are added in row order (docs/interpretations.md
 * "Sharded jobs": non-integer sizes give the same hours in the merge and in the unsharded audit).
 */
export function checkSplitsTable(t: RowTable): CheckResult {
  const bySplit = groupTable(t, (f) => f.split)
  const splits = new Map(bySplit.keys.map((split, g) => {
    const list = groupRowsOf(bySplit, g)
    return [split, { rows: list.length, samples: samplesAt(t, list), path: fileAt(t, list[0]).path }]
  }))
  return splitsResult(splitCellsOf(t), splits)
}

/**
 * `checkSplits` over the rows counted per (corpus, language, split), in first-appearance order; each split's sums
 * are the sums of its cells' (the same as in row order when every `audio_size` is an integer).
 */
export function checkSplitsCells(cells: readonly SplitCell[]): CheckResult {
  const splits = new Map<string, RowsTotal & { first: number }>()
  for (const cell of cells) {
    const s = splits.get(cell.split)
    if (!s) splits.set(cell.split, { rows: cell.rows, samples: cell.samples, first: cell.first, path: cell.path })
    else {
      s.rows += cell.rows
      s.samples += cell.samples
      if (cell.first < s.first) { s.first = cell.first; s.path = cell.path }
    }
  }
  return splitsResult(cells, splits)
}

function splitsResult(all: readonly SplitCell[], bySplit: ReadonlyMap<string, RowsTotal>): CheckResult {
  const items: CheckResult['items'] = []
  const partitions = new Map<string, { corpus: string; language: string; first: number; path: string; splits: Map<string, SplitCell> }>()
  const languagesWith = new Map<string, Set<string>>()
  for (const cell of all) {
    const { corpus, language, split } = cell
    if (!corpus || !language) continue
    const id = `${corpus}\u0000${language}`
    let p = partitions.get(id)
    if (!p) partitions.set(id, p = { corpus, language, first: cell.first, path: cell.path, splits: new Map() })
    if (cell.first < p.first) { p.first = cell.first; p.path = cell.path }
    p.splits.set(split, cell)
    let set = languagesWith.get(split)
    if (!set) languagesWith.set(split, set = new Set())
    set.add(language)
  }
  const table: TableRow[] = []
  for (const p of [...partitions.values()].sort((a, b) => compareUtf8(a.corpus, b.corpus) || compareUtf8(a.language, b.language))) {
    const { corpus, language, path } = p
    const splits = [...p.splits.keys()].sort(compareUtf8)
    for (const split of splits) {
      const cell = p.splits.get(split)!
      table.push({ corpus, language, split, rows: cell.rows, hours: rowHours(cell.samples) })
    }
    for (const wanted of expectedHeldOutSplits) {
      if (p.splits.has(wanted)) continue
      const elsewhere = languagesWith.get(wanted)?.has(language)
      items.push({
        finding: finding('warning', 'missing-split', path,
          `(corpus ${corpus}, language ${language}) has no ${wanted} split (it has ${splits.join(', ')}); ` +
          (elsewhere ? `${language} has ${wanted} data in another corpus only` : `${language} has no ${wanted} data in any corpus, so it cannot be ${wanted === 'dev' ? 'validated' : 'tested'}`)),
        rows: 0, samples: 0, corpus, language,
      })
    }
  }
  for (const split of [...bySplit.keys()].sort(compareUtf8)) {
    if (!split.includes('_')) continue
    const s = bySplit.get(split)!
    const [head, ...rest] = split.split('_')
    items.push({
      finding: finding('warning', 'unselectable-split', s.path,
        `split value "${split}" contains "_": the reference reads the split string "${split}" as split "${head}", corpus "${rest.join('_')}", so these ${s.rows} rows can never be selected`),
      rows: s.rows, samples: s.samples, corpus: null, language: null,
    })
  }
  return { items, tables: { splits: table } }
}
