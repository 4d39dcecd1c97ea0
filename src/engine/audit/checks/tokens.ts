/**
 * Unknown-token check (when a tokenizer is given): the share of `unk` tokens per language, and rows whose tokens
 * are all unknown, which the all-unknown filter drops (docs/reference-pipeline.md §8 stages 5-6).
 */
import { compareUtf8, finding } from '../../core/findings.ts'
import { exampleId, rowItem } from '../rows/rows.ts'
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
  const tally = new TokenTally(tokenizer)
  rows.forEach((r, i) => tally.add(r, r.text, i))
  return tally.result()
}

/** One language's counts. */
interface LanguageTally {
  rows: number
  tokens: number
  unknown: number
  rowsWithUnknown: number
  /** Position of the language's first row with text, and its path. */
  first: number
  path: string
}

/** `checkTokens` one row at a time, in any order; `result()` is what `checkTokens` returns for the same rows. */
export class TokenTally {
  private readonly languages = new Map<string, LanguageTally>()
  /** Row findings with their rows' positions (the result lists them in dataset order), unless `sink` takes them. */
  private readonly items: { at: number; item: AuditItem }[] = []

  /** @param sink takes each row finding as it is found (the audit's findings collector), instead of the result */
  constructor(private readonly tokenizer: AuditTokenizer, private readonly sink?: (item: AuditItem) => void) {}

  /**
   * Adds one row.
   * @param at the row's position in dataset order (the language's finding names the path of its first row with text)
   */
  add(row: Omit<AuditRow, 'text' | 'file'>, text: string | null, at: number): void {
    if (!text) return
    let l = this.languages.get(row.language)
    if (!l) this.languages.set(row.language, l = { rows: 0, tokens: 0, unknown: 0, rowsWithUnknown: 0, first: at, path: row.path })
    if (at < l.first) { l.first = at; l.path = row.path }
    const unk = this.tokenizer.unkId
    const ids = this.tokenizer.encode(text)
    const u = unk === null ? 0 : ids.filter((id) => id === unk).length
    l.rows++
    l.tokens += ids.length
    l.unknown += u
    if (u > 0) l.rowsWithUnknown++
    if (ids.length === u) {
      this.keep(at, rowItem(row, 'warning', 'all-unknown-tokens',
        `${exampleId(row)} encodes to ${ids.length} token${ids.length === 1 ? '' : 's'}, all unknown: the all-unknown filter drops it`))
    }
  }

  private keep(at: number, item: AuditItem): void {
    if (this.sink) this.sink(item)
    else this.items.push({ at, item })
  }

  /** The check's result over the rows added (its row findings only when no `sink` took them). */
  result(): CheckResult {
    const items = this.items.sort((a, b) => a.at - b.at).map((x) => x.item)
    const table: TableRow[] = []
    for (const language of [...this.languages.keys()].sort(compareUtf8)) {
      const { rows, tokens, unknown, rowsWithUnknown, path } = this.languages.get(language)!
      const rate = tokens === 0 ? 0 : unknown / tokens
      table.push({ language, rows, tokens, unknown_tokens: unknown, unknown_rate: rate, rows_with_unknown: rowsWithUnknown })
      if (unknown > 0) {
        items.push({ rows: rowsWithUnknown, samples: 0, corpus: null, language, finding: finding(rate > unknownRateWarning ? 'warning' : 'info', 'unknown-tokens', path,
          `${language}: ${unknown} of ${tokens} tokens (${(100 * rate).toFixed(2)}%) are unknown to the tokenizer, in ${rowsWithUnknown} of ${rows} rows; expected at most ${100 * unknownRateWarning}%`) })
      }
    }
    return { items, tables: { unknown_tokens: table } }
  }
}
