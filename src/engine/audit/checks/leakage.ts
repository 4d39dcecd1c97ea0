/**
 * Leakage check: held-out rows (dev, test, ...) whose normalized transcript also occurs in the training split of
 * the same language. Normalized = NFC, lower-cased, whitespace runs collapsed to one space, trimmed.
 */
import { exampleIdAt, fileAt, rowItemAt, rowTableOf, type RowTable } from '../rows/row-table.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../rows/types.ts'

/** The transcript as the leakage check compares it. */
export function normalizeTranscript(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim()
}

/**
 * @param trainSplit the split value training selects; every other split counts as held out
 * @returns `transcript-leakage` (warning) per held-out row sharing a transcript with a train row of its language;
 *   table `leakage` per language and held-out split
 */
export function checkLeakage(rows: readonly AuditRow[], trainSplit: string): CheckResult {
  return checkLeakageTable(rowTableOf(rows), trainSplit, (i) => {
    const text = rows[i].text
    return text ? normalizeTranscript(text) : undefined
  })
}

/**
 * `checkLeakage` over a row table.
 * @param keyOf per row: `undefined` when it has no transcript (null or empty), `''` when it is empty once
 *   normalized, else a string equal for two rows exactly when their normalized transcripts are (the normalized
 *   transcript, or its hash in a merge of shard parts)
 */
export function checkLeakageTable(t: RowTable, trainSplit: string, keyOf: (i: number) => string | undefined): CheckResult {
  // per language, key → the train rows holding it: the first one and how many
  const train = new Map<string, Map<string, { first: number; count: number }>>()
  for (let i = 0; i < t.length; i++) {
    const { split, language } = fileAt(t, i)
    if (split !== trainSplit) continue
    const key = keyOf(i)
    if (!key) continue
    let byKey = train.get(language)
    if (!byKey) train.set(language, byKey = new Map())
    const seen = byKey.get(key)
    if (seen) seen.count++
    else byKey.set(key, { first: i, count: 1 })
  }
  const items: AuditItem[] = []
  const counts = new Map<string, { language: string; split: string; rows: number; leaked: number }>()
  for (let i = 0; i < t.length; i++) {
    const { split, language } = fileAt(t, i)
    if (split === trainSplit) continue
    const key = keyOf(i)
    if (key === undefined) continue
    const id = `${language}\u0000${split}`
    let c = counts.get(id)
    if (!c) counts.set(id, c = { language, split, rows: 0, leaked: 0 })
    c.rows++
    if (!key) continue
    const matches = train.get(language)?.get(key)
    if (!matches) continue
    c.leaked++
    const more = matches.count > 1 ? ` and ${matches.count - 1} more train row${matches.count > 2 ? 's' : ''}` : ''
    items.push(rowItemAt(t, i, 'warning', 'transcript-leakage',
      `${exampleIdAt(t, i)} (${split}) has the same normalized transcript as train row ${exampleIdAt(t, matches.first)}${more} (${language}): held-out scores on it are inflated`))
  }
  const table: TableRow[] = [...counts.values()]
    .sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : a.split < b.split ? -1 : a.split > b.split ? 1 : 0))
    .map((c) => ({ language: c.language, split: c.split, rows: c.rows, leaked_rows: c.leaked }))
  return { items, tables: { leakage: table } }
}
