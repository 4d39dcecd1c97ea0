/**
 * The Hugging Face `audiofolder` layout: `metadata.csv`, `metadata.jsonl` or `metadata.parquet` (at the root or in
 * split folders such as `train/`) with `file_name` or `<feature>_file_name` (relative to the metadata file, as
 * `datasets`' folder builder reads it) and a transcript column; the split as `hfSplit` decides it.
 */
import type { RowSink } from './row-log.ts'
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

/**
 * The columns of one metadata file: a CSV's header, a parquet file's top-level columns, or every key of a JSON Lines
 * file's objects (read through once, no record kept).
 */
async function metadataColumns(input: InputFiles, path: string, signal?: AbortSignal): Promise<string[]> {
  if (path.endsWith('.csv')) {
    for await (const r of readCsv(input, path, signal)) if ('columns' in r) return r.columns
    return []
  }
  if (path.endsWith('.parquet')) {
    const metadata = await parquetMetadataAsync(sourceAsyncBuffer(input.source, path, input.sizes.get(path) ?? 0, undefined, { signal }))
    return metadata.schema.slice(1).filter((e, i, all) => isTopLevel(all, i)).map((e) => e.name)
  }
  const seen = new Set<string>()
  for await (const { line } of readLines(input, path, signal)) {
    const cells = jsonObject(line)
    if (cells) for (const k of Object.keys(cells)) seen.add(k)
  }
  return [...seen]
}

/** A JSON Lines line's object, or null when it is blank, not JSON or not an object. */
function jsonObject(line: string): Record<string, unknown> | null {
  if (!line.trim()) return null
  try {
    const parsed: unknown = JSON.parse(line)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch { /* reported as a bad row */ }
  return null
}

/**
 * The records of one metadata file, one at a time: CSV a piece at a time, JSON Lines line by line, parquet a row
 * group at a time.
 */
async function* metadataRecords(input: InputFiles, path: string, signal?: AbortSignal): AsyncGenerator<MetadataRecord> {
  if (path.endsWith('.csv')) {
    for await (const r of readCsv(input, path, signal)) if (!('columns' in r)) yield { where: `${path}:${r.line}`, cells: r.cells }
    return
  }
  if (path.endsWith('.parquet')) {
    const file = sourceAsyncBuffer(input.source, path, input.sizes.get(path) ?? 0, undefined, { signal })
    const metadata = await parquetMetadataAsync(file)
    let row = 0
    for (const group of metadata.row_groups) {
      const rowEnd = row + Number(group.num_rows)
      const values = await parquetReadObjects({ file, metadata, rowStart: row, rowEnd, compressors, parsers: fastStringParsers })
      for (const cells of values) yield { where: `${path}:${row++}`, cells: cells as Record<string, unknown> }
      row = rowEnd
    }
    return
  }
  for await (const { line, number } of readLines(input, path, signal)) {
    if (!line.trim()) continue
    yield { where: `${path}:${number}`, cells: jsonObject(line) }
  }
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

/** Rows of every metadata file, into `out`. @throws Error when a file has no file column or no transcript column */
export async function readAudiofolder(input: InputFiles, out: RowSink, textColumn: string | undefined, signal?: AbortSignal): Promise<void> {
  const metadata = audiofolderMetadata(input)
  for (const path of metadata) {
    const base = dirOf(path)
    const split = hfSplit(path, metadata)
    const columns = await metadataColumns(input, path, signal)
    const fileColumn = fileNameColumn(path, columns)
    const textName = textColumn ?? TEXT_COLUMNS.find((c) => columns.includes(c))
    if (!textName || !columns.includes(textName)) {
      throw new Error(`audiofolder: ${path} has no ${textColumn ? `"${textColumn}"` : `transcript column (tried ${TEXT_COLUMNS.join(', ')})`}; pass --text-column (columns: ${columns.join(', ')})`)
    }
    const languageName = LANGUAGE_COLUMNS.find((c) => columns.includes(c))
    for await (const { where, cells } of metadataRecords(input, path, signal)) {
      if (!cells) {
        await out.add({ where, audio: null, text: null, language: null, split, corpus: null, duration: null, problem: { reason: 'bad-input-row', message: `${where}: not a JSON object` } })
        continue
      }
      const file = typeof cells[fileColumn] === 'string' ? (cells[fileColumn] as string).trim() : ''
      const t = cells[textName]
      const lang = languageName ? cells[languageName] : null
      const corpus = cells.corpus
      await out.add({
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
}
