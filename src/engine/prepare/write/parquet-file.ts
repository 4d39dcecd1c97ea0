/**
 * One output parquet file with the reference dataprep's schema (docs/reference-pipeline.md §17): `text: string`,
 * `audio_bytes: list<int8>`, `audio_size: int64` (the hive keys are folders, not columns), written row group by
 * row group to an `OutputFile`. hyparquet-writer writes the `text` and `audio_size` chunks, the page indexes and
 * the footer; the `audio_bytes` chunk is laid out here, because hyparquet-writer assembles nested lists value by
 * value (~150 ns a byte, 15 s for one row group of 100 clips). The layout is pyarrow's default for this column:
 * a 256-entry dictionary page and dictionary-indexed data pages (v1), with the dictionary ordered so that each
 * index is the stored byte itself: a page's values are the encoded audio file, bit-packed at width 8 (a copy).
 */
import type { ColumnChunk, FileMetaData, RowGroup, SchemaElement } from 'hyparquet'
import { ByteWriter } from 'hyparquet-writer'
import { writeColumn } from 'hyparquet-writer/src/column.js'
import { writePageHeader } from 'hyparquet-writer/src/datapage.js'
import { writeIndexes } from 'hyparquet-writer/src/indexes.js'
import { writeMetadata } from 'hyparquet-writer/src/metadata.js'
import { snappyCompress } from 'hyparquet-writer/src/snappy.js'
import type { OutputFile } from './sink.ts'

/** One output row. */
export interface PreparedRow {
  /** The normalized transcript. */
  text: string
  /** The encoded audio file (FLAC or Ogg). */
  audio: Uint8Array
  /** Samples at 16 kHz before encoding. */
  audioSize: number
}

/** The reference's schema, as pyarrow writes `text: string, audio_bytes: list<int8>, audio_size: int64`. */
export const PREPARED_SCHEMA: SchemaElement[] = [
  { name: 'schema', num_children: 3 },
  { name: 'text', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
  { name: 'audio_bytes', repetition_type: 'OPTIONAL', converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  // converted type only: hyparquet-writer 0.17 writes the INTEGER logical type's required i8 bitWidth as an i32,
  // which Thrift readers (DuckDB, Arrow) reject; INT_8 alone reads as int8 everywhere
  { name: 'element', type: 'INT32', repetition_type: 'OPTIONAL', converted_type: 'INT_8' },
  { name: 'audio_size', type: 'INT64', repetition_type: 'OPTIONAL' },
]

/** Target data page size (pyarrow's default, 1 MiB); a page always ends at a row boundary. */
const PAGE_SIZE = 1 << 20

type ColumnResult = ReturnType<typeof writeColumn>

/** A `Writer` whose bytes go to the output file after each row group (its `offset` keeps counting the file). */
class SinkWriter extends ByteWriter {
  constructor(private readonly file: OutputFile) {
    super(1 << 16)
  }

  async drain(): Promise<void> {
    if (this.index === 0) return
    const bytes = new Uint8Array(this.buffer, 0, this.index).slice()
    this.index = 0
    await this.file.write(bytes)
  }
}

/** Writes one parquet file of prepared rows. */
export class PreparedParquetWriter {
  private readonly writer: SinkWriter
  private readonly rowGroups: RowGroup[] = []
  private readonly indexes: ColumnResult[] = []
  private rows = 0n

  /** @param createdBy the footer's `created_by` */
  constructor(file: OutputFile, private readonly createdBy = 'mixscope prepare (hyparquet-writer)') {
    this.writer = new SinkWriter(file)
    this.writer.appendUint32(0x31524150) // PAR1
  }

  /** Rows written so far. */
  get rowCount(): number {
    return Number(this.rows)
  }

  /** Writes `rows` as one row group and hands its bytes to the file. */
  async writeRowGroup(rows: PreparedRow[]): Promise<void> {
    if (rows.length === 0) return
    const w = this.writer
    const start = w.offset
    const text = this.flatColumn(PREPARED_SCHEMA[1], rows.map((r) => r.text))
    const audio = writeByteListChunk(w, rows.map((r) => r.audio))
    const size = this.flatColumn(PREPARED_SCHEMA[5], rows.map((r) => BigInt(r.audioSize)))
    const columns = [text.chunk, audio, size.chunk]
    let uncompressed = 0n
    for (const c of columns) uncompressed += c.meta_data?.total_uncompressed_size ?? 0n
    this.rowGroups.push({ columns, total_byte_size: uncompressed, num_rows: BigInt(rows.length), total_compressed_size: BigInt(w.offset - start), file_offset: BigInt(start) })
    this.indexes.push(text, size)
    this.rows += BigInt(rows.length)
    await w.drain()
  }

  /** Writes the page indexes and the footer, then closes the file. */
  async finish(): Promise<void> {
    const w = this.writer
    writeIndexes(w, this.indexes)
    const metadata: Omit<FileMetaData, 'metadata_length'> = {
      version: 2, schema: PREPARED_SCHEMA, num_rows: this.rows, row_groups: this.rowGroups, created_by: this.createdBy,
    }
    writeMetadata(w, metadata as FileMetaData)
    w.appendUint32(0x31524150)
    await w.drain()
  }

  /** A flat optional column chunk through hyparquet-writer (statistics, SNAPPY, offset index). */
  private flatColumn(element: SchemaElement, values: (string | bigint)[]): ColumnResult {
    return writeColumn({
      writer: this.writer,
      column: {
        columnName: element.name, element, schemaPath: [PREPARED_SCHEMA[0], element], codec: 'SNAPPY',
        compressors: { SNAPPY: snappyCompress }, stats: true, pageSize: PAGE_SIZE, columnIndex: false, offsetIndex: true,
      },
      pageData: { values, definitionLevels: values.map(() => 1), repetitionLevels: [], maxDefinitionLevel: 1 },
    })
  }
}

/** Appends an unsigned LEB128 varint. */
function varint(out: number[], value: number): void {
  while (value > 0x7f) {
    out.push((value & 0x7f) | 0x80)
    value = Math.floor(value / 128)
  }
  out.push(value)
}

/** A run of `count` copies of `value` in the RLE/bit-packed hybrid (one byte holds bit widths ≤ 8). */
function rleRun(out: number[], count: number, value: number): void {
  varint(out, count * 2)
  out.push(value)
}

/** The uint32 length prefix + bytes of a v1 page's level section. */
function prefixed(levels: number[]): Uint8Array {
  const out = new Uint8Array(4 + levels.length)
  new DataView(out.buffer).setUint32(0, levels.length, true)
  out.set(levels, 4)
  return out
}

/**
 * Writes the `audio_bytes.list.element` chunk of one row group: the dictionary page (int8 values in the order
 * 0…127, −128…−1, so that index = byte) and v1 data pages (rep levels bit width 1, def levels bit width 2 — all 3,
 * since every row holds a non-empty file —, values one bit-packed run at width 8), UNCOMPRESSED (encoded audio does
 * not compress).
 */
function writeByteListChunk(w: ByteWriter, files: Uint8Array[]): ColumnChunk {
  const chunkStart = w.offset
  for (const [i, f] of files.entries()) if (f.length === 0) throw new Error(`parquet: row ${i} has empty audio_bytes (prepare never writes one)`)
  // dictionary page
  const dictionary = new Uint8Array(256 * 4)
  const view = new DataView(dictionary.buffer)
  for (let i = 0; i < 256; i++) view.setInt32(4 * i, (i << 24) >> 24, true)
  const dictionaryOffset = w.offset
  writePageHeader(w, { type: 'DICTIONARY_PAGE', uncompressed_page_size: dictionary.length, compressed_page_size: dictionary.length, dictionary_page_header: { num_values: 256, encoding: 'PLAIN' } })
  w.appendBytes(dictionary)
  let uncompressed = w.offset - dictionaryOffset
  const dataOffset = w.offset
  let values = 0
  for (let first = 0; first < files.length;) {
    // rows of this page: at least one, then while under the page size
    let last = first
    let bytes = files[first].length
    while (last + 1 < files.length && bytes + files[last + 1].length <= PAGE_SIZE) bytes += files[++last].length
    const rep: number[] = []
    for (let r = first; r <= last; r++) {
      rleRun(rep, 1, 0)
      if (files[r].length > 1) rleRun(rep, files[r].length - 1, 1)
    }
    const def: number[] = []
    rleRun(def, bytes, 3)
    const groups = Math.ceil(bytes / 8)
    const header: number[] = [8] // bit width of the dictionary indices
    varint(header, groups * 2 + 1)
    const repBytes = prefixed(rep)
    const defBytes = prefixed(def)
    const pageSize = repBytes.length + defBytes.length + header.length + groups * 8
    const pageStart = w.offset
    writePageHeader(w, {
      type: 'DATA_PAGE', uncompressed_page_size: pageSize, compressed_page_size: pageSize,
      data_page_header: { num_values: bytes, encoding: 'RLE_DICTIONARY', definition_level_encoding: 'RLE', repetition_level_encoding: 'RLE' },
    })
    w.appendBytes(repBytes)
    w.appendBytes(defBytes)
    w.appendBytes(new Uint8Array(header))
    for (let r = first; r <= last; r++) w.appendBytes(files[r])
    if (groups * 8 > bytes) w.appendBytes(new Uint8Array(groups * 8 - bytes))
    uncompressed += w.offset - pageStart
    values += bytes
    first = last + 1
  }
  return {
    file_offset: BigInt(chunkStart),
    meta_data: {
      type: 'INT32', encodings: ['PLAIN', 'RLE', 'RLE_DICTIONARY'], path_in_schema: ['audio_bytes', 'list', 'element'], codec: 'UNCOMPRESSED',
      num_values: BigInt(values), total_uncompressed_size: BigInt(uncompressed), total_compressed_size: BigInt(w.offset - chunkStart),
      data_page_offset: BigInt(dataOffset), dictionary_page_offset: BigInt(dictionaryOffset),
    },
  }
}
