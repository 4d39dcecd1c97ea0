/**
 * Footer reads that fetch only what is needed (docs/conventions.md "HTTP datasets"): a small tail read sized from the footers
 * seen so far, and a second read only when the metadata is longer. hyparquet's own default (512 KiB) would read small
 * files whole.
 */
import { parquetMetadata, type FileMetaData } from 'hyparquet'
import { MixscopeError } from '../core/findings.ts'
import type { RowGroupInfo } from './types.ts'
import type { DatasetSource, ReadOptions } from '../source/source.ts'
import type { ChunkCache } from './chunk-cache.ts'

const magic = 0x31524150 // "PAR1" little-endian

/** Learns how big footers are in this dataset so the next tail read usually gets all of it in one request. */
export class FooterSizer {
  private largest = 0
  /** @param minimum smallest tail read in bytes (default 4 KiB) */
  constructor(readonly minimum = 4096) {}
  /** Bytes to read from the end of a file of `size` bytes. */
  tailBytes(size: number): number {
    return Math.min(size, Math.max(this.minimum, Math.ceil(this.largest * 1.25) + 8))
  }
  observe(metadataLength: number): void {
    this.largest = Math.max(this.largest, metadataLength + 8)
  }
}

/** A footer as read: parsed, and the bytes it was parsed from (metadata, length, magic). */
export interface ReadFooter {
  metadata: FileMetaData
  bytes: Uint8Array
}

/**
 * Reads and parses the footer of `path`.
 * @param cache keeps the bytes read (the tail usually holds the last row group's last, small column chunks too, which
 * stats then reads from memory: one request less per file)
 * @throws MixscopeError (`unreadable-parquet`) naming the file and what was wrong
 */
export async function readFooter(
  source: DatasetSource,
  path: string,
  size: number,
  sizer: FooterSizer,
  options: ReadOptions = {},
  cache?: ChunkCache,
): Promise<ReadFooter> {
  const fail = (what: string) => new MixscopeError(`parquet: ${path}: ${what}`, 'unreadable-parquet')
  if (size < 12) throw fail(`file is ${size} bytes, too small for a parquet file (at least 12)`)
  const tailLength = sizer.tailBytes(size)
  let tail = await source.read(path, size - tailLength, size, options)
  if (tail.byteLength !== tailLength) throw fail(`read ${tail.byteLength} bytes of the footer, expected ${tailLength}`)
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength)
  const end = view.getUint32(tail.byteLength - 4, true)
  if (end !== magic) {
    throw fail(`no PAR1 footer magic (last 4 bytes are 0x${end.toString(16).padStart(8, '0')}): not parquet, or truncated`)
  }
  const metadataLength = view.getUint32(tail.byteLength - 8, true)
  if (metadataLength + 8 > size - 4) throw fail(`footer length ${metadataLength} exceeds the file size ${size}`)
  sizer.observe(metadataLength)
  if (metadataLength + 8 > tailLength) {
    const head = await source.read(path, size - metadataLength - 8, size - tailLength, options)
    const joined = new Uint8Array(metadataLength + 8)
    joined.set(head)
    joined.set(tail, head.byteLength)
    tail = joined
  }
  cache?.setRange(path, size - tail.byteLength, tail)
  // a copy of its own (a Node Buffer's `slice` would be a view into a shared pool)
  const footer = Uint8Array.prototype.slice.call(tail, tail.byteLength - metadataLength - 8)
  try {
    return { metadata: parquetMetadata(footer.buffer), bytes: footer }
  } catch (error) {
    throw fail(`footer metadata does not parse (${(error as Error).message})`)
  }
}

/** Row groups of a footer as plain numbers (`compressedBytes`: Σ `total_compressed_size` of its column chunks). */
export function rowGroupsOf(metadata: FileMetaData): RowGroupInfo[] {
  let firstRow = 0
  return metadata.row_groups.map((rg, index) => {
    const rows = Number(rg.num_rows)
    let compressedBytes = 0
    for (const c of rg.columns) compressedBytes += Number(c.meta_data?.total_compressed_size ?? 0)
    const info = { index, rows, firstRow, compressedBytes }
    firstRow += rows
    return info
  })
}
