/**
 * Splits check: mixture partitions (corpus, language) without a dev or test split, and split values the reference
 * can never select because its split string is cut at the first `_` (docs/reference-pipeline.md §3, §19.4).
 */
import { compareUtf8, finding } from '../../core/findings.ts'
import { rowHours } from '../rows/rows.ts'
import { fileAt, groupRowsOf, groupTable, rowTableOf, samplesAt, type RowTable } from '../rows/row-table.ts'
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

/** `checkSplits` over a row table. */
export function checkSplitsTable(t: RowTable): CheckResult {
  const items: CheckResult['items'] = []
  // partition × split groups, in first-appearance order (a partition's rows in row order are its groups' rows merged)
  const cells = groupTable(t, (f) => (f.corpus && f.language ? `${f.corpus}\u0000${f.language}\u0000${f.split}` : null))
  const partitions = new Map<string, { corpus: string; language: string; first: number; splits: Map<string, number> }>()
  const languagesWith = new Map<string, Set<string>>()
  cells.keys.forEach((_, g) => {
    const rows = groupRowsOf(cells, g)
    const { corpus, language, split } = fileAt(t, rows[0])
    const id = `${corpus}\u0000${language}`
    let p = partitions.get(id)
    if (!p) partitions.set(id, p = { corpus, language, first: rows[0], splits: new Map() })
    if (rows[0] < p.first) p.first = rows[0]
    p.splits.set(split, g)
    let set = languagesWith.get(split)
    if (!set) languagesWith.set(split, set = new Set())
    set.add(language)
  })
  const table: TableRow[] = []
  for (const p of [...partitions.values()].sort((a, b) => compareUtf8(a.corpus, b.corpus) || compareUtf8(a.language, b.language))) {
    const { corpus, language } = p
    const { path } = fileAt(t, p.first)
    const splits = [...p.splits.keys()].sort(compareUtf8)
    for (const split of splits) {
      const splitRows = groupRowsOf(cells, p.splits.get(split)!)
      table.push({ corpus, language, split, rows: splitRows.length, hours: rowHours(samplesAt(t, splitRows)) })
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
  const bySplit = groupTable(t, (f) => f.split)
  const order = bySplit.keys.map((split, g) => ({ split, g })).sort((a, b) => compareUtf8(a.split, b.split))
  for (const { split, g } of order) {
    if (!split.includes('_')) continue
    const list = groupRowsOf(bySplit, g)
    const [head, ...rest] = split.split('_')
    items.push({
      finding: finding('warning', 'unselectable-split', fileAt(t, list[0]).path,
        `split value "${split}" contains "_": the reference reads the split string "${split}" as split "${head}", corpus "${rest.join('_')}", so these ${list.length} rows can never be selected`),
      rows: list.length, samples: samplesAt(t, list), corpus: null, language: null,
    })
  }
  return { items, tables: { splits: table } }
}
