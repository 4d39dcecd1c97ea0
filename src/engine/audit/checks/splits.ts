/**
 * Splits check: mixture partitions (corpus, language) without a dev or test split, and split values the reference
 * can never select because its split string is cut at the first `_` (docs/reference-pipeline.md §3, §19.4).
 */
import { compareUtf8, finding } from '../../findings.ts'
import { groupRows, rowHours, samplesOf } from '../rows.ts'
import type { AuditRow, CheckResult, TableRow } from '../types.ts'

/** Held-out splits every mixture partition is expected to have (the recipes validate on `dev`). */
export const expectedHeldOutSplits = ['dev', 'test'] as const

/**
 * @param rows every row of the dataset
 * @returns `missing-split` (warning) per partition and missing split, `unselectable-split` (warning) per split value
 *   with `_`; table `splits`: rows and hours per partition and split
 */
export function checkSplits(rows: readonly AuditRow[]): CheckResult {
  const items: CheckResult['items'] = []
  const byPartition = groupRows(rows.filter((r) => r.corpus && r.language), (r) => `${r.corpus}\u0000${r.language}`)
  const table: TableRow[] = []
  const languagesWith = new Map<string, Set<string>>()
  for (const list of byPartition.values()) {
    for (const r of list) {
      let set = languagesWith.get(r.split)
      if (!set) languagesWith.set(r.split, set = new Set())
      set.add(r.language)
    }
  }
  for (const list of [...byPartition.values()].sort((a, b) => compareUtf8(a[0].corpus, b[0].corpus) || compareUtf8(a[0].language, b[0].language))) {
    const { corpus, language, path } = list[0]
    const bySplit = groupRows(list, (r) => r.split)
    for (const split of [...bySplit.keys()].sort(compareUtf8)) {
      const splitRows = bySplit.get(split)!
      table.push({ corpus, language, split, rows: splitRows.length, hours: rowHours(samplesOf(splitRows)) })
    }
    for (const wanted of expectedHeldOutSplits) {
      if (bySplit.has(wanted)) continue
      const elsewhere = languagesWith.get(wanted)?.has(language)
      items.push({
        finding: finding('warning', 'missing-split', path,
          `(corpus ${corpus}, language ${language}) has no ${wanted} split (it has ${[...bySplit.keys()].sort(compareUtf8).join(', ')}); ` +
          (elsewhere ? `${language} has ${wanted} data in another corpus only` : `${language} has no ${wanted} data in any corpus, so it cannot be ${wanted === 'dev' ? 'validated' : 'tested'}`)),
        rows: 0, samples: 0, corpus, language,
      })
    }
  }
  const bySplit = groupRows(rows, (r) => r.split)
  for (const split of [...bySplit.keys()].sort(compareUtf8)) {
    if (!split.includes('_')) continue
    const list = bySplit.get(split)!
    const [head, ...rest] = split.split('_')
    items.push({
      finding: finding('warning', 'unselectable-split', list[0].path,
        `split value "${split}" contains "_": the reference reads the split string "${split}" as split "${head}", corpus "${rest.join('_')}", so these ${list.length} rows can never be selected`),
      rows: list.length, samples: samplesOf(list), corpus: null, language: null,
    })
  }
  return { items, tables: { splits: table } }
}
