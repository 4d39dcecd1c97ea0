/**
 * Unknown-token check (when a tokenizer is given): the share of `unk` tokens per language, and rows whose tokens
 * are all unknown, which the all-unknown filter drops (docs/reference-pipeline.md §8 stages 5-6).
 */
import { compareUtf8, finding } from '../../core/findings.ts'
import { exampleId, groupRows, rowItem } from '../rows/rows.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../rows/types.ts'

/** What the check needs of a tokenizer (an `SpmTokenizer` fits). */
export interface AuditTokenizer {
  encode(text: string): number[]
  readonly unkId: number | null
}

/** Share of unknown tokens in a language above which it is a `warning` (else `info`). */
export const unknownRateWarning = 0.01

/**
 * @returns `all-unknown-tokens` (warning) per non-empty row whose tokens are all `unk` (or none); `unknown-tokens`
 *   per language with unknown tokens (warning above `unknownRateWarning`); table `unknown_tokens`
 */
export function checkTokens(rows: readonly AuditRow[], tokenizer: AuditTokenizer): CheckResult {
  const items: AuditItem[] = []
  const table: TableRow[] = []
  const unk = tokenizer.unkId
  const byLanguage = groupRows(rows.filter((r) => r.text), (r) => r.language)
  for (const language of [...byLanguage.keys()].sort(compareUtf8)) {
    const list = byLanguage.get(language)!
    let tokens = 0
    let unknown = 0
    let rowsWithUnknown = 0
    for (const r of list) {
      const ids = tokenizer.encode(r.text!)
      const u = unk === null ? 0 : ids.filter((id) => id === unk).length
      tokens += ids.length
      unknown += u
      if (u > 0) rowsWithUnknown++
      if (ids.length === u) {
        items.push(rowItem(r, 'warning', 'all-unknown-tokens',
          `${exampleId(r)} encodes to ${ids.length} token${ids.length === 1 ? '' : 's'}, all unknown: the all-unknown filter drops it`))
      }
    }
    const rate = tokens === 0 ? 0 : unknown / tokens
    table.push({ language, rows: list.length, tokens, unknown_tokens: unknown, unknown_rate: rate, rows_with_unknown: rowsWithUnknown })
    if (unknown > 0) {
      items.push({ rows: rowsWithUnknown, samples: 0, corpus: null, language, finding: finding(rate > unknownRateWarning ? 'warning' : 'info', 'unknown-tokens', list[0].path,
        `${language}: ${unknown} of ${tokens} tokens (${(100 * rate).toFixed(2)}%) are unknown to the tokenizer, in ${rowsWithUnknown} of ${list.length} rows; expected at most ${100 * unknownRateWarning}%`) })
    }
  }
  return { items, tables: { unknown_tokens: table } }
}
