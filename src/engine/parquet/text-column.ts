/**
 * Fast path for a flat string column (`text`) read for a few of its rows: one row group's chunk is walked with
 * hyparquet's page primitives into the pages' own bytes and per-row offsets, and a row becomes a string only when it is
 * asked for. A mixture of thousands of partition streams reads a whole row group per stream to take a few rows of it
 * (docs/reference-pipeline.md §5, §7); decoding every transcript of it would be most of the planner's work.
 */
import type { ColumnChunk, DataReader, FileMetaData } from 'hyparquet'
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js'
import { chunkPages, findTopLevel, readerOf, UnsupportedPageError } from './byte-list-column.ts'

// ignoreBOM: a value's leading U+FEFF is a character of it, as pyarrow reads it
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** One row group of a string column: each row's UTF-8 bytes, decoded on demand. */
export class TextCells {
  constructor(
    /** Value buffers: the dictionary page's and each data page's. */
    private readonly buffers: Uint8Array[],
    /** Per row: index into `buffers`, or -1 for a null. */
    private readonly buffer: Int32Array,
    private readonly start: Int32Array,
    private readonly end: Int32Array,
  ) {}

  /** Rows in the row group. */
  get length(): number {
    return this.buffer.length
  }

  /** Whether row `i` is null. */
  isNull(i: number): boolean {
    return this.buffer[i] < 0
  }

  /** Row `i` as a string (`TextDecoder` semantics), or `null`. */
  get(i: number): string | null {
    const b = this.buffer[i]
    return b < 0 ? null : utf8.decode(this.buffers[b].subarray(this.start[i], this.end[i]))
  }
}

/** Max definition level of a flat top-level BYTE_ARRAY column (0 required, 1 optional); `null` when not such a column. */
export function flatByteArrayLevels(metadata: FileMetaData, name: string): number | null {
  const i = findTopLevel(metadata, name)
  if (i < 0) return null
  const e = metadata.schema[i]
  if (e.num_children || e.type !== 'BYTE_ARRAY' || e.repetition_type === 'REPEATED') return null
  return e.repetition_type === 'OPTIONAL' ? 1 : 0
}

/** PLAIN BYTE_ARRAY values: `count` length-prefixed values from `reader`, their offsets into `starts` / `ends`. */
function plainOffsets(reader: DataReader, count: number, starts: Int32Array, ends: Int32Array, at: number): void {
  const { view } = reader
  let offset = reader.offset
  for (let k = 0; k < count; k++) {
    if (offset + 4 > view.byteLength) throw new Error(`PLAIN page ends after ${k} of ${count} values`)
    const length = view.getUint32(offset, true)
    offset += 4
    if (offset + length > view.byteLength) throw new Error(`PLAIN value ${k} of ${length} bytes runs past its page`)
    starts[at + k] = view.byteOffset + offset
    ends[at + k] = view.byteOffset + offset + length
    offset += length
  }
  reader.offset = offset
}

/**
 * Decodes one row group's flat BYTE_ARRAY column chunk (PLAIN or dictionary pages, v1 or v2) into `TextCells`.
 * Anything else throws `UnsupportedPageError` so the caller can fall back to hyparquet.
 * @param rows rows in the row group
 */
export function decodeTextChunk(chunkBytes: Uint8Array, chunk: ColumnChunk, maxDefinition: number, rows: number): TextCells {
  const meta = chunk.meta_data!
  const codec = meta.codec
  const totalValues = Number(meta.num_values)
  if (totalValues !== rows) throw new Error(`column chunk holds ${totalValues} values, the footer says ${rows} rows`)
  const buffers: Uint8Array[] = []
  const buffer = new Int32Array(rows)
  const start = new Int32Array(rows)
  const end = new Int32Array(rows)
  const def = new Uint8Array(rows)
  let dictionary: { index: number; starts: Int32Array; ends: Int32Array } | null = null
  for (const page of chunkPages(chunkBytes, codec, new Uint8Array(0), 0, def, maxDefinition)) {
    if (page.kind === 'dictionary') {
      const starts = new Int32Array(page.count)
      const ends = new Int32Array(page.count)
      plainOffsets(readerOf(page.page), page.count, starts, ends, 0)
      buffers.push(new Uint8Array(page.page.buffer)) // (offsets are into the page's underlying buffer)
      dictionary = { index: buffers.length - 1, starts, ends }
      continue
    }
    const { first: row, count: numValues, present, encoding, values } = page
    const starts = new Int32Array(present)
    const ends = new Int32Array(present)
    let source: number
    if (encoding === 'PLAIN') {
      plainOffsets(values, present, starts, ends, 0)
      // offsets are into the page's underlying buffer
      buffers.push(new Uint8Array(values.view.buffer))
      source = buffers.length - 1
    } else if (encoding === 'RLE_DICTIONARY' || encoding === 'PLAIN_DICTIONARY') {
      if (!dictionary) throw new Error('dictionary-encoded page without a dictionary page')
      const indices = new Int32Array(present)
      const bitWidth = values.view.getUint8(values.offset++)
      if (bitWidth > 0 && present > 0) readRleBitPackedHybrid(values, bitWidth, indices, values.view.byteLength - values.offset)
      for (let k = 0; k < present; k++) {
        const d = indices[k]
        if (d >= dictionary.starts.length) throw new Error(`dictionary index ${d} is past the dictionary's ${dictionary.starts.length} values`)
        starts[k] = dictionary.starts[d]
        ends[k] = dictionary.ends[d]
      }
      source = dictionary.index
    } else {
      throw new UnsupportedPageError(`value encoding ${encoding}`)
    }
    let v = 0
    for (let k = row; k < row + numValues; k++) {
      if (def[k] === maxDefinition) {
        buffer[k] = source
        start[k] = starts[v]
        end[k] = ends[v++]
      } else buffer[k] = -1
    }
  }
  return new TextCells(buffers, buffer, start, end)
}
