/**
 * The Hugging Face `audiofolder` layout: `metadata.csv`, `metadata.jsonl` or `metadata.parquet` (at the root or in
 * split folders such as `train/`) with `file_name` or `<feature>_file_name` (relative to the metadata file, as
 * `datasets`' folder builder reads it) and a transcript column; the split as `hfSplit` decides it.
 */
import type { InputRow } from './types.ts'
import { parquetMetadataAsync, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { sourceAsyncBuffer } from '../../parquet/async-buffer.ts'
import { fastStringParsers } from '../../parquet/strings.ts'
import { readCsv } from './delimited.ts'
import { readLines } from './lines.ts'
import { dirOf, hfSplit, resolveAudioPath, type InputFiles } from './input-files.ts'

/**
 * Transcript columns tried in this order when `--text-column` is not given. `raw_transcription` comes first: FLEURS
 * has both, its `transcription` already normalized by FLEURS, and the reference reads `raw_transcription`
 * (OA:hf_dataset_ingestion_example.py:111-118).
 */
export const TEXT_COLUMNS = ['raw_transcription', 'transcription', 'text', 'sentence', 'transcript', 'normalized_text']
/** Language columns tried in this order. */
export const LANGUAGE_COLUMNS = ['language', 'lang', 'locale']

/** The metadata files of an audiofolder, sorted (`datasets`' `METADATA_FILENAMES`). */
export function audiofolderMetadata(input: InputFiles): string[] {
  return input.files.map((f) => f.path).filter((p) => /(^|\/)metadata\.(csv|jsonl|parquet)$/.test(p))
}

/**
 * The audio column of a metadata file, as `datasets`' folder builder finds it: `file_name`, or a `<feature>_file_name`
 * column (`audio_file_name`); with several, `audio_file_name`.
 * @throws Error naming the file when there is none, or several and none is `audio_file_name`
 */
export function fileNameColumn(path: string, columns: readonly string[]): string {
  if (columns.includes('file_name')) return 'file_name'
  const named = columns.filter((c) => c.endsWith('_file_name'))
  if (named.length === 1) return named[0]
  if (named.includes('audio_file_name')) return 'audio_file_name'
  if (named.length) throw new Error(`audiofolder: ${path} has several file columns (${named.join(', ')}) and no "audio_file_name"; keep one`)
  throw new Error(`audiofolder: ${path} has no "file_name" or "*_file_name" column (columns: ${columns.join(', ')})`)
}

/** One record of a metadata file: where it is (1-based line, or 0-based parquet row) and its cells. */
interface MetadataRecord { where: string; cells: Record<string, unknown> | null }

/** The records and columns of one metadata file (CSV read a piece at a time, JSON Lines line by line, parquet). */
async function readMetadata(input: InputFiles, path: string, signal?: AbortSignal): Promise<{ records: MetadataRecord[]; columns: string[] }> {
  if (path.endsWith('.csv')) {
    const records: MetadataRecord[] = []
    let columns: string[] = []
    for await (const r of readCsv(input, path, signal)) {
      if ('columns' in r) columns = r.columns
      else records.push({ where: `${path}:${r.line}`, cells: r.cells })
    }
    return { records, columns }
  }
  if (path.endsWith('.parquet')) {
    const file = sourceAsyncBuffer(input.source, path, input.sizes.get(path) ?? 0, undefined, { signal })
    const metadata = await parquetMetadataAsync(file)
    const columns = metadata.schema.slice(1).filter((e, i, all) => isTopLevel(all, i)).map((e) => e.name)
    const values = await parquetReadObjects({ file, metadata, compressors, parsers: fastStringParsers })
    return { records: values.map((cells, row) => ({ where: `${path}:${row}`, cells: cells as Record<string, unknown> })), columns }
  }
  const records: MetadataRecord[] = []
  const seen = new Set<string>()
  for await (const { line, number } of readLines(input, path, signal)) {
    if (!line.trim()) continue
    let cells: Record<string, unknown> | null = null
    try {
      const parsed: unknown = JSON.parse(line)
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) cells = parsed as Record<string, unknown>
    } catch { /* reported as a bad row */ }
    if (cells) for (const k of Object.keys(cells)) seen.add(k)
    records.push({ where: `${path}:${number}`, cells })
  }
  return { records, columns: [...seen] }
}

/** Whether schema element `i` of `all` (the footer schema without its root) is a top-level column. */
function isTopLevel(all: { num_children?: number }[], i: number): boolean {
  let at = 0
  while (at < all.length) {
    if (at === i) return true
    // skip this element's subtree
    let pending = all[at].num_children ?? 0
    at++
    while (pending > 0) { pending += (all[at].num_children ?? 0) - 1; at++ }
  }
  return false
}

/** Rows of every metadata file. @throws Error when a file has no file column or no transcript column */
export async function readAudiofolder(input: InputFiles, textColumn: string | undefined, signal?: AbortSignal): Promise<Omit<InputRow, 'index'>[]> {
  const rows: Omit<InputRow, 'index'>[] = []
  const metadata = audiofolderMetadata(input)
  for (const path of metadata) {
    const base = dirOf(path)
    const split = hfSplit(path, metadata)
    const { records, columns } = await readMetadata(input, path, signal)
    const fileColumn = fileNameColumn(path, columns)
    const textName = textColumn ?? TEXT_COLUMNS.find((c) => columns.includes(c))
    if (!textName || !columns.includes(textName)) {
      throw new Error(`audiofolder: ${path} has no ${textColumn ? `"${textColumn}"` : `transcript column (tried ${TEXT_COLUMNS.join(', ')})`}; pass --text-column (columns: ${columns.join(', ')})`)
    }
    const languageName = LANGUAGE_COLUMNS.find((c) => columns.includes(c))
    for (const { where, cells } of records) {
      if (!cells) {
        rows.push({ where, audio: null, text: null, language: null, split, corpus: null, duration: null, problem: { reason: 'bad-input-row', message: `${where}: not a JSON object` } })
        continue
      }
      const file = typeof cells[fileColumn] === 'string' ? (cells[fileColumn] as string).trim() : ''
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
        problem: file ? null : { reason: 'bad-input-row', message: `${where}: empty "${fileColumn}"` },
      })
    }
  }
  return rows
}
