/**
 * Leakage check: held-out rows (dev, test, ...) whose normalized transcript also occurs in the training split of
 * the same language. Normalized = NFC, lower-cased, whitespace runs collapsed to one space, trimmed.
 */
import { exampleId, rowItem } from '../rows.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../types.ts'

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
  const train = new Map<string, AuditRow[]>()
  for (const r of rows) {
    if (r.split !== trainSplit || !r.text) continue
    const key = `${r.language}\u0000${normalizeTranscript(r.text)}`
    if (key.endsWith('\u0000')) continue
    const list = train.get(key)
    if (list) list.push(r)
    else train.set(key, [r])
  }
  const items: AuditItem[] = []
  const counts = new Map<string, { language: string; split: string; rows: number; leaked: number }>()
  for (const r of rows) {
    if (r.split === trainSplit || !r.text) continue
    const id = `${r.language}\u0000${r.split}`
    let c = counts.get(id)
    if (!c) counts.set(id, c = { language: r.language, split: r.split, rows: 0, leaked: 0 })
    c.rows++
    const normalized = normalizeTranscript(r.text)
    if (!normalized) continue
    const matches = train.get(`${r.language}\u0000${normalized}`)
    if (!matches) continue
    c.leaked++
    const more = matches.length > 1 ? ` and ${matches.length - 1} more train row${matches.length > 2 ? 's' : ''}` : ''
    items.push(rowItem(r, 'warning', 'transcript-leakage',
      `${exampleId(r)} (${r.split}) has the same normalized transcript as train row ${exampleId(matches[0])}${more} (${r.language}): held-out scores on it are inflated`))
  }
  const table: TableRow[] = [...counts.values()]
    .sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : a.split < b.split ? -1 : a.split > b.split ? 1 : 0))
    .map((c) => ({ language: c.language, split: c.split, rows: c.rows, leaked_rows: c.leaked }))
  return { items, tables: { leakage: table } }
}
