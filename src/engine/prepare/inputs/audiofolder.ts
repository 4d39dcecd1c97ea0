/**
 * The Hugging Face `audiofolder` layout: `metadata.csv` or `metadata.jsonl` (at the root or in split folders such
 * as `train/`) with `file_name` (relative to the metadata file) and a transcript column; the split is the folder's
 * name (`validation` → `dev`), `train` at the root.
 */
import type { InputRow } from './types.ts'
import { parseCsv } from './delimited.ts'
import { dirOf, hfSplit, readText, resolveAudioPath, type InputFiles } from './input-files.ts'

/**
 * Transcript columns tried in this order when `--text-column` is not given. `raw_transcription` comes first: FLEURS
 * has both, its `transcription` already normalized by FLEURS, and the reference reads `raw_transcription`
 * (OA:hf_dataset_ingestion_example.py:111-118).
 */
export const TEXT_COLUMNS = ['raw_transcription', 'transcription', 'text', 'sentence', 'transcript', 'normalized_text']
/** Language columns tried in this order. */
export const LANGUAGE_COLUMNS = ['language', 'lang', 'locale']

/** The metadata files of an audiofolder, sorted. */
export function audiofolderMetadata(input: InputFiles): string[] {
  return input.files.map((f) => f.path).filter((p) => /(^|\/)metadata\.(csv|jsonl)$/.test(p))
}

/** Rows of every metadata file. @throws Error when a file has no `file_name` or no transcript column */
export async function readAudiofolder(input: InputFiles, textColumn: string | undefined, signal?: AbortSignal): Promise<Omit<InputRow, 'index'>[]> {
  const rows: Omit<InputRow, 'index'>[] = []
  const metadata = audiofolderMetadata(input)
  for (const path of metadata) {
    const base = dirOf(path)
    const split = hfSplit(path, metadata)
    const text = await readText(input, path, signal)
    let records: { line: number; cells: Record<string, unknown> }[]
    let columns: string[]
    if (path.endsWith('.csv')) {
      const table = parseCsv(text)
      records = table.rows
      columns = table.columns
    } else {
      records = []
      const seen = new Set<string>()
      text.split(/\r?\n/).forEach((line, i) => {
        if (!line.trim()) return
        try {
          const cells = JSON.parse(line) as Record<string, unknown>
          for (const k of Object.keys(cells)) seen.add(k)
          records.push({ line: i + 1, cells })
        } catch {
          records.push({ line: i + 1, cells: { __bad: true } })
        }
      })
      columns = [...seen]
    }
    if (!columns.includes('file_name')) throw new Error(`audiofolder: ${path} has no "file_name" column (columns: ${columns.join(', ')})`)
    const textName = textColumn ?? TEXT_COLUMNS.find((c) => columns.includes(c))
    if (!textName || !columns.includes(textName)) {
      throw new Error(`audiofolder: ${path} has no ${textColumn ? `"${textColumn}"` : `transcript column (tried ${TEXT_COLUMNS.join(', ')})`}; pass --text-column (columns: ${columns.join(', ')})`)
    }
    const languageName = LANGUAGE_COLUMNS.find((c) => columns.includes(c))
    for (const { line, cells } of records) {
      const where = `${path}:${line}`
      if (cells.__bad) {
        rows.push({ where, audio: null, text: null, language: null, split, corpus: null, duration: null, problem: { reason: 'bad-input-row', message: `${where}: not a JSON object` } })
        continue
      }
      const file = typeof cells.file_name === 'string' ? cells.file_name.trim() : ''
      const t = cells[textName]
      const lang = languageName ? cells[languageName] : null
      const corpus = cells.corpus
      rows.push({
        where,
        audio: file ? { kind: 'file', path: resolveAudioPath(input, base, file) } : null,
        text: typeof t === 'string' ? t : null,
        language: typeof lang === 'string' && lang.trim() ? lang.trim() : null,
        split,
        corpus: typeof corpus === 'string' && corpus.trim() ? corpus.trim() : null,
        duration: null,
        problem: file ? null : { reason: 'bad-input-row', message: `${where}: empty "file_name"` },
      })
    }
  }
  return rows
}
