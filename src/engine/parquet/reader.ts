/**
 * Reads parquet data one row group (fragment) at a time, only the columns asked for, through the source and the
 * shared chunk cache. Footers are read once (discovery) and kept here.
 */
import { parquetRead, type FileMetaData } from 'hyparquet'
import { boundedCompressors as compressors } from './bounded-compressors.ts'
import { MixscopeError } from '../core/findings.ts'
import type { ParquetFileRef } from './types.ts'
import type { DatasetSource, ReadOptions } from '../source/source.ts'
import { sourceAsyncBuffer } from './async-buffer.ts'
import { ChunkCache } from './chunk-cache.ts'
import { FooterSizer, readFooter } from './footer.ts'
import { FooterStore } from './footer-store.ts'
import { fastStringParsers } from './strings.ts'
import { decodeTextChunk, flatByteArrayLevels, TextCells } from './text-column.ts'
import { chunkRange, decodeByteListChunk, decodeFlatIntChunk, flatIntLevels, listLevels, UnsupportedPageError } from './byte-list-column.ts'

/**
 * Wanted column chunks closer than this are read in one request (the bytes between are read and kept): a range
 * request costs a round trip, which dominates over HTTP. Small, so that what lies between is at most a page header or
 * a tiny chunk, never a chunk of audio nobody asked for (planning reads text and audio_size, never audio_bytes).
 */
const MERGE_GAP_BYTES = 4096

/** One column of one row group: values in row order (`rows` long). */
export type ColumnValues = ArrayLike<unknown>

/**
 * Parquet access for one dataset: footers by path (a `FooterStore`: every file's footer bytes, a few parsed ones;
 * one missing there is read again), column reads per row group.
 */
export class ParquetReader {
  /** Learns the dataset's footer sizes, so a tail read usually gets a whole footer in one request. */
  readonly sizer = new FooterSizer()

  constructor(
    readonly source: DatasetSource,
    /** Recently read column chunks (bytes), shared by every read of this dataset. */
    readonly cache = new ChunkCache(),
    /** Footers of the dataset's files. */
    readonly footers = new FooterStore(),
  ) {}

  /** Keeps a file's footer (called by discovery): parsed, and the bytes it was parsed from. */
  setFooter(path: string, metadata: FileMetaData, bytes?: Uint8Array): void {
    this.footers.put(path, bytes ?? null, metadata)
  }

  /**
   * The parsed footer of `path` when the store holds it (call `loadFooter` where it may have to be read again).
   * @throws MixscopeError `unreadable-parquet` when it is not held
   */
  footer(path: string): FileMetaData {
    const metadata = this.footers.get(path)
    if (!metadata) throw new MixscopeError(`parquet: ${path} has no footer in memory (read it with loadFooter)`, 'unreadable-parquet')
    return metadata
  }

  /**
   * The parsed footer of `file`, read again (one tail read) when the store no longer holds it or never did (a
   * dataset opened from its index reads footers only when a row group is read).
   * @throws MixscopeError `unreadable-parquet` when the file has no readable footer
   */
  async loadFooter(file: ParquetFileRef, options: ReadOptions = {}): Promise<FileMetaData> {
    const held = this.footers.get(file.path)
    if (held) return held
    if (!file.readable) throw new MixscopeError(`parquet: ${file.path} has no readable footer`, 'unreadable-parquet')
    let pending = this.loading.get(file.path)
    if (!pending) {
      pending = readFooter(this.source, file.path, file.size, this.sizer, options, this.cache).then(({ metadata, bytes }) => {
        this.footers.put(file.path, bytes, metadata)
        return metadata
      })
      pending.catch(() => {}).finally(() => this.loading.delete(file.path))
      this.loading.set(file.path, pending)
    }
    return pending
  }

  private readonly loading = new Map<string, Promise<FileMetaData>>()

  /**
   * Reads `columns` of row group `rowGroup` of `file`.
   * Byte-array columns that are not strings come back as `Uint8Array`s (never decoded as text); INT64 as Numbers
   * (docs/conventions.md: plain JSON numbers; exact below 2^53, far above any sample count).
   * @returns values per column, each `rows` long
   * @throws MixscopeError (`unreadable-row-group`) naming file, row group and column
   */
  async readColumns(
    file: ParquetFileRef,
    rowGroup: number,
    columns: string[],
    options: ReadOptions = {},
  ): Promise<Record<string, ColumnValues>> {
    const metadata = await this.loadFooter(file, options)
    const group = file.rowGroups[rowGroup]
    if (!group) throw new MixscopeError(`parquet: ${file.path} has no row group ${rowGroup} (it has ${file.rowGroups.length})`, 'bad-request', 'usage')
    const rowStart = group.firstRow
    const rowEnd = group.firstRow + group.rows
    const parts: Record<string, { start: number; data: ArrayLike<unknown> }[]> = {}
    for (const c of columns) parts[c] = []
    const fast = columns.filter((c) => listLevels(metadata, c) !== null || flatIntLevels(metadata, c) !== null)
    const slow = columns.filter((c) => !fast.includes(c))
    try {
      await this.prefetch(file, [{ rowGroup, columns }], options)
      for (const c of fast) {
        try {
          parts[c].push({ start: rowStart, data: await this.readByteList(file, metadata, rowGroup, c, options) })
        } catch (error) {
          if (!(error instanceof UnsupportedPageError)) throw error
          slow.push(c)
        }
      }
      if (slow.length > 0) await parquetRead({
        file: sourceAsyncBuffer(this.source, file.path, file.size, this.cache, options),
        metadata,
        columns: slow,
        rowStart,
        rowEnd,
        compressors,
        utf8: false,
        // a STRING column is decoded whatever `utf8` says: with the parsers that keep a leading U+FEFF
        parsers: fastStringParsers,
        onChunk: (chunk) => parts[chunk.columnName]?.push({ start: chunk.rowStart, data: chunk.columnData }),
      })
    } catch (error) {
      if (options.signal?.aborted) throw error
      throw decodeError(file, rowGroup, columns, error)
    }
    const out: Record<string, ColumnValues> = {}
    for (const c of columns) out[c] = assemble(parts[c], rowStart, rowEnd)
    return out
  }

  /**
   * One flat integer column (`audio_size`) of one row group as Numbers, `null` for nulls: the fast path straight into
   * the values, without the assembly `readColumns` does (stats read ~1 of these per row group); `readColumns` for
   * anything the fast path does not take.
   * @throws MixscopeError (`unreadable-row-group`) as `readColumns` does
   */
  async readIntColumn(file: ParquetFileRef, rowGroup: number, column: string, options: ReadOptions = {}): Promise<ArrayLike<number | null>> {
    const metadata = await this.loadFooter(file, options)
    if (file.rowGroups[rowGroup] && flatIntLevels(metadata, column) !== null) {
      try {
        return await this.readByteList(file, metadata, rowGroup, column, options) as (number | null)[]
      } catch (error) {
        if (options.signal?.aborted) throw error
        if (!(error instanceof UnsupportedPageError)) throw decodeError(file, rowGroup, [column], error)
      }
    }
    return (await this.readColumns(file, rowGroup, [column], options))[column] as ArrayLike<number | null>
  }

  /**
   * One flat string column of one row group as `TextCells` (each row decoded when asked for: text-column.ts), or
   * `readColumns`' values (strings, `null` for nulls) for a column that fast path does not take.
   * @throws MixscopeError (`unreadable-row-group`) as `readColumns` does
   */
  async readTextColumn(file: ParquetFileRef, rowGroup: number, column: string, options: ReadOptions = {}): Promise<TextCells | ColumnValues> {
    const metadata = await this.loadFooter(file, options)
    const levels = flatByteArrayLevels(metadata, column)
    const chunk = metadata.row_groups[rowGroup]?.columns.find((c) => c.meta_data?.path_in_schema[0] === column)
    if (file.rowGroups[rowGroup] && levels !== null && chunk?.meta_data) {
      try {
        const [start, end] = chunkRange(chunk)
        const bytes = new Uint8Array(await sourceAsyncBuffer(this.source, file.path, file.size, this.cache, options).slice(start, end))
        return decodeTextChunk(bytes, chunk, levels, file.rowGroups[rowGroup].rows)
      } catch (error) {
        if (options.signal?.aborted) throw error
        if (!(error instanceof UnsupportedPageError)) throw decodeError(file, rowGroup, [column], error)
      }
    }
    return (await this.readColumns(file, rowGroup, [column], options))[column]
  }

  /**
   * Brings the chunks of the wanted columns of the wanted row groups of `file` into the cache, neighbours (also
   * across row groups) closer than `MERGE_GAP_BYTES` in one request; chunks already cached are not read again.
   * `readColumns` does this for its row group; stats does it per file with the columns validation reads next, so
   * their reads share requests.
   */
  async prefetch(file: ParquetFileRef, wants: { rowGroup: number; columns: string[] }[], options: ReadOptions & { lone?: boolean } = {}): Promise<void> {
    const footer = await this.loadFooter(file, options)
    const ranges: [number, number][] = []
    for (const { rowGroup, columns } of wants) {
      const wanted = new Set(columns)
      for (const c of footer.row_groups[rowGroup]?.columns ?? []) {
        if (!c.meta_data || !wanted.has(c.meta_data.path_in_schema[0])) continue
        const [start, end] = chunkRange(c)
        if (end > start && !this.cache.getRange(file.path, start, end)) ranges.push([start, end])
      }
    }
    ranges.sort((a, b) => a[0] - b[0])
    const spans: { start: number; end: number; chunks: number }[] = []
    for (const [start, end] of ranges) {
      const last = spans[spans.length - 1]
      if (last && start - last.end <= MERGE_GAP_BYTES) { last.end = Math.max(last.end, end); last.chunks++ } else spans.push({ start, end, chunks: 1 })
    }
    // a lone chunk is left to the reader (one request either way) unless `lone` asks for every chunk at once (the
    // reads then overlap instead of following one another: one round trip for a file, not one per row group); runs
    // are read ahead when the cache can keep them (a run it cannot hold would be read again chunk by chunk)
    const keepable = this.cache.maxBytes / 4
    const ahead = spans.filter((s) => (s.chunks > 1 || (options.lone && spans.length > 1)) && s.end - s.start <= keepable)
    await Promise.all(ahead.map(async ({ start, end }) => {
      this.cache.setRange(file.path, start, await this.source.read(file.path, start, Math.min(end, file.size), options))
    }))
  }

  /**
   * One row group of a `list<int8>` column (a Uint8Array per row) or a flat integer column (Numbers), through the
   * fast path of byte-list-column.ts.
   */
  private async readByteList(file: ParquetFileRef, metadata: FileMetaData, rowGroup: number, column: string, options: ReadOptions): Promise<(Uint8Array | number | null)[]> {
    const chunk = metadata.row_groups[rowGroup].columns.find((c) => c.meta_data?.path_in_schema[0] === column)
    if (!chunk?.meta_data) throw new Error(`no column chunk for ${column}`)
    const [start, end] = chunkRange(chunk)
    const buffer = sourceAsyncBuffer(this.source, file.path, file.size, this.cache, options)
    const bytes = new Uint8Array(await buffer.slice(start, end))
    const rows = file.rowGroups[rowGroup].rows
    const levels = listLevels(metadata, column)
    return levels ? decodeByteListChunk(bytes, chunk, levels, rows) : decodeFlatIntChunk(bytes, chunk, flatIntLevels(metadata, column)!, rows)
  }
}

/** The error of a row group that does not decode: file, row group, rows and columns named. */
function decodeError(file: ParquetFileRef, rowGroup: number, columns: string[], error: unknown): MixscopeError {
  const group = file.rowGroups[rowGroup]
  return new MixscopeError(
    `parquet: ${file.path} row group ${rowGroup} (rows ${group.firstRow}-${group.firstRow + group.rows - 1}) of columns ${columns.join(', ')} does not decode: ${(error as Error).message}`,
    'unreadable-row-group')
}

/** Joins chunk parts into exactly the rows `[rowStart, rowEnd)`. */
function assemble(parts: { start: number; data: ArrayLike<unknown> }[], rowStart: number, rowEnd: number): unknown[] {
  const out = new Array<unknown>(rowEnd - rowStart)
  let filled = 0
  for (const { start, data } of parts) {
    for (let i = 0; i < data.length; i++) {
      const row = start + i
      if (row >= rowStart && row < rowEnd) {
        const value = data[i]
        out[row - rowStart] = typeof value === 'bigint' ? Number(value) : value
        filled++
      }
    }
  }
  if (filled < out.length) for (let i = 0; i < out.length; i++) if (!(i in out)) out[i] = undefined
  return out
}

/** A cell as a Number (INT64 BigInt converted); `null` for null/undefined; NaN for anything not numeric. */
export function toNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'bigint') return Number(value)
  if (typeof value === 'number') return value
  return NaN
}

/** A cell as a string: strings as is, byte arrays decoded as UTF-8; `null` for null. */
export function toText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return utf8.decode(value)
  return String(value)
}

// ignoreBOM: a value's leading U+FEFF is a character of it, as pyarrow reads it
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })
