/**
 * Fast path for `audio_bytes` stored as `list<int8>` (the dataprep's layout, docs/reference-pipeline.md §17). hyparquet assembles
 * nested lists value by value into JS arrays (measured ~50–120 ns per byte, see bench/); this reader decodes the
 * column chunk's pages itself (levels with the RLE/bit-packed hybrid, PLAIN or dictionary INT32 values) and writes
 * each row straight into one `Uint8Array` (~2–4 ns per byte). Hand-written because no maintained library exposes
 * parquet pages with their levels; decompression still uses hyparquet-compressors.
 */
import type { ColumnChunk, FileMetaData } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { readStruct, type ByteCursor, type ThriftStruct } from './thrift-compact.ts'

const codecs = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'] as const
const encodingPlain = 0
const encodingPlainDictionary = 2
const encodingRleDictionary = 8

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

function findTopLevel(metadata: FileMetaData, name: string): number {
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

function decompress(codec: string, input: Uint8Array, size: number): Uint8Array {
  if (codec === 'UNCOMPRESSED') return input
  const fn = (compressors as Record<string, ((input: Uint8Array, outputLength: number) => Uint8Array) | undefined>)[codec]
  if (!fn) throw new UnsupportedPageError(`compression ${codec}`)
  const out = fn(input, size)
  if (out.length !== size) throw new Error(`${codec} page decompressed to ${out.length} bytes, expected ${size}`)
  return out
}

function bitWidthOf(max: number): number {
  return max === 0 ? 0 : 32 - Math.clz32(max)
}

/** Decodes `count` values of the RLE/bit-packed hybrid from `bytes[start, end)` into `out` at `at`. */
function readHybrid(bytes: Uint8Array, start: number, end: number, bitWidth: number, count: number, out: Uint8Array | Int32Array, at: number): void {
  const c: ByteCursor = { bytes, offset: start }
  let n = 0
  const byteWidth = (bitWidth + 7) >> 3
  while (n < count) {
    if (c.offset >= end) throw new Error(`level/index data ends after ${n} of ${count} values`)
    let header = 0
    let shift = 0
    for (;;) {
      const b = bytes[c.offset++]
      header |= (b & 0x7f) << shift
      if ((b & 0x80) === 0) break
      shift += 7
    }
    if (header & 1) {
      const values = (header >>> 1) * 8
      let bitPos = c.offset * 8
      const mask = (1 << bitWidth) - 1
      for (let k = 0; k < values && n < count; k++, n++) {
        let v = 0
        for (let b = 0; b < bitWidth; b++, bitPos++) v |= ((bytes[bitPos >> 3] >> (bitPos & 7)) & 1) << b
        out[at + n] = v & mask
      }
      c.offset += (header >>> 1) * bitWidth
    } else {
      const run = header >>> 1
      let v = 0
      for (let b = 0; b < byteWidth; b++) v |= bytes[c.offset++] << (8 * b)
      const stop = Math.min(count, n + run)
      out.fill(v, at + n, at + stop)
      n = stop
    }
  }
}

/** Levels and values of one column chunk, as the pages hold them. */
export interface ChunkLevels {
  rep: Uint8Array
  def: Uint8Array
  /** Non-null values in order (`present` of them); INT64 values widened to Numbers. */
  values: Int32Array | Float64Array
  present: number
}

/**
 * Walks a column chunk's pages (dictionary, v1, v2) and decodes its levels and INT32/INT64 values
 * (PLAIN or dictionary). Anything else throws `UnsupportedPageError` so the caller can fall back to hyparquet.
 */
export function readChunkLevels(chunkBytes: Uint8Array, chunk: ColumnChunk, maxRepetition: number, maxDefinition: number): ChunkLevels {
  const meta = chunk.meta_data!
  const codec = codecs[meta.codec as unknown as number] ?? String(meta.codec)
  const int64 = meta.type === 'INT64'
  if (!int64 && meta.type !== 'INT32') throw new UnsupportedPageError(`physical type ${meta.type}`)
  const width = int64 ? 8 : 4
  const totalValues = Number(meta.num_values)
  const rep = new Uint8Array(maxRepetition > 0 ? totalValues : 0)
  const def = new Uint8Array(totalValues)
  const values = int64 ? new Float64Array(totalValues) : new Int32Array(totalValues)
  const plain = (bytes: Uint8Array, n: number): ArrayLike<number> => {
    if (bytes.length < n * width) throw new Error(`PLAIN page holds ${bytes.length} bytes for ${n} ${meta.type} values`)
    const copy = bytes.byteOffset % width === 0 ? bytes : bytes.slice(0, n * width)
    if (!int64) return new Int32Array(copy.buffer, copy.byteOffset, n)
    const big = new BigInt64Array(copy.buffer, copy.byteOffset, n)
    const out = new Float64Array(n)
    for (let k = 0; k < n; k++) out[k] = Number(big[k])
    return out
  }
  let dictionary: ArrayLike<number> | null = null
  let levelCount = 0
  let valueCount = 0
  const cursor: ByteCursor = { bytes: chunkBytes, offset: 0 }
  const repWidth = bitWidthOf(maxRepetition)
  const defWidth = bitWidthOf(maxDefinition)
  while (levelCount < totalValues) {
    if (cursor.offset >= chunkBytes.length) throw new Error(`column chunk ends after ${levelCount} of ${totalValues} values`)
    const header = readStruct(cursor)
    const pageType = header.get(1) as number
    const uncompressedSize = header.get(2) as number
    const compressedSize = header.get(3) as number
    const body = chunkBytes.subarray(cursor.offset, cursor.offset + compressedSize)
    cursor.offset += compressedSize
    if (body.length !== compressedSize) throw new Error(`page of ${compressedSize} bytes is cut short (${body.length})`)
    if (pageType === 2) { // DICTIONARY_PAGE
      const page = decompress(codec, body, uncompressedSize)
      dictionary = plain(page, (header.get(7) as ThriftStruct).get(1) as number)
      continue
    }
    if (pageType !== 0 && pageType !== 3) continue // index pages
    let numValues: number
    let encoding: number
    let levelsBytes: Uint8Array
    let valueBytes: Uint8Array
    let repStart = 0, repEnd = 0, defStart = 0, defEnd = 0
    if (pageType === 0) { // DATA_PAGE (v1): everything compressed, levels length-prefixed
      const h = header.get(5) as ThriftStruct
      numValues = h.get(1) as number
      encoding = h.get(2) as number
      const page = decompress(codec, body, uncompressedSize)
      const view = new DataView(page.buffer, page.byteOffset, page.byteLength)
      let at = 0
      if (repWidth > 0) { const n = view.getUint32(at, true); repStart = at + 4; repEnd = repStart + n; at = repEnd }
      if (defWidth > 0) { const n = view.getUint32(at, true); defStart = at + 4; defEnd = defStart + n; at = defEnd }
      levelsBytes = page
      valueBytes = page.subarray(at)
    } else { // DATA_PAGE_V2: levels uncompressed and unprefixed, values maybe compressed
      const h = header.get(8) as ThriftStruct
      numValues = h.get(1) as number
      encoding = h.get(4) as number
      const defLength = h.get(5) as number
      const repLength = h.get(6) as number
      const compressed = h.get(7) !== false
      repStart = 0; repEnd = repLength; defStart = repLength; defEnd = repLength + defLength
      levelsBytes = body
      const rest = body.subarray(defEnd)
      valueBytes = compressed ? decompress(codec, rest, uncompressedSize - defEnd) : rest
    }
    if (levelCount + numValues > totalValues) throw new Error(`pages hold more than the chunk's ${totalValues} values`)
    if (repWidth > 0) readHybrid(levelsBytes, repStart, repEnd, repWidth, numValues, rep, levelCount)
    if (defWidth > 0) readHybrid(levelsBytes, defStart, defEnd, defWidth, numValues, def, levelCount)
    else def.fill(maxDefinition, levelCount, levelCount + numValues)
    let present = 0
    for (let k = levelCount; k < levelCount + numValues; k++) if (def[k] === maxDefinition) present++
    if (encoding === encodingPlain) {
      values.set(plain(valueBytes, present), valueCount)
    } else if (encoding === encodingRleDictionary || encoding === encodingPlainDictionary) {
      if (!dictionary) throw new Error('dictionary-encoded page without a dictionary page')
      const indices = new Int32Array(present)
      readHybrid(valueBytes, 1, valueBytes.length, valueBytes[0], present, indices, 0)
      for (let k = 0; k < present; k++) values[valueCount + k] = dictionary[indices[k]]
    } else {
      throw new UnsupportedPageError(`value encoding ${encoding}`)
    }
    levelCount += numValues
    valueCount += present
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
  let v = 0
  let k = 0
  const n = rep.length
  while (k < n) {
    if (rep[k] !== 0) throw new Error(`row ${out.length} starts with repetition level ${rep[k]}`)
    if (def[k] < levels.rowDefined) { out.push(null); k++; continue }
    if (def[k] === levels.emptyList) { out.push(new Uint8Array(0)); k++; continue }
    let end = k + 1
    while (end < n && rep[end] !== 0) end++
    for (let j = k; j < end; j++) {
      if (def[j] !== levels.maxDefinition) throw new Error(`row ${out.length} has a null byte at position ${j - k}`)
    }
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
