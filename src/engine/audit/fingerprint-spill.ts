/**
 * The deep audit's near-duplicate search (checks/near-duplicates.ts) with its fingerprints spilled: what the audit
 * and the merge of shard parts run, so that neither holds every row's fingerprint (≈ 0.8 kB a row of 6 s).
 *
 * - The fingerprints wait in bucket 0 of a `RandomAccessBuckets` spill (src/engine/core/byte-buckets.ts; the
 *   audit's `spill` factory: temporary files in Node, a file of OPFS in the browser's worker), each encoded
 *   (`encodeFingerprint`) as the audio pass finishes a row group, or as the merge adds a part. What stays in memory
 *   per row is where its record lies: 12 bytes ({@link FingerprintLocations}).
 * - Candidates: the band hashes are read back row by row and hash-partitioned by band key (band, hash) into the
 *   slices of the in-memory search (`sliceOf`, the same `partitions`), buckets 1…P of the spill; each slice is then
 *   taken alone, sorted by (band, hash, row) and grouped on its own.
 * - Verification: the buckets of a slice are expanded in that order, as in memory; the fingerprints of the rows of
 *   consecutive buckets are read back a batch at a time, at most `fingerprintBytes` of them, in the order of
 *   their place in the spill with neighbouring records read at once.
 *
 * So the buckets are expanded in the same order and the pairs compared are the same as `findNearDuplicates`'s: the
 * result is identical. Memory, whatever the row count: one slice's entries (12 bytes each, plus 20 of sort and row
 * arrays; ⌈entries / 2^22⌉ slices by default, so about 2^22 entries, ≈ 130 MB), the slices' write buffers and one
 * batch of fingerprints (`fingerprintBytes`, 32 MB by default each), plus 12 bytes per row of locations and the
 * search's 27 bytes per row.
 */
import type { RandomAccessBuckets } from '../core/byte-buckets.ts'
import { mapLimit } from '../core/map-limit.ts'
import { checkFingerprintBytes, decodeFingerprint, fromBase64, type Fingerprint } from '../features/dsp/fingerprint.ts'
import {
  clustersOf, defaultPartitions, exactDuplicates, nearDuplicateItem, nearDuplicateReads, NearDuplicateState, nearDuplicateTableRow, sliceOf,
  type MeasuredRow, type NearDuplicateOptions, type NearDuplicateSearch,
} from './checks/near-duplicates.ts'
import type { AudioMeasure, AuditItem, CheckResult } from './rows/types.ts'

/** Where fingerprint records lie in the spill, per row: offset and length in bytes (length 0: no fingerprint). */
export interface FingerprintLocations {
  offsets: Float64Array
  lengths: Uint32Array
  /** Band hashes of these rows in all (the search's entries). */
  bandEntries: number
}

/** Bytes of fingerprints the spilled search holds at once by default (a batch verified; rows read back for their bands). */
export const nearDuplicateFingerprintBytes = 1 << 25

/** Options of the spilled search: the in-memory search's, and the bytes of fingerprints held at once. */
export interface SpilledNearDuplicateOptions extends NearDuplicateOptions {
  /** Bytes of fingerprint records read back at once (default {@link nearDuplicateFingerprintBytes}). */
  fingerprintBytes?: number
}

/** The spill's bucket of the fingerprint records; slice `p`'s entries are in bucket `1 + p`. */
const recordBucket = 0
/** Records read back in one read when they lie at most this many bytes apart. */
const readGap = 4096
/** Longest single read (bytes). */
const readSpan = 1 << 20
/** Reads in flight. */
const readConcurrency = 4

/**
 * The fingerprints of an audit's decoded rows, in a spill. Records are written in any order (`write`: a row group's,
 * a part's), then placed in row order (`place`), then searched ({@link searchNearDuplicatesSpilled}).
 */
export class FingerprintSpill {
  private size = 0
  private placed: FingerprintLocations[] = []
  private where: FingerprintLocations | null = null

  /** @param buckets the spill (closed by `close`) */
  constructor(readonly buckets: RandomAccessBuckets) {}

  /**
   * Appends fingerprint records (`encodeFingerprint`'s bytes; `null`: the row has none).
   * @returns where they lie, once written
   * @throws when a record is not a fingerprint's bytes
   */
  write(records: readonly (Uint8Array | null)[]): Promise<FingerprintLocations> {
    const n = records.length
    const offsets = new Float64Array(n), lengths = new Uint32Array(n)
    let total = 0, bandEntries = 0
    for (let i = 0; i < n; i++) {
      const r = records[i]
      if (!r) continue
      checkFingerprintBytes(r)
      offsets[i] = this.size + total
      lengths[i] = r.byteLength
      total += r.byteLength
      bandEntries += r[2]
    }
    const locations = { offsets, lengths, bandEntries }
    if (total === 0) return Promise.resolve(locations)
    const bytes = new Uint8Array(total)
    let at = 0
    for (const r of records) if (r) { bytes.set(r, at); at += r.byteLength }
    // the offsets are this append's: appends to one bucket keep their order
    this.size += total
    return this.buckets.append(recordBucket, bytes).then(() => locations)
  }

  /**
   * Writes the fingerprints the measures carry (base64, `AudioMeasure.fingerprint`).
   * @returns where they lie, and the measures without them (copies: the originals are left as they are)
   */
  async writeMeasures(measures: readonly AudioMeasure[]): Promise<{ locations: FingerprintLocations; measures: AudioMeasure[] }> {
    const { records, measures: stripped } = splitFingerprints(measures)
    return { locations: await this.write(records), measures: stripped }
  }

  /** Appends rows to the search: the next `locations.offsets.length` rows, in order. */
  place(locations: FingerprintLocations): void {
    if (this.where) throw new Error('audit: the fingerprints are being searched: no rows can be placed')
    this.placed.push(locations)
  }

  /** The placed rows' locations, as one (placing is over). */
  locations(): FingerprintLocations {
    if (!this.where) {
      const n = this.placed.reduce((s, l) => s + l.offsets.length, 0)
      const offsets = new Float64Array(n), lengths = new Uint32Array(n)
      let at = 0, bandEntries = 0
      for (const l of this.placed) {
        offsets.set(l.offsets, at)
        lengths.set(l.lengths, at)
        at += l.offsets.length
        bandEntries += l.bandEntries
      }
      this.placed = []
      this.where = { offsets, lengths, bandEntries }
    }
    return this.where
  }

  /**
   * The records of `rows` (placed rows with a fingerprint), read in the order they lie in the spill, neighbours
   * in one read.
   */
  async records(rows: Iterable<number>): Promise<Map<number, Uint8Array>> {
    const { offsets, lengths } = this.locations()
    const sorted = [...new Set(rows)].filter((i) => lengths[i] > 0).sort((a, b) => offsets[a] - offsets[b])
    const spans: number[][] = []
    for (let k = 0; k < sorted.length;) {
      const from = offsets[sorted[k]]
      let end = from + lengths[sorted[k]]
      const span = [sorted[k++]]
      while (k < sorted.length && offsets[sorted[k]] <= end + readGap && offsets[sorted[k]] + lengths[sorted[k]] - from <= readSpan) {
        end = Math.max(end, offsets[sorted[k]] + lengths[sorted[k]])
        span.push(sorted[k++])
      }
      spans.push(span)
    }
    const out = new Map<number, Uint8Array>()
    await mapLimit(spans, readConcurrency, async (span) => {
      const from = offsets[span[0]]
      const end = span.reduce((e, i) => Math.max(e, offsets[i] + lengths[i]), from)
      const bytes = await this.buckets.read(recordBucket, from, end - from)
      for (const i of span) out.set(i, bytes.subarray(offsets[i] - from, offsets[i] - from + lengths[i]))
    })
    return out
  }

  /** The decoded fingerprints of `rows` (as {@link records}). */
  async fingerprints(rows: Iterable<number>): Promise<Map<number, Fingerprint>> {
    const out = new Map<number, Fingerprint>()
    for (const [i, bytes] of await this.records(rows)) out.set(i, decodeFingerprint(bytes))
    return out
  }

  /** Drops the spill (its temporary files). */
  close(): Promise<void> {
    return this.buckets.close()
  }
}

/**
 * The fingerprints measures carry (base64, `AudioMeasure.fingerprint`) as records for {@link FingerprintSpill.write},
 * and the measures without them (copies; the originals are left as they are).
 */
export function splitFingerprints(measures: readonly AudioMeasure[]): { records: (Uint8Array | null)[]; measures: AudioMeasure[] } {
  const records = measures.map((m) => (m.ok && m.fingerprint ? fromBase64(m.fingerprint) : null))
  const stripped = measures.map((m) => {
    if (!m.ok || m.fingerprint === undefined) return m
    const { fingerprint: _, ...rest } = m
    return rest
  })
  return { records, measures: stripped }
}

/** Slice `p`'s entries `(band, hash, row)` as three 32-bit words each, in the order they were written (row order). */
function entriesOf(bytes: Uint8Array): Uint32Array {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice()
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4)
}

/**
 * The order of a slice's entries by (band, hash, row): entries are in row order, so a stable order by (band, hash)
 * is it — a least-significant-digit radix sort, the hash in three digits of 11, 11 and 10 bits, then the band.
 */
function sliceOrder(e: Uint32Array, n: number): Uint32Array {
  let order = new Uint32Array(n), next = new Uint32Array(n)
  // the hashes in the current order (read in sequence, not through `order`)
  let hashes = new Uint32Array(n), nextHashes = new Uint32Array(n)
  let maxBand = 0
  for (let x = 0; x < n; x++) {
    order[x] = x
    hashes[x] = e[3 * x + 1]
    if (e[3 * x] > maxBand) maxBand = e[3 * x]
  }
  const count = new Uint32Array(2049)
  for (const shift of [0, 11, 22]) {
    count.fill(0)
    for (let x = 0; x < n; x++) count[((hashes[x] >>> shift) & 0x7ff) + 1]++
    for (let d = 1; d < count.length; d++) count[d] += count[d - 1]
    for (let x = 0; x < n; x++) {
      const at = count[(hashes[x] >>> shift) & 0x7ff]++
      next[at] = order[x]
      nextHashes[at] = hashes[x]
    }
    ;[order, next] = [next, order]
    ;[hashes, nextHashes] = [nextHashes, hashes]
  }
  if (maxBand === 0) return order
  const bands = new Uint32Array(maxBand + 2)
  for (let x = 0; x < n; x++) bands[e[3 * order[x]] + 1]++
  for (let d = 1; d < bands.length; d++) bands[d] += bands[d - 1]
  for (let x = 0; x < n; x++) next[bands[e[3 * order[x]]]++] = order[x]
  return next
}

/**
 * The records of rows `[first, end)` (`bytes` in all): one read when they lie together in the spill (rows written a
 * row group or a part at a time, in order), else as {@link FingerprintSpill.records} reads them.
 * @returns row → its record (`null`: none)
 */
async function recordsOf(spill: FingerprintSpill, where: FingerprintLocations, first: number, end: number, bytes: number): Promise<(i: number) => Uint8Array | null> {
  const { offsets, lengths } = where
  let from = Infinity, to = 0
  for (let i = first; i < end; i++) {
    if (lengths[i] === 0) continue
    if (offsets[i] < from) from = offsets[i]
    if (offsets[i] + lengths[i] > to) to = offsets[i] + lengths[i]
  }
  if (to === 0) return () => null
  if (to - from <= bytes + readGap) {
    const all = await spill.buckets.read(recordBucket, from, to - from)
    return (i) => (lengths[i] === 0 ? null : all.subarray(offsets[i] - from, offsets[i] - from + lengths[i]))
  }
  const rows: number[] = []
  for (let i = first; i < end; i++) if (lengths[i] > 0) rows.push(i)
  const records = await spill.records(rows)
  return (i) => records.get(i) ?? null
}

/**
 * The partitioned LSH search over the fingerprints placed in `spill` (row `i`: the `i`-th placed), with the result
 * `findNearDuplicates` gives on the same fingerprints and options.
 * @param exact whether two rows are exact duplicates (not compared)
 * @param splitOf a row's split
 */
export async function searchNearDuplicatesSpilled(spill: FingerprintSpill, exact: (a: number, b: number) => boolean, splitOf: (i: number) => string,
  options: SpilledNearDuplicateOptions = {}): Promise<NearDuplicateSearch> {
  const where = spill.locations()
  const count = where.offsets.length
  const budget = options.fingerprintBytes ?? nearDuplicateFingerprintBytes
  if (!(budget >= 1)) throw new Error(`audit: near-duplicate fingerprint bytes must be at least 1, got ${budget}`)
  const partitions = options.partitions ?? defaultPartitions(where.bandEntries, options.sliceEntries)
  if (!(Number.isInteger(partitions) && partitions >= 1)) throw new Error(`audit: near-duplicate partitions must be a positive integer, got ${partitions}`)
  const state = new NearDuplicateState(count, exact, splitOf, options)
  const { buckets } = spill

  // candidates: every row's band hashes, read back in row order a batch at a time, into their slices' buckets
  const bufferEntries = Math.max(16, Math.min(1 << 14, Math.floor(budget / 12 / partitions)))
  const buffers: (Uint32Array | undefined)[] = new Array(partitions)
  const filled = new Int32Array(partitions)
  const flush = async (p: number) => {
    if (filled[p] === 0) return
    const words = buffers[p]!.slice(0, 3 * filled[p])
    filled[p] = 0
    await buckets.append(1 + p, new Uint8Array(words.buffer))
  }
  for (let first = 0; first < count;) {
    let end = first, bytes = 0
    while (end < count && (end === first || bytes + where.lengths[end] <= budget)) bytes += where.lengths[end++]
    const records = await recordsOf(spill, where, first, end, bytes)
    for (let i = first; i < end; i++) {
      const r = records(i)
      if (!r) continue
      for (let j = 0, at = 3; j < r[2]; j++, at += 4) {
        const hash = (r[at] | (r[at + 1] << 8) | (r[at + 2] << 16) | (r[at + 3] << 24)) >>> 0
        const p = sliceOf(hash, j, partitions)
        const b = buffers[p] ??= new Uint32Array(3 * bufferEntries)
        const k = 3 * filled[p]
        b[k] = j
        b[k + 1] = hash
        b[k + 2] = i
        if (++filled[p] === bufferEntries) await flush(p)
      }
    }
    first = end
  }
  for (let p = 0; p < partitions; p++) await flush(p)
  buffers.length = 0

  // each slice on its own: sorted, grouped by (band, hash), its buckets expanded in order
  for (let p = 0; p < partitions; p++) {
    const e = entriesOf(await buckets.take(1 + p))
    const n = e.length / 3
    state.peakEntries = Math.max(state.peakEntries, n)
    const order = sliceOrder(e, n)
    const rows = new Int32Array(n)
    for (let x = 0; x < n; x++) rows[x] = e[3 * order[x] + 2]
    const same = (x: number, y: number) => e[3 * order[x] + 1] === e[3 * order[y] + 1] && e[3 * order[x]] === e[3 * order[y]]
    // the buckets to expand, as [start, end) pairs, verified a batch of fingerprints at a time
    let batch: number[] = []
    let batchRows = new Set<number>()
    let batchBytes = 0
    const verify = async () => {
      if (batch.length === 0) return
      const fps = await spill.fingerprints(batchRows)
      for (let k = 0; k < batch.length; k += 2) state.expand(rows, batch[k], batch[k + 1], (i) => fps.get(i) ?? null)
      batch = []
      batchRows = new Set()
      batchBytes = 0
    }
    for (let start = 0; start < n;) {
      let end = start + 1
      while (end < n && same(end, start)) end++
      if (state.expands(end - start) && end - start > 1) {
        let bytes = 0
        for (let x = start; x < end; x++) if (!batchRows.has(rows[x])) bytes += where.lengths[rows[x]]
        if (batch.length > 0 && batchBytes + bytes > budget) await verify()
        for (let x = start; x < end; x++) {
          if (!batchRows.has(rows[x])) { batchRows.add(rows[x]); batchBytes += where.lengths[rows[x]] }
        }
        batch.push(start, end)
      }
      start = end
    }
    await verify()
  }
  return state.result(partitions)
}

/**
 * `checkNearDuplicates` (checks/near-duplicates.ts) over fingerprints placed in `spill`, row `i` being `measured[i]`:
 * the same findings and table, holding a batch of fingerprints at a time (a cluster's members are described a batch
 * at a time too).
 */
export async function checkNearDuplicatesSpilled(measured: readonly MeasuredRow[], spill: FingerprintSpill, options: SpilledNearDuplicateOptions = {}): Promise<CheckResult> {
  const where = spill.locations()
  if (where.offsets.length !== measured.length) throw new Error(`audit: ${where.offsets.length} fingerprint rows placed for ${measured.length} measured rows`)
  const budget = options.fingerprintBytes ?? nearDuplicateFingerprintBytes
  const search = await searchNearDuplicatesSpilled(spill, (a, b) => exactDuplicates(measured, a, b), (i) => measured[i].row.split, options)
  const items: AuditItem[] = []
  const clusters = clustersOf(search)
  for (const members of clusters) {
    for (let from = 0; from < members.length;) {
      let to = from, bytes = 0
      while (to < members.length && (to === from || bytes + 2 * where.lengths[members[to]] <= budget)) bytes += 2 * where.lengths[members[to++]]
      const fps = await spill.fingerprints(nearDuplicateReads(measured, search, members, from, to))
      for (let k = from; k < to; k++) items.push(nearDuplicateItem(measured, search, members, members[k], (i) => fps.get(i) ?? null))
      from = to
    }
  }
  return { items, tables: { near_duplicates: clusters.map((members, k) => nearDuplicateTableRow(measured, search, members, k)) } }
}
