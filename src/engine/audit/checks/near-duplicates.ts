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
 * 16 bytes per row (cluster parent, best match). A band hash shared by more than `maxBucket` rows (a key that
 * discriminates nothing) is not expanded into pairs, so the pairs verified are at most
 * Σ bucket² / 2 ≤ entries × maxBucket / 2 whatever the data (`skippedBuckets` counts those left out).
 */
import { compareUtf8 } from '../../core/findings.ts'
import { compareFingerprints, decodeFingerprint, fingerprintStepSeconds, fromBase64, type Fingerprint } from '../../features/dsp/fingerprint.ts'
import { exampleId, rowItem } from '../rows/rows.ts'
import type { AudioMeasure, AuditItem, AuditRow, CheckResult, TableRow } from '../rows/types.ts'

/** One decoded row and its measure (checks/audio.ts's `MeasuredRow`, restated here so the two modules do not import each other). */
interface MeasuredRow {
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
  /** Slices of the band-hash space searched one after the other; default ⌈rows × bands / 2^22⌉. */
  partitions?: number
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

function mix32(x: number): number {
  x ^= x >>> 16
  x = Math.imul(x, 0x85ebca6b)
  x ^= x >>> 13
  x = Math.imul(x, 0xc2b2ae35)
  x ^= x >>> 16
  return x >>> 0
}

/**
 * The partitioned LSH search over `count` rows.
 * @param bandsOf a row's band hashes (empty: the row takes no part)
 * @param fingerprintOf a row's fingerprint, read when a candidate pair is compared
 * @param exact whether two rows are exact duplicates (not compared: `duplicate-audio` reports them)
 * @param splitOf a row's split (for the best match across splits)
 */
export function findNearDuplicates(count: number, bandsOf: (i: number) => Uint32Array, fingerprintOf: (i: number) => Fingerprint | null,
  exact: (a: number, b: number) => boolean, splitOf: (i: number) => string, options: NearDuplicateOptions = {}): NearDuplicateSearch {
  const maxBer = options.maxBer ?? nearDuplicateMaxBer
  const maxBucket = options.maxBucket ?? nearDuplicateMaxBucket
  let total = 0
  for (let i = 0; i < count; i++) total += bandsOf(i).length
  const partitions = options.partitions ?? Math.max(1, Math.ceil(total / nearDuplicateSliceEntries))
  if (!(Number.isInteger(partitions) && partitions >= 1)) throw new Error(`audit: near-duplicate partitions must be a positive integer, got ${partitions}`)
  const parent = new Int32Array(count).map((_, i) => i)
  const find = (i: number): number => {
    while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i] }
    return i
  }
  const best = new Int32Array(count).fill(-1)
  const bestAcross = new Int32Array(count).fill(-1)
  const bestAcrossBer = new Float32Array(count).fill(2)
  const bestBer = new Float32Array(count).fill(2)
  const bestOffset = new Int16Array(count)
  const bestOverlap = new Int32Array(count)
  const matched = new Uint8Array(count)
  let compared = 0, peakEntries = 0, skippedBuckets = 0
  const note = (a: number, b: number, ber: number, offset: number, overlap: number) => {
    if (ber < bestBer[a]) { best[a] = b; bestBer[a] = ber; bestOffset[a] = offset; bestOverlap[a] = overlap }
    if (splitOf(a) !== splitOf(b) && ber < bestAcrossBer[a]) { bestAcross[a] = b; bestAcrossBer[a] = ber }
  }
  for (let p = 0; p < partitions; p++) {
    // this slice's entries: (band, hash, row) for the band hashes that fall in it
    let n = 0
    for (let i = 0; i < count; i++) {
      const bands = bandsOf(i)
      for (let j = 0; j < bands.length; j++) if (mix32(bands[j] ^ j) % partitions === p) n++
    }
    peakEntries = Math.max(peakEntries, n)
    const band = new Uint8Array(n), hash = new Uint32Array(n), row = new Int32Array(n)
    let k = 0
    for (let i = 0; i < count; i++) {
      const bands = bandsOf(i)
      for (let j = 0; j < bands.length; j++) {
        if (mix32(bands[j] ^ j) % partitions !== p) continue
        band[k] = j; hash[k] = bands[j]; row[k] = i; k++
      }
    }
    const order = new Uint32Array(n).map((_, i) => i).sort((x, y) => band[x] - band[y] || hash[x] - hash[y] || row[x] - row[y])
    for (let start = 0; start < n;) {
      let end = start + 1
      while (end < n && band[order[end]] === band[order[start]] && hash[order[end]] === hash[order[start]]) end++
      if (end - start > maxBucket) skippedBuckets++
      else {
        for (let x = start; x < end; x++) {
          for (let y = x + 1; y < end; y++) {
            const a = row[order[x]], b = row[order[y]]
            if (find(a) === find(b) || exact(a, b)) continue
            const fa = fingerprintOf(a), fb = fingerprintOf(b)
            if (!fa || !fb) continue
            compared++
            const m = compareFingerprints(fa, fb)
            if (!m || m.ber > maxBer) continue
            matched[a] = matched[b] = 1
            note(a, b, m.ber, m.offset, m.overlap)
            note(b, a, m.ber, -m.offset, m.overlap)
            const ra = find(a), rb = find(b)
            parent[Math.max(ra, rb)] = Math.min(ra, rb)
          }
        }
      }
      start = end
    }
  }
  const cluster = new Int32Array(count)
  for (let i = 0; i < count; i++) cluster[i] = matched[i] ? find(i) : -1
  return { cluster, best, bestBer, bestOffset, bestOverlap, bestAcross, partitions, compared, peakEntries, skippedBuckets }
}

/** The fingerprint a measure carries (`null` when it has none: undecodable, too short, silent, or from an older state). */
export function measureFingerprint(m: MeasuredRow['measure']): Fingerprint | null {
  return m.ok && m.fingerprint ? decodeFingerprint(fromBase64(m.fingerprint)) : null
}

/**
 * `near-duplicate-audio` / `near-duplicate-audio-across-splits` (warnings) on every decoded row with a near-duplicate,
 * naming its closest match (across splits first); table `near_duplicates`: one row per cluster, its members' example
 * ids in dataset order.
 * @param measured the audio pass's rows in dataset order
 */
export function checkNearDuplicates(measured: readonly MeasuredRow[], options: NearDuplicateOptions = {}): CheckResult {
  const fingerprints = measured.map(({ measure }) => measureFingerprint(measure))
  const none = new Uint32Array(0)
  const search = findNearDuplicates(measured.length, (i) => fingerprints[i]?.bands ?? none, (i) => fingerprints[i], (a, b) => {
    const x = measured[a].measure, y = measured[b].measure
    return (x.bytesHash !== null && x.bytesHash === y.bytesHash) || (x.ok && y.ok && x.pcmHash === y.pcmHash)
  }, (i) => measured[i].row.split, options)
  const items: AuditItem[] = []
  const describe = (i: number) => `${exampleId(measured[i].row)} (${measured[i].row.split}, ${measured[i].row.language})`
  const clusters = new Map<number, number[]>()
  for (let i = 0; i < measured.length; i++) {
    const root = search.cluster[i]
    if (root < 0) continue
    const members = clusters.get(root)
    if (members) members.push(i)
    else clusters.set(root, [i])
  }
  for (const members of clusters.values()) {
    for (const i of members) {
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
          const c = compareFingerprints(fingerprints[i]!, fingerprints[j]!)
          const ber = c ? c.ber : 1
          if (ber < bestBer) { bestBer = ber; other = j; across = true }
        }
      }
      if (other !== search.best[i]) {
        const c = compareFingerprints(fingerprints[i]!, fingerprints[other]!)
        m = c ?? { ber: 1, offset: 0, overlap: 0 }
      }
      const shift = Math.round(m.offset * fingerprintStepSeconds * 1000)
      const how = m.ber <= nearDuplicateMaxBer
        ? `fingerprint bit error rate ${m.ber.toFixed(3)} (at most ${nearDuplicateMaxBer}) over ${(m.overlap * fingerprintStepSeconds).toFixed(1)} s aligned at ${shift >= 0 ? '+' : ''}${shift} ms`
        : `through other members of its cluster (bit error rate ${m.ber.toFixed(3)} between the two)`
      items.push(rowItem(measured[i].row, 'warning', across ? 'near-duplicate-audio-across-splits' : 'near-duplicate-audio',
        `${describe(i)} is the same recording as ${describe(other)}, re-encoded, resampled, trimmed or with another gain or noise: ${how}`))
    }
  }
  const table: TableRow[] = [...clusters.values()].map((members, k) => {
    const splits = [...new Set(members.map((i) => measured[i].row.split))].sort(compareUtf8)
    return {
      cluster: k, rows: members.length, splits: splits.join(', '),
      max_ber: Math.max(...members.map((i) => search.bestBer[i])),
      members: members.map((i) => exampleId(measured[i].row)),
    }
  })
  return { items, tables: { near_duplicates: table } }
}
