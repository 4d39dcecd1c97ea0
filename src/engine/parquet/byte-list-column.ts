/**
 * Fast path for `audio_bytes` stored as `list<int8>` (the dataprep's layout, docs/reference-pipeline.md §17), and for
 * flat integer columns (`audio_size`). hyparquet's generic reader assembles nested lists value by value into JS
 * arrays, one JS number per audio byte; this reader walks the column chunk's pages with hyparquet's own page
 * primitives (`parquetHeader`, `decompressPage`, `readRleBitPackedHybrid`, `readPlain`, `deltaBinaryUnpack`) into typed
 * level and value arrays, then writes each row straight into one `Uint8Array`. `npm run bench -- parquet` measures
 * both on the same chunks (ns per byte, and the ratio to hyparquet).
 */
import type { ColumnChunk, CompressionCodec, DataReader, DecodedArray, FileMetaData } from 'hyparquet'
import { boundedCompressors as compressors } from './bounded-compressors.ts'
import { parquetHeader } from 'hyparquet/src/column.js'
import { decompressPage } from 'hyparquet/src/datapage.js'
import { deltaBinaryUnpack } from 'hyparquet/src/delta.js'
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js'
import { readPlain } from 'hyparquet/src/plain.js'

/** A page this fast path does not decode (e.g. DELTA_BINARY_PACKED values): the caller falls back to hyparquet. */
export class UnsupportedPageError extends Error {
  constructor(what: string) {
    super(`byte-list fast path: unsupported ${what}`)
    this.name = 'UnsupportedPageError'
  }
}

/** Levels of a list column path: `maxDef`, `maxRep`, and the definition level meaning "empty list". */
export interface ListLevels {
  maxDefinition: number
  maxRepetition: number
  /** def < this → the row itself is null */
  rowDefined: number
  /** def === this → an empty list */
  emptyList: number
}

/** Levels of column `name` (a top-level list of 8-bit integers) from the footer schema; `null` when it is not such a list. */
export function listLevels(metadata: FileMetaData, name: string): ListLevels | null {
  const schema = metadata.schema
  const topIndex = findTopLevel(metadata, name)
  if (topIndex < 0) return null
  const path = []
  let i = topIndex
  for (;;) {
    const e = schema[i]
    path.push(e)
    if (!e.num_children) break
    if (e.num_children !== 1) return null
    i++
  }
  const leaf = path[path.length - 1]
  const isByte = leaf.logical_type?.type === 'INTEGER' ? leaf.logical_type.bitWidth === 8 : leaf.converted_type === 'INT_8' || leaf.converted_type === 'UINT_8'
  if (leaf.type !== 'INT32' || !isByte) return null
  let maxDefinition = 0
  let maxRepetition = 0
  let emptyList = -1
  for (const e of path) {
    if (e.repetition_type === 'REPEATED') {
      if (emptyList < 0) emptyList = maxDefinition
      maxRepetition++
      maxDefinition++
    } else if (e.repetition_type === 'OPTIONAL') {
      maxDefinition++
    }
  }
  const rowDefined = path[0].repetition_type === 'OPTIONAL' ? 1 : 0
  if (maxRepetition !== 1) return null
  return { maxDefinition, maxRepetition, rowDefined, emptyList }
}

/** Index in the footer schema of top-level column `name`, or -1. */
export function findTopLevel(metadata: FileMetaData, name: string): number {
  const schema = metadata.schema
  let i = 1
  while (i < schema.length) {
    if (schema[i].name === name) return i
    i = skipSubtree(schema, i)
  }
  return -1
}

function skipSubtree(schema: FileMetaData['schema'], i: number): number {
  let next = i + 1
  for (let k = 0; k < (schema[i].num_children ?? 0); k++) next = skipSubtree(schema, next)
  return next
}

/** The byte range `[start, end)` of a column chunk (dictionary page included). */
export function chunkRange(chunk: ColumnChunk): [number, number] {
  const m = chunk.meta_data!
  const start = Number(m.dictionary_page_offset ?? m.data_page_offset)
  const dataStart = Number(m.data_page_offset)
  const begin = m.dictionary_page_offset !== undefined && Number(m.dictionary_page_offset) > 0 ? Math.min(start, dataStart) : dataStart
  return [begin, begin + Number(m.total_compressed_size)]
}

export function bitWidthOf(max: number): number {
  return max === 0 ? 0 : 32 - Math.clz32(max)
}

export const readerOf = (bytes: Uint8Array, offset = 0): DataReader => ({ view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset })

/** Decompresses one page body; `UnsupportedPageError` for a codec neither hyparquet nor hyparquet-compressors has. */
export function decompress(codec: CompressionCodec, input: Uint8Array, size: number): Uint8Array {
  if (codec !== 'UNCOMPRESSED' && codec !== 'SNAPPY' && !(codec in compressors)) throw new UnsupportedPageError(`compression ${codec}`)
  return decompressPage(input, size, codec, compressors)
}

/** One page of a column chunk, as `chunkPages` yields it. */
export type ChunkPage =
  /** The dictionary page, decompressed: `count` PLAIN values. */
  | { kind: 'dictionary'; page: Uint8Array; count: number }
  /**
   * A data page (v1 or v2) whose levels are already in the caller's arrays at `[first, first + count)`; `present` of
   * its values are non-null, and `values` reads them (decompressed, past the levels), in `encoding`.
   */
  | { kind: 'data'; first: number; count: number; present: number; encoding: string; values: DataReader }

/**
 * Walks a column chunk's pages with hyparquet's page primitives, writing each data page's repetition levels into
 * `rep` (when `maxRepetition > 0`) and definition levels into `def` (all `maxDefinition` when the column is
 * required), and yields the dictionary and data pages (index pages are skipped). Stops after `def.length` values;
 * throws when the bytes end before them or the pages hold more.
 */
export function* chunkPages(chunkBytes: Uint8Array, codec: CompressionCodec, rep: Uint8Array, maxRepetition: number, def: Uint8Array, maxDefinition: number): Generator<ChunkPage> {
  const total = def.length
  const reader = readerOf(chunkBytes)
  const repWidth = bitWidthOf(maxRepetition)
  const defWidth = bitWidthOf(maxDefinition)
  let first = 0
  while (first < total) {
    if (reader.offset >= chunkBytes.length) throw new Error(`column chunk ends after ${first} of ${total} values`)
    const header = parquetHeader(reader)
    const size = header.compressed_page_size
    const body = chunkBytes.subarray(reader.offset, reader.offset + size)
    reader.offset += size
    if (body.length !== size) throw new Error(`page of ${size} bytes is cut short (${body.length})`)
    if (header.type === 'DICTIONARY_PAGE') {
      yield { kind: 'dictionary', page: decompress(codec, body, header.uncompressed_page_size), count: header.dictionary_page_header!.num_values }
      continue
    }
    if (header.type !== 'DATA_PAGE' && header.type !== 'DATA_PAGE_V2') continue // index pages
    const v1 = header.type === 'DATA_PAGE'
    const h = v1 ? header.data_page_header! : header.data_page_header_v2!
    const count = h.num_values
    if (first + count > total) throw new Error(`pages hold more than the chunk's ${total} values`)
    const end = first + count
    let values: DataReader
    if (v1) { // everything compressed, each level run length-prefixed
      values = readerOf(decompress(codec, body, header.uncompressed_page_size))
      if (repWidth > 0) readRleBitPackedHybrid(values, repWidth, rep.subarray(first, end))
      if (defWidth > 0) readRleBitPackedHybrid(values, defWidth, def.subarray(first, end))
    } else { // levels uncompressed with their lengths in the header, values maybe compressed
      const v2 = header.data_page_header_v2!
      const repLength = v2.repetition_levels_byte_length
      const defLength = v2.definition_levels_byte_length
      if (repWidth > 0) readRleBitPackedHybrid(readerOf(body), repWidth, rep.subarray(first, end), repLength)
      if (defWidth > 0) readRleBitPackedHybrid(readerOf(body, repLength), defWidth, def.subarray(first, end), defLength)
      const rest = body.subarray(repLength + defLength)
      values = readerOf(v2.is_compressed ? decompress(codec, rest, header.uncompressed_page_size - repLength - defLength) : rest)
    }
    if (defWidth === 0) def.fill(maxDefinition, first, end)
    let present = 0
    for (let k = first; k < end; k++) if (def[k] === maxDefinition) present++
    yield { kind: 'data', first, count, present, encoding: h.encoding, values }
    first = end
  }
}

/** INT32 values as they are; INT64 (BigInt) values widened to Numbers (exact below 2^53). */
function asNumbers(values: DecodedArray): Int32Array | Float64Array {
  if (values instanceof Int32Array) return values
  const out = new Float64Array(values.length)
  if (values instanceof BigInt64Array) for (let k = 0; k < values.length; k++) out[k] = Number(values[k])
  else out.set(values as ArrayLike<number>)
  return out
}

/** Levels and values of one column chunk, as the pages hold them. */
interface ChunkLevels {
  rep: Uint8Array
  def: Uint8Array
  /** Non-null values in order (`present` of them); INT64 values widened to Numbers. */
  values: Int32Array | Float64Array
  present: number
}

/**
 * Walks a column chunk's pages (dictionary, v1, v2) and decodes its levels and INT32/INT64 values (PLAIN,
 * dictionary or DELTA_BINARY_PACKED). Anything else throws `UnsupportedPageError` so the caller can fall back to
 * hyparquet's generic reader.
 */
function readChunkLevels(chunkBytes: Uint8Array, chunk: ColumnChunk, maxRepetition: number, maxDefinition: number): ChunkLevels {
  const meta = chunk.meta_data!
  const codec = meta.codec
  const int64 = meta.type === 'INT64'
  if (!int64 && meta.type !== 'INT32') throw new UnsupportedPageError(`physical type ${meta.type}`)
  const totalValues = Number(meta.num_values)
  const rep = new Uint8Array(maxRepetition > 0 ? totalValues : 0)
  const def = new Uint8Array(totalValues)
  // values of each data page; a chunk of one PLAIN page (the usual audio_bytes chunk) keeps its page's array, uncopied
  const pages: (Int32Array | Float64Array)[] = []
  let dictionary: Int32Array | Float64Array | null = null
  let valueCount = 0
  for (const page of chunkPages(chunkBytes, codec, rep, maxRepetition, def, maxDefinition)) {
    if (page.kind === 'dictionary') {
      dictionary = asNumbers(readPlain(readerOf(page.page), meta.type, page.count, undefined))
      continue
    }
    const { present, encoding, values: valueReader } = page
    if (encoding === 'PLAIN') {
      if (valueReader.view.byteLength - valueReader.offset < present * (int64 ? 8 : 4)) {
        throw new Error(`PLAIN page holds ${valueReader.view.byteLength - valueReader.offset} bytes for ${present} ${meta.type} values`)
      }
      pages.push(asNumbers(readPlain(valueReader, meta.type, present, undefined)))
    } else if (encoding === 'RLE_DICTIONARY' || encoding === 'PLAIN_DICTIONARY') {
      if (!dictionary) throw new Error('dictionary-encoded page without a dictionary page')
      const indices = new Int32Array(present)
      const bitWidth = valueReader.view.getUint8(valueReader.offset++)
      if (bitWidth > 0 && present > 0) readRleBitPackedHybrid(valueReader, bitWidth, indices, valueReader.view.byteLength - valueReader.offset)
      const page = int64 ? new Float64Array(present) : new Int32Array(present)
      for (let k = 0; k < present; k++) {
        const value = dictionary[indices[k]]
        if (value === undefined) throw new Error(`dictionary index ${indices[k]} is past the dictionary's ${dictionary.length} values`)
        page[k] = value
      }
      pages.push(page)
    } else if (encoding === 'DELTA_BINARY_PACKED') {
      const decoded = int64 ? new BigInt64Array(present) : new Int32Array(present)
      if (present > 0) deltaBinaryUnpack(valueReader, present, decoded)
      pages.push(asNumbers(decoded))
    } else {
      throw new UnsupportedPageError(`value encoding ${encoding}`)
    }
    valueCount += present
  }
  let values: Int32Array | Float64Array
  if (pages.length === 1) values = pages[0]
  else {
    values = int64 ? new Float64Array(valueCount) : new Int32Array(valueCount)
    let at = 0
    for (const page of pages) { values.set(page, at); at += page.length }
  }
  return { rep, def, values, present: valueCount }
}

/**
 * Decodes one row group's `list<int8>` column chunk into one `Uint8Array` per row (`null` for a null row).
 * @param chunkBytes the column chunk's bytes (`chunkRange`)
 * @param rows rows in the row group
 * @throws Error naming the page and what was wrong
 */
export function decodeByteListChunk(chunkBytes: Uint8Array, chunk: ColumnChunk, levels: ListLevels, rows: number): (Uint8Array | null)[] {
  const { rep, def, values } = readChunkLevels(chunkBytes, chunk, levels.maxRepetition, levels.maxDefinition)
  return assembleRows(rep, def, values as Int32Array, levels, rows)
}

/** Max definition level of a flat top-level INT32/INT64 column (0 required, 1 optional); `null` when not such a column. */
export function flatIntLevels(metadata: FileMetaData, name: string): number | null {
  const i = findTopLevel(metadata, name)
  if (i < 0) return null
  const e = metadata.schema[i]
  if (e.num_children || (e.type !== 'INT32' && e.type !== 'INT64') || e.repetition_type === 'REPEATED') return null
  return e.repetition_type === 'OPTIONAL' ? 1 : 0
}

/**
 * Decodes a flat INT32/INT64 column chunk (e.g. `audio_size`) into Numbers per row, `null` for nulls
 * (hyparquet's per-call planning dominates stats, which reads ~4 of these per file).
 */
export function decodeFlatIntChunk(chunkBytes: Uint8Array, chunk: ColumnChunk, maxDefinition: number, rows: number): (number | null)[] {
  const { def, values } = readChunkLevels(chunkBytes, chunk, 0, maxDefinition)
  if (def.length !== rows) throw new Error(`decoded ${def.length} values, the footer says ${rows} rows`)
  const out = new Array<number | null>(rows)
  let v = 0
  for (let k = 0; k < rows; k++) out[k] = def[k] === maxDefinition ? values[v++] : null
  return out
}

function assembleRows(rep: Uint8Array, def: Uint8Array, values: Int32Array, levels: ListLevels, rows: number): (Uint8Array | null)[] {
  const out: (Uint8Array | null)[] = []
  const maxDefinition = levels.maxDefinition
  let v = 0
  let k = 0
  const n = rep.length
  while (k < n) {
    if (rep[k] !== 0) throw new Error(`row ${out.length} starts with repetition level ${rep[k]}`)
    if (def[k] < levels.rowDefined) { out.push(null); k++; continue }
    if (def[k] === levels.emptyList) { out.push(new Uint8Array(0)); k++; continue }
    // one pass over the row's levels: find its end, and refuse a null byte on the way
    let end = k
    do {
      if (def[end] !== maxDefinition) throw new Error(`row ${out.length} has a null byte at position ${end - k}`)
      end++
    } while (end < n && rep[end] !== 0)
    // Int32 → Uint8 element-wise (wrapping, as the signed bytes were stored): one native copy per row
    const row = new Uint8Array(end - k)
    row.set(values.subarray(v, v + row.length))
    v += row.length
    out.push(row)
    k = end
  }
  if (out.length !== rows) throw new Error(`decoded ${out.length} rows, the footer says ${rows}`)
  return out
}
