/**
 * Leakage check: held-out rows (dev, test, ...) whose normalized transcript also occurs in the training split of
 * the same language. Normalized = NFC, lower-cased, whitespace runs collapsed to one space, trimmed. Two forms: keyed
 * by a string per row (`checkLeakageTable`, the merge of shard parts), and by a 64-bit hash per row in typed arrays
 * (`checkLeakageHashes`, the audit at 10^7 rows: a hash table of typed arrays instead of a map of strings), which
 * give the same result.
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
 * taken as equal, a 2^-64 chance of being wrong per pair). The train rows' (language, hash) go into a hash table once
 * (its first train row and count per key), each held-out row is one look-up: 8 bytes a slot, 1⅓–2⅔ slots a train
 * row, besides the columns; no string per row.
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
  // per file: whether it is train (a string compare per file, not per row)
  const fileTrain = new Uint8Array(t.files.length)
  t.files.forEach((f, i) => { fileTrain[i] = f.split === trainSplit ? 1 : 0 })
  let trainCount = 0
  for (let i = 0; i < t.length; i++) if (kind[i] === hashedTranscript && fileTrain[t.fileOf[i]]) trainCount++
  // the train rows' (language, hash) in an open-addressing table (linear probing, at most 3/4 full): per key its
  // first train row (rows go in in row order) and how many train rows hold it; 8 bytes a slot, O(1) a row
  let capacity = 16
  while (capacity * 3 < trainCount * 4) capacity *= 2
  const mask = capacity - 1
  const slotRow = new Int32Array(capacity).fill(-1)
  const slotCount = new Int32Array(capacity)
  /** The slot of row i's (language, hash): the one holding it, else the empty one where it would go. */
  const slotOf = (i: number): number => {
    const language = fileLanguage[t.fileOf[i]]
    const hi = words[2 * i]
    const lo = words[2 * i + 1]
    let s = (lo ^ Math.imul(language, 0x9e3779b1)) & mask
    for (;;) {
      const j = slotRow[s]
      if (j < 0 || (words[2 * j + 1] === lo && words[2 * j] === hi && fileLanguage[t.fileOf[j]] === language)) return s
      s = (s + 1) & mask
    }
  }
  for (let i = 0; i < t.length; i++) {
    if (kind[i] !== hashedTranscript || !fileTrain[t.fileOf[i]]) continue
    const s = slotOf(i)
    if (slotRow[s] < 0) slotRow[s] = i
    slotCount[s]++
  }
  const items: AuditItem[] = []
  for (let i = 0; i < t.length; i++) {
    const file = t.fileOf[i]
    if (fileTrain[file] || kind[i] === noTranscript) continue
    const { split, language } = t.files[file]
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
    const slot = slotOf(i)
    const count = slotCount[slot]
    if (count === 0) continue
    cell.leaked++
    const more = count > 1 ? ` and ${count - 1} more train row${count > 2 ? 's' : ''}` : ''
    items.push(rowItemAt(t, i, 'warning', 'transcript-leakage',
      `${exampleIdAt(t, i)} (${split}) has the same normalized transcript as train row ${exampleIdAt(t, slotRow[slot])}${more} (${language}): held-out scores on it are inflated`))
  }
  const table: TableRow[] = cells
    .sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : a.split < b.split ? -1 : a.split > b.split ? 1 : 0))
    .map((c) => ({ language: c.language, split: c.split, rows: c.rows, leaked_rows: c.leaked }))
  return { items, tables: { leakage: table } }
}

