/**
 * Leakage check: held-out rows (dev, test, ...) whose normalized transcript also occurs in the training split of
 * the same language. Normalized = NFC, lower-cased, whitespace runs collapsed to one space, trimmed. Two forms: keyed
 * by a string per row (`checkLeakageTable`, the merge of shard parts), and by a 64-bit hash per row in typed arrays
 * (`checkLeakageHashes`, the audit at 10^7 rows: a sort instead of a map of strings), which give the same result.
 */
import { exampleIdAt, fileAt, rowItemAt, rowTableOf, type RowTable } from '../rows/row-table.ts'
import { hashedTranscript, noTranscript, normalizeTranscript, type TranscriptHashes } from '../rows/transcript-hashes.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../rows/types.ts'

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

/**
 * `checkLeakageTable` over 64-bit hashes: the same items and table (two transcripts whose hashes are equal are
 * taken as equal, a 2^-64 chance of being wrong per pair). The train rows' (language, hash) are sorted once, each
 * held-out row is a binary search: 4 bytes per row besides the columns, no string per row.
 */
export function checkLeakageHashes(t: RowTable, trainSplit: string, h: TranscriptHashes): CheckResult {
  // per file: its language's id, its cell (language × held-out split) id, whether it is train
  const languageIds = new Map<string, number>()
  const cellIds = new Map<string, number>()
  const cells: { language: string; split: string; rows: number; leaked: number }[] = []
  const fileLanguage = new Int32Array(t.files.length)
  const fileCell = new Int32Array(t.files.length).fill(-1)
  t.files.forEach((f, i) => {
    let l = languageIds.get(f.language)
    if (l === undefined) languageIds.set(f.language, l = languageIds.size)
    fileLanguage[i] = l
  })
  const { kind, words } = h
  let trainCount = 0
  for (let i = 0; i < t.length; i++) if (kind[i] === hashedTranscript && t.files[t.fileOf[i]].split === trainSplit) trainCount++
  const train = new Int32Array(trainCount)
  trainCount = 0
  for (let i = 0; i < t.length; i++) if (kind[i] === hashedTranscript && t.files[t.fileOf[i]].split === trainSplit) train[trainCount++] = i
  const compare = (a: number, b: number) =>
    fileLanguage[t.fileOf[a]] - fileLanguage[t.fileOf[b]] || words[2 * a] - words[2 * b] || words[2 * a + 1] - words[2 * b + 1] || a - b
  train.sort(compare)
  /** The first index in `train` whose (language, hash) is not below row i's (`after`: above it). */
  const bound = (i: number, after: boolean): number => {
    const language = fileLanguage[t.fileOf[i]]
    const hi = words[2 * i]
    const lo = words[2 * i + 1]
    let a = 0
    let b = train.length
    while (a < b) {
      const m = (a + b) >>> 1
      const j = train[m]
      const c = fileLanguage[t.fileOf[j]] - language || words[2 * j] - hi || words[2 * j + 1] - lo
      if (c < 0 || (after && c === 0)) a = m + 1
      else b = m
    }
    return a
  }
  const items: AuditItem[] = []
  for (let i = 0; i < t.length; i++) {
    const file = t.fileOf[i]
    const { split, language } = t.files[file]
    if (split === trainSplit || kind[i] === noTranscript) continue
    let c = fileCell[file]
    if (c < 0) {
      const id = `${language}\u0000${split}`
      let known = cellIds.get(id)
      if (known === undefined) {
        cellIds.set(id, known = cells.length)
        cells.push({ language, split, rows: 0, leaked: 0 })
      }
      fileCell[file] = c = known
    }
    const cell = cells[c]
    cell.rows++
    if (kind[i] !== hashedTranscript) continue
    const at = bound(i, false)
    const count = bound(i, true) - at
    if (count === 0) continue
    cell.leaked++
    const more = count > 1 ? ` and ${count - 1} more train row${count > 2 ? 's' : ''}` : ''
    items.push(rowItemAt(t, i, 'warning', 'transcript-leakage',
      `${exampleIdAt(t, i)} (${split}) has the same normalized transcript as train row ${exampleIdAt(t, train[at])}${more} (${language}): held-out scores on it are inflated`))
  }
  const table: TableRow[] = cells
    .sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : a.split < b.split ? -1 : a.split > b.split ? 1 : 0))
    .map((c) => ({ language: c.language, split: c.split, rows: c.rows, leaked_rows: c.leaked }))
  return { items, tables: { leakage: table } }
}
