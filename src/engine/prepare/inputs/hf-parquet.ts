/**
 * Parquet files as the Hugging Face `datasets` library writes an audio dataset: an `audio` struct column
 * (`bytes`, `path`) and a transcript column (`--text-column`, else the first of `TEXT_COLUMNS`); the split comes
 * from the file's path (`data/train-00000-of-00004.parquet`, `test/…`), `train` otherwise. Transcripts are read
 * up front; audio is read per row group when converting, through a small cache (`HfAudioReader`).
 */
import { parquetMetadataAsync, parquetReadObjects, type FileMetaData } from 'hyparquet'
import { boundedCompressors as compressors } from '../../parquet/bounded-compressors.ts'
import { sourceAsyncBuffer } from '../../parquet/async-buffer.ts'
import { fastStringParsers } from '../../parquet/strings.ts'
import type { RowSink } from './row-log.ts'
import { LANGUAGE_COLUMNS, TEXT_COLUMNS } from './audiofolder.ts'
import { hfSplit, type InputFiles } from './input-files.ts'

/** The input's parquet files, sorted. */
export function hfParquetFiles(input: InputFiles): string[] {
  return input.files.map((f) => f.path).filter((p) => /\.parquet$/i.test(p) && !p.split('/').some((s) => s.startsWith('.') || s.startsWith('_')))
}

function topColumns(metadata: FileMetaData): { name: string; children: string[] }[] {
  const out: { name: string; children: string[] }[] = []
  const schema = metadata.schema
  let i = 1
  while (i < schema.length) {
    const e = schema[i]
    const children: string[] = []
    let next = i + 1
    const n = e.num_children ?? 0
    for (let k = 0; k < n; k++) {
      children.push(schema[next].name)
      // skip the child's own subtree
      let pending = schema[next].num_children ?? 0
      next++
      while (pending > 0) { pending += (schema[next].num_children ?? 0) - 1; next++ }
    }
    out.push({ name: e.name, children })
    i = next
  }
  return out
}

/**
 * Rows of every parquet file, into `out`, a row group at a time (only the transcript, language, split and corpus
 * columns are read).
 * @throws Error naming the file when it has no `audio` struct or no transcript column
 */
export async function readHfParquet(input: InputFiles, out: RowSink, textColumn: string | undefined, signal?: AbortSignal): Promise<void> {
  const all = hfParquetFiles(input)
  for (const path of all) {
    const file = sourceAsyncBuffer(input.source, path, input.sizes.get(path) ?? 0, undefined, { signal })
    const metadata = await parquetMetadataAsync(file)
    const columns = topColumns(metadata)
    const audio = columns.find((c) => c.name === 'audio')
    if (!audio || !audio.children.includes('bytes')) {
      throw new Error(`hf-parquet: ${path} has no "audio" struct with "bytes" (columns: ${columns.map((c) => c.name).join(', ')})`)
    }
    const names = columns.map((c) => c.name)
    const textName = textColumn ?? TEXT_COLUMNS.find((c) => names.includes(c))
    if (!textName || !names.includes(textName)) {
      throw new Error(`hf-parquet: ${path} has no ${textColumn ? `"${textColumn}"` : `transcript column (tried ${TEXT_COLUMNS.join(', ')})`}; pass --text-column (columns: ${names.join(', ')})`)
    }
    const languageName = LANGUAGE_COLUMNS.find((c) => names.includes(c))
    const wanted = [textName, ...(languageName ? [languageName] : []), ...(names.includes('split') ? ['split'] : []), ...(names.includes('corpus') ? ['corpus'] : [])]
    const split = hfSplit(path, all)
    let row = 0
    for (const [rowGroup, group] of metadata.row_groups.entries()) {
      const values = await parquetReadObjects({ file, metadata, columns: wanted, rowStart: row, rowEnd: row + Number(group.num_rows), compressors, parsers: fastStringParsers })
      for (let k = 0; k < Number(group.num_rows); k++, row++) {
        const v = values[k] as Record<string, unknown>
        const t = v[textName]
        const lang = languageName ? v[languageName] : null
        const rowSplit = typeof v.split === 'string' && v.split ? v.split : null
        await out.add({
          where: `${path}:${row}`,
          audio: { kind: 'parquet', file: path, row, rowGroup },
          text: typeof t === 'string' ? t : null,
          language: typeof lang === 'string' && lang.trim() ? lang.trim() : null,
          split: rowSplit ?? split,
          corpus: typeof v.corpus === 'string' && v.corpus.trim() ? v.corpus.trim() : null,
          duration: null,
          problem: null,
        })
      }
    }
  }
}

/**
 * Reads the `audio.bytes` of input parquet rows, one row group at a time, keeping recently read row groups up to
 * `budgetBytes` (the rows of a shuffled partition come from anywhere in the files).
 */
export class HfAudioReader {
  private readonly cache = new Map<string, Promise<{ bytes: (Uint8Array | null)[]; paths: (string | null)[]; size: number; firstRow: number }>>()
  private held = 0

  constructor(private readonly input: InputFiles, private readonly budgetBytes = 256 * 1024 * 1024) {}

  /**
   * The `audio` cell of row `row` (in row group `rowGroup`) of `file`: its bytes (null when empty) and its `path`
   * (which `datasets` reads when there are no bytes).
   */
  async read(file: string, rowGroup: number, row: number, signal?: AbortSignal): Promise<{ bytes: Uint8Array | null; path: string | null }> {
    const key = `${file}#${rowGroup}`
    let hit = this.cache.get(key)
    if (hit) {
      this.cache.delete(key)
      this.cache.set(key, hit)
    } else {
      hit = this.load(file, rowGroup, signal)
      this.cache.set(key, hit)
      hit.then((g) => { this.held += g.size; this.evict() }, () => this.cache.delete(key))
    }
    const group = await hit
    return { bytes: group.bytes[row - group.firstRow] ?? null, path: group.paths[row - group.firstRow] ?? null }
  }

  private async load(path: string, rowGroup: number, signal?: AbortSignal) {
    const file = sourceAsyncBuffer(this.input.source, path, this.input.sizes.get(path) ?? 0, undefined, { signal })
    const metadata = await parquetMetadataAsync(file)
    let firstRow = 0
    for (let g = 0; g < rowGroup; g++) firstRow += Number(metadata.row_groups[g].num_rows)
    const rowEnd = firstRow + Number(metadata.row_groups[rowGroup].num_rows)
    // utf8: false, or hyparquet decodes binary cells (no UTF8 annotation, as datasets writes them) as text
    const values = await parquetReadObjects({ file, metadata, columns: ['audio'], rowStart: firstRow, rowEnd, compressors, utf8: false, parsers: fastStringParsers })
    let size = 0
    const paths: (string | null)[] = []
    const bytes = values.map((v) => {
      const cell = v.audio as { bytes?: unknown; path?: unknown } | null
      const b = cell?.bytes
      const u = b instanceof Uint8Array ? b : null
      const p = cell?.path
      paths.push(typeof p === 'string' && p ? p : p instanceof Uint8Array && p.length ? new TextDecoder().decode(p) : null)
      size += u?.length ?? 0
      return u
    })
    return { bytes, paths, size, firstRow }
  }

  private evict(): void {
    for (const [key, entry] of this.cache) {
      if (this.held <= this.budgetBytes || this.cache.size <= 1) break
      this.cache.delete(key)
      entry.then((g) => { this.held -= g.size }, () => {})
    }
  }
}
