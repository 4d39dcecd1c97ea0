/**
 * Row records: what the audit's row checks keep of one row once its transcript is gone, 40 bytes each, written to a
 * `RowSpill` bucket per partition and read back as a `RowTable` with its transcript columns. A partition is a set of
 * whole languages (`planPartitions`): the length, text and leakage checks group rows by language only, so each
 * partition is checked alone and the results are joined, holding one partition's rows at a time.
 *
 * Layout (32-bit words, little-endian): 0–1 `audio_size` (float64, NaN for null), 2 file (index in the table's
 * files), 3 row, 4 row group, 5 code points of the transcript (int32, −1 for none), 6 transcript kind, 7–8 the
 * normalized transcript's hash, 9 unused (keeps the float64 aligned).
 */
import { hashTranscriptInto, transcriptHashes, type TranscriptHashes } from './transcript-hashes.ts'
import type { RowTable, TableFile } from './row-table.ts'
import type { RowSpill } from './spill.ts'

/** Bytes of one record. */
export const recordBytes = 40
const words = recordBytes / 4

/** Records per chunk handed to the spill. */
const chunkRecords = 8192

/** Batches records per partition and hands full chunks to the spill. */
export class RecordWriter {
  private readonly chunks: { u32: Uint32Array; f64: Float64Array; count: number }[] = []
  private pending: Promise<void>[] = []
  private readonly hash = transcriptHashes(1)

  constructor(private readonly spill: RowSpill, partitions: number) {
    for (let p = 0; p < partitions; p++) this.chunks.push(newChunk())
  }

  /** Adds one row to `partition`: `text` is hashed (normalized) and dropped. */
  add(partition: number, file: number, row: number, rowGroup: number, audioSize: number, chars: number, text: string | null): void {
    const c = this.chunks[partition]
    const w = c.count * words
    hashTranscriptInto(text, this.hash, 0)
    c.f64[w / 2] = audioSize
    c.u32[w + 2] = file
    c.u32[w + 3] = row
    c.u32[w + 4] = rowGroup
    c.u32[w + 5] = chars
    c.u32[w + 6] = this.hash.kind[0]
    c.u32[w + 7] = this.hash.words[0]
    c.u32[w + 8] = this.hash.words[1]
    if (++c.count === chunkRecords) this.hand(partition)
  }

  /** Waits for the chunks handed so far (call after each row group: at most a row group's chunks are in flight). */
  async drain(): Promise<void> {
    const pending = this.pending
    this.pending = []
    await Promise.all(pending)
  }

  /** Hands every partly filled chunk to the spill and waits for all. */
  async flush(): Promise<void> {
    this.chunks.forEach((c, p) => { if (c.count > 0) this.hand(p) })
    await this.drain()
  }

  private hand(partition: number): void {
    const c = this.chunks[partition]
    this.pending.push(this.spill.append(partition, new Uint8Array(c.u32.buffer, 0, c.count * recordBytes)))
    this.chunks[partition] = newChunk()
  }
}

function newChunk(): { u32: Uint32Array; f64: Float64Array; count: number } {
  const buffer = new ArrayBuffer(chunkRecords * recordBytes)
  return { u32: new Uint32Array(buffer), f64: new Float64Array(buffer), count: 0 }
}

/** One partition's rows, in dataset order. */
export interface PartitionRows {
  table: RowTable
  /** Each row's transcript `textMeasure`: code points, −1 for none, −2 − n for a blank one of n. */
  chars: Int32Array
  hashes: TranscriptHashes
}

/**
 * The records of `bytes` as a table over `files`, in dataset order: files in order (a stable counting sort by file,
 * so no comparison sort), then rows in order within each file.
 */
export function readRecords(bytes: Uint8Array, files: readonly TableFile[]): PartitionRows {
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice()
  const n = aligned.byteLength / recordBytes
  const u32 = new Uint32Array(aligned.buffer, aligned.byteOffset, n * words)
  const i32 = new Int32Array(aligned.buffer, aligned.byteOffset, n * words)
  const f64 = new Float64Array(aligned.buffer, aligned.byteOffset, n * words / 2)
  const start = new Int32Array(files.length + 1)
  for (let r = 0; r < n; r++) start[u32[r * words + 2] + 1]++
  for (let f = 0; f < files.length; f++) start[f + 1] += start[f]
  // record → position in dataset order
  const order = new Int32Array(n)
  const at = start.slice(0, files.length)
  for (let r = 0; r < n; r++) order[at[u32[r * words + 2]]++] = r
  const fileOf = new Int32Array(n)
  const row = new Float64Array(n)
  const rowGroup = new Int32Array(n)
  const audioSize = new Float64Array(n)
  const chars = new Int32Array(n)
  const hashes = transcriptHashes(n)
  for (let i = 0; i < n; i++) {
    const w = order[i] * words
    audioSize[i] = f64[w / 2]
    fileOf[i] = u32[w + 2]
    row[i] = u32[w + 3]
    rowGroup[i] = u32[w + 4]
    chars[i] = i32[w + 5]
    hashes.kind[i] = u32[w + 6]
    hashes.words[2 * i] = u32[w + 7]
    hashes.words[2 * i + 1] = u32[w + 8]
    if (i > 0 && fileOf[i] === fileOf[i - 1] && row[i] <= row[i - 1]) throw new Error(`audit: rows of ${files[fileOf[i]].path} were spilled out of order`)
  }
  return { table: { length: n, files, fileOf, row, rowGroup, audioSize }, chars, hashes }
}

/**
 * Assigns whole languages to partitions of about `rowBudget` rows (largest language first, each to the partition
 * with the fewest rows so far); a language with more rows than the budget gets a partition of its own.
 * @param languages per language: its rows
 * @returns the partition of each language and how many partitions there are
 */
export function planPartitions(languages: ReadonlyMap<string, number>, rowBudget: number): { partitionOf: Map<string, number>; count: number } {
  if (!(rowBudget >= 1)) throw new RangeError(`audit: row budget must be ≥ 1, got ${rowBudget}`)
  const total = [...languages.values()].reduce((s, n) => s + n, 0)
  const count = Math.max(1, Math.min(languages.size, Math.ceil(total / rowBudget)))
  const load = new Float64Array(count)
  const partitionOf = new Map<string, number>()
  const order = [...languages].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  for (const [language, rows] of order) {
    let best = 0
    for (let p = 1; p < count; p++) if (load[p] < load[best]) best = p
    load[best] += rows
    partitionOf.set(language, best)
  }
  return { partitionOf, count }
}
