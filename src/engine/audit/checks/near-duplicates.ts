/**
 * Near-duplicate audio: the same recording stored twice under another encoding (Opus or MP3 at a low bitrate),
 * resampled, with another gain, trimmed, or noisier — what `duplicate-audio` (identical bytes or samples) misses.
 *
 * Each decoded row carries a fingerprint (src/engine/features/dsp/fingerprint.ts, computed by the audio pass from the
 * signal it decodes). Candidate pairs come from locality-sensitive hashing: rows that share one of their
 * 32 MinHash band hashes (`lshBandCount`). A candidate is a near-duplicate when the bit error rate of the two
 * fingerprints over their aligned overlap is at most {@link nearDuplicateMaxBer} (planted set: variants of one
 * utterance ≤ 0.23, different utterances ≥ 0.39, the same text spoken again included). Pairs of rows that are exact
 * duplicates are left to `duplicate-audio`; clusters are the connected components of the near-duplicate pairs.
 *
 * Memory: the search runs over `partitions` slices of the band-hash space, one after the other; a slice holds
 * ≈ rows × bands / partitions entries of 12 bytes (band, hash, row) at once (`peakEntries` reports the largest), plus
 * 27 bytes per row (cluster parent, best matches). A band hash shared by more than `maxBucket` rows (a key that
 * discriminates nothing) is not expanded into pairs, so the pairs verified are at most
 * Σ bucket² / 2 ≤ entries × maxBucket / 2 whatever the data (`skippedBuckets` counts those left out).
 * `findNearDuplicates` and `checkNearDuplicates` hold every fingerprint in memory; the audit and the merge run the
 * same search with the fingerprints in a spill (src/engine/audit/fingerprint-spill.ts, docs/interpretations.md
 * "Near-duplicate audio"), through `NearDuplicateState` and the builders below, with the same result.
 */
import { compareUtf8 } from '../../core/findings.ts'
import { compareFingerprints, decodeFingerprint, fingerprintStepSeconds, fromBase64, mix32, type Fingerprint } from '../../features/dsp/fingerprint.ts'
import { exampleId, rowItem } from '../rows/rows.ts'
import type { AudioMeasure, AuditItem, AuditRow, CheckResult, TableRow } from '../rows/types.ts'

/** One decoded row and its measure (checks/audio.ts's `MeasuredRow`, restated here so the two modules do not import each other). */
export interface MeasuredRow {
  row: AuditRow
  measure: AudioMeasure
}

/** Bit error rate at or below which two fingerprints are one recording. */
export const nearDuplicateMaxBer = 0.3
/** Rows sharing one band hash above which the bucket is not expanded into pairs. */
export const nearDuplicateMaxBucket = 256
/** Members in another split compared, at most, to name a row's closest match across splits. */
const crossSplitComparisons = 64
/** Band entries (rows × bands) one slice of the search holds at most, by default: 2^22 (≈ 50 MB with the sort). */
export const nearDuplicateSliceEntries = 1 << 22

/** Options of {@link findNearDuplicates}. */
export interface NearDuplicateOptions {
  /** Slices of the band-hash space searched one after the other; default ⌈rows × bands / `sliceEntries`⌉. */
  partitions?: number
  /** Band entries one slice holds by default ({@link nearDuplicateSliceEntries}); sets the default `partitions`. */
  sliceEntries?: number
  maxBer?: number
  maxBucket?: number
}

/** What {@link findNearDuplicates} found, and what it cost. */
export interface NearDuplicateSearch {
  /** Per row: the cluster's representative (lowest row index of its cluster), or -1 when the row has no near-duplicate. */
  cluster: Int32Array
  /** Per row: the row it matches best (lowest bit error rate), -1 when none. */
  best: Int32Array
  /** Per row: that match's bit error rate, step offset and aligned loud steps. */
  bestBer: Float32Array
  bestOffset: Int16Array
  bestOverlap: Int32Array
  /** Per row: the best match in another split (`crossSplit`), -1 when none. */
  bestAcross: Int32Array
  partitions: number
  /** Candidate pairs compared (a pair shared by several bands may count more than once). */
  compared: number
  /** Most band entries one slice held. */
  peakEntries: number
  /** Buckets larger than `maxBucket`, not expanded. */
  skippedBuckets: number
}

/** The slice of the band-hash space band `band`'s hash `hash` falls in, of `partitions`. */
export function sliceOf(hash: number, band: number, partitions: number): number {
  return mix32(hash ^ band) % partitions
}

/** Slices of the search by default: ⌈band entries / `sliceEntries`⌉, at least one. */
export function defaultPartitions(entries: number, sliceEntries = nearDuplicateSliceEntries): number {
  if (!(Number.isInteger(sliceEntries) && sliceEntries >= 1)) throw new Error(`audit: near-duplicate slice entries must be a positive integer, got ${sliceEntries}`)
  return Math.max(1, Math.ceil(entries / sliceEntries))
}

/**
 * The search's state over `count` rows: clusters (union-find), each row's best match, and the candidate pairs
 * compared so far. Buckets are expanded in the order they are given; the in-memory search ({@link findNearDuplicates})
 * and the spilled one (src/engine/audit/fingerprint-spill.ts) give them in the same order, so they find the same.
 * Memory: 27 bytes per row.
 */
export class NearDuplicateState {
  readonly parent: Int32Array
  readonly best: Int32Array
  readonly bestAcross: Int32Array
  readonly bestAcrossBer: Float32Array
  readonly bestBer: Float32Array
  readonly bestOffset: Int16Array
  readonly bestOverlap: Int32Array
  readonly matched: Uint8Array
  compared = 0
  peakEntries = 0
  skippedBuckets = 0
  readonly maxBer: number
  readonly maxBucket: number

  constructor(readonly count: number, private readonly exact: (a: number, b: number) => boolean, private readonly splitOf: (i: number) => string,
    options: NearDuplicateOptions = {}) {
    this.maxBer = options.maxBer ?? nearDuplicateMaxBer
    this.maxBucket = options.maxBucket ?? nearDuplicateMaxBucket
    this.parent = new Int32Array(count).map((_, i) => i)
    this.best = new Int32Array(count).fill(-1)
    this.bestAcross = new Int32Array(count).fill(-1)
    this.bestAcrossBer = new Float32Array(count).fill(2)
    this.bestBer = new Float32Array(count).fill(2)
    this.bestOffset = new Int16Array(count)
    this.bestOverlap = new Int32Array(count)
    this.matched = new Uint8Array(count)
  }

  find(i: number): number {
    const parent = this.parent
    while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i] }
    return i
  }

  private note(a: number, b: number, ber: number, offset: number, overlap: number): void {
    if (ber < this.bestBer[a]) { this.best[a] = b; this.bestBer[a] = ber; this.bestOffset[a] = offset; this.bestOverlap[a] = overlap }
    if (this.splitOf(a) !== this.splitOf(b) && ber < this.bestAcrossBer[a]) { this.bestAcross[a] = b; this.bestAcrossBer[a] = ber }
  }

  /** Whether a bucket of `size` rows is expanded into pairs (counts it in `skippedBuckets` when it is not). */
  expands(size: number): boolean {
    if (size <= this.maxBucket) return true
    this.skippedBuckets++
    return false
  }

  /**
   * Compares the pairs of one bucket (rows sharing a band hash, `rows[start…end)` ascending), in order: pairs already
   * in one cluster and exact duplicates are not compared.
   * @param fingerprintOf a row's fingerprint (`null`: not compared)
   */
  expand(rows: ArrayLike<number>, start: number, end: number, fingerprintOf: (i: number) => Fingerprint | null): void {
    for (let x = start; x < end; x++) {
      for (let y = x + 1; y < end; y++) {
        const a = rows[x], b = rows[y]
        if (this.find(a) === this.find(b) || this.exact(a, b)) continue
        const fa = fingerprintOf(a), fb = fingerprintOf(b)
        if (!fa || !fb) continue
        this.compared++
        const m = compareFingerprints(fa, fb)
        if (!m || m.ber > this.maxBer) continue
        this.matched[a] = this.matched[b] = 1
        this.note(a, b, m.ber, m.offset, m.overlap)
        this.note(b, a, m.ber, -m.offset, m.overlap)
        const ra = this.find(a), rb = this.find(b)
        this.parent[Math.max(ra, rb)] = Math.min(ra, rb)
      }
    }
  }

  /** The search's result once every bucket is expanded. */
  result(partitions: number): NearDuplicateSearch {
    const cluster = new Int32Array(this.count)
    for (let i = 0; i < this.count; i++) cluster[i] = this.matched[i] ? this.find(i) : -1
    const { best, bestBer, bestOffset, bestOverlap, bestAcross, compared, peakEntries, skippedBuckets } = this
    return { cluster, best, bestBer, bestOffset, bestOverlap, bestAcross, partitions, compared, peakEntries, skippedBuckets }
  }
}

/**
 * The partitioned LSH search over `count` rows, in memory (the fingerprints spilled instead:
 * src/engine/audit/fingerprint-spill.ts, which finds the same).
 * @param bandsOf a row's band hashes (empty: the row takes no part)
 * @param fingerprintOf a row's fingerprint, read when a candidate pair is compared
 * @param exact whether two rows are exact duplicates (not compared: `duplicate-audio` reports them)
 * @param splitOf a row's split (for the best match across splits)
 */
export function findNearDuplicates(count: number, bandsOf: (i: number) => Uint32Array, fingerprintOf: (i: number) => Fingerprint | null,
  exact: (a: number, b: number) => boolean, splitOf: (i: number) => string, options: NearDuplicateOptions = {}): NearDuplicateSearch {
  let total = 0
  for (let i = 0; i < count; i++) total += bandsOf(i).length
  const partitions = options.partitions ?? defaultPartitions(total, options.sliceEntries)
  if (!(Number.isInteger(partitions) && partitions >= 1)) throw new Error(`audit: near-duplicate partitions must be a positive integer, got ${partitions}`)
  const state = new NearDuplicateState(count, exact, splitOf, options)
  for (let p = 0; p < partitions; p++) {
    // this slice's entries: (band, hash, row) for the band hashes that fall in it
    let n = 0
    for (let i = 0; i < count; i++) {
      const bands = bandsOf(i)
      for (let j = 0; j < bands.length; j++) if (sliceOf(bands[j], j, partitions) === p) n++
    }
    state.peakEntries = Math.max(state.peakEntries, n)
    const band = new Uint8Array(n), hash = new Uint32Array(n), row = new Int32Array(n)
    let k = 0
    for (let i = 0; i < count; i++) {
      const bands = bandsOf(i)
      for (let j = 0; j < bands.length; j++) {
        if (sliceOf(bands[j], j, partitions) !== p) continue
        band[k] = j; hash[k] = bands[j]; row[k] = i; k++
      }
    }
    const order = new Uint32Array(n).map((_, i) => i).sort((x, y) => band[x] - band[y] || hash[x] - hash[y] || row[x] - row[y])
    const rows = new Int32Array(n)
    for (let x = 0; x < n; x++) rows[x] = row[order[x]]
    for (let start = 0; start < n;) {
      let end = start + 1
      while (end < n && band[order[end]] === band[order[start]] && hash[order[end]] === hash[order[start]]) end++
      if (state.expands(end - start) && end - start > 1) state.expand(rows, start, end, fingerprintOf)
      start = end
    }
  }
  return state.result(partitions)
}

/** The fingerprint a measure carries (`null` when it has none: undecodable, too short, silent, or from an older state). */
export function measureFingerprint(m: MeasuredRow['measure']): Fingerprint | null {
  return m.ok && m.fingerprint ? decodeFingerprint(fromBase64(m.fingerprint)) : null
}

/** The clusters of a search: each a list of rows ascending, clusters in the order of their first row. */
export function clustersOf(search: NearDuplicateSearch): number[][] {
  const clusters = new Map<number, number[]>()
  for (let i = 0; i < search.cluster.length; i++) {
    const root = search.cluster[i]
    if (root < 0) continue
    const members = clusters.get(root)
    if (members) members.push(i)
    else clusters.set(root, [i])
  }
  return [...clusters.values()]
}

/**
 * The rows whose fingerprints {@link nearDuplicateItem} may read for the members `members[from…to)` of one cluster:
 * those members, their best match across splits, and the first {@link crossSplitComparisons} members of each split
 * (a member's closest match in another split is looked for among those).
 */
export function nearDuplicateReads(measured: readonly MeasuredRow[], search: NearDuplicateSearch, members: readonly number[], from: number, to: number): number[] {
  const out = new Set<number>()
  for (let k = from; k < to; k++) {
    out.add(members[k])
    if (search.bestAcross[members[k]] >= 0) out.add(search.bestAcross[members[k]])
  }
  const perSplit = new Map<string, number>()
  for (const j of members) {
    const split = measured[j].row.split
    const n = perSplit.get(split) ?? 0
    if (n < crossSplitComparisons) { perSplit.set(split, n + 1); out.add(j) }
  }
  return [...out]
}

/**
 * The finding of member `i` of a cluster, naming its closest match (across splits first).
 * @param fingerprintOf the fingerprint of a row of {@link nearDuplicateReads}
 */
export function nearDuplicateItem(measured: readonly MeasuredRow[], search: NearDuplicateSearch, members: readonly number[], i: number,
  fingerprintOf: (i: number) => Fingerprint | null): AuditItem {
  const describe = (k: number) => `${exampleId(measured[k].row)} (${measured[k].row.split}, ${measured[k].row.language})`
  // across splits when the cluster reaches another split: the search compared each pair at most once and not
  // within a cluster already joined, so the closest member in another split may need comparing here
  let other = search.best[i]
  let m = { ber: search.bestBer[i], offset: search.bestOffset[i], overlap: search.bestOverlap[i] }
  let across = search.bestAcross[i] >= 0
  if (across) other = search.bestAcross[i]
  else {
    const elsewhere = members.filter((j) => measured[j].row.split !== measured[i].row.split).slice(0, crossSplitComparisons)
    let bestBer = Infinity
    for (const j of elsewhere) {
      const c = compareFingerprints(fingerprintOf(i)!, fingerprintOf(j)!)
      const ber = c ? c.ber : 1
      if (ber < bestBer) { bestBer = ber; other = j; across = true }
    }
  }
  if (other !== search.best[i]) {
    const c = compareFingerprints(fingerprintOf(i)!, fingerprintOf(other)!)
    m = c ?? { ber: 1, offset: 0, overlap: 0 }
  }
  const shift = Math.round(m.offset * fingerprintStepSeconds * 1000)
  const how = m.ber <= nearDuplicateMaxBer
    ? `fingerprint bit error rate ${m.ber.toFixed(3)} (at most ${nearDuplicateMaxBer}) over ${(m.overlap * fingerprintStepSeconds).toFixed(1)} s aligned at ${shift >= 0 ? '+' : ''}${shift} ms`
    : `through other members of its cluster (bit error rate ${m.ber.toFixed(3)} between the two)`
  return rowItem(measured[i].row, 'warning', across ? 'near-duplicate-audio-across-splits' : 'near-duplicate-audio',
    `${describe(i)} is the same recording as ${describe(other)}, re-encoded, resampled, trimmed or with another gain or noise: ${how}`)
}

/** Row `k` of table `near_duplicates`: cluster `k`'s size, splits, largest best-match bit error rate and members. */
export function nearDuplicateTableRow(measured: readonly MeasuredRow[], search: NearDuplicateSearch, members: readonly number[], k: number): TableRow {
  const splits = [...new Set(members.map((i) => measured[i].row.split))].sort(compareUtf8)
  let maxBer = -Infinity
  for (const i of members) maxBer = Math.max(maxBer, search.bestBer[i])
  return { cluster: k, rows: members.length, splits: splits.join(', '), max_ber: maxBer, members: members.map((i) => exampleId(measured[i].row)) }
}

/** Whether two measured rows are exact duplicates (same encoded bytes, or same decoded samples). */
export function exactDuplicates(measured: readonly MeasuredRow[], a: number, b: number): boolean {
  const x = measured[a].measure, y = measured[b].measure
  return (x.bytesHash !== null && x.bytesHash === y.bytesHash) || (x.ok && y.ok && x.pcmHash === y.pcmHash)
}

/**
 * `near-duplicate-audio` / `near-duplicate-audio-across-splits` (warnings) on every decoded row with a near-duplicate,
 * naming its closest match (across splits first); table `near_duplicates`: one row per cluster, its members' example
 * ids in dataset order. This one holds every fingerprint in memory; the audit and the merge spill them
 * (`checkNearDuplicatesSpilled`, src/engine/audit/fingerprint-spill.ts), with the same result.
 * @param measured the audio pass's rows in dataset order, their measures carrying their fingerprints
 */
export function checkNearDuplicates(measured: readonly MeasuredRow[], options: NearDuplicateOptions = {}): CheckResult {
  const fingerprints = measured.map(({ measure }) => measureFingerprint(measure))
  const none = new Uint32Array(0)
  const search = findNearDuplicates(measured.length, (i) => fingerprints[i]?.bands ?? none, (i) => fingerprints[i],
    (a, b) => exactDuplicates(measured, a, b), (i) => measured[i].row.split, options)
  const items: AuditItem[] = []
  const clusters = clustersOf(search)
  for (const members of clusters) for (const i of members) items.push(nearDuplicateItem(measured, search, members, i, (j) => fingerprints[j]))
  return { items, tables: { near_duplicates: clusters.map((members, k) => nearDuplicateTableRow(measured, search, members, k)) } }
}
