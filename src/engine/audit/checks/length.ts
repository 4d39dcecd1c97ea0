/**
 * Length check: duration histogram per language against the task's `min_audio_len` / `max_audio_len` (inclusive
 * bounds on the stored `audio_size`, docs/reference-pipeline.md §8 stage 1), and how the training split fills the LENGTH buckets
 * (docs/reference-pipeline.md §9).
 */
import { compareUtf8, finding } from '../../core/findings.ts'
import { taskBucketSizes, type LengthBucketConfig } from '../../pipeline/buckets.ts'
import { storedSampleRate } from '../../dataset/stats.ts'
import { rowHours } from '../rows/rows.ts'
import { exampleIdAt, fileAt, groupRowsOf, groupTable, rowItemAt, rowTableOf, samplesAt, type RowTable } from '../rows/row-table.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../rows/types.ts'

/** Upper edges of the duration histogram's bins, in seconds (the last bin is open). */
export const durationBinEdges = [1, 2, 4, 6, 8, 10, 15, 20, 30, 40, 60, 120] as const

/** Config fields the length check reads. */
export interface LengthCheckConfig extends LengthBucketConfig {
  batching_strategy: 'LENGTH' | 'STATIC'
}

function binLabel(i: number): string {
  const lo = i === 0 ? 0 : durationBinEdges[i - 1]
  return i === durationBinEdges.length ? `≥${lo} s` : `${lo}-${durationBinEdges[i]} s`
}

/** The first bin whose upper edge is above `seconds` (the open last bin when none is; NaN goes there too). */
function binOf(seconds: number): number {
  for (let i = 0; i < durationBinEdges.length; i++) if (seconds < durationBinEdges[i]) return i
  return durationBinEdges.length
}

/**
 * @param rows every row of the dataset (all splits go through the length filter)
 * @param trainSplit split value whose rows fill the bucket table
 * @returns `below-min-audio-len` / `above-max-audio-len` (warning) per dropped row; tables `length_histogram`
 *   (language, bin, rows, hours), `length_cutoffs` (per language: rows and hours each cut-off removes) and
 *   `bucket_occupancy` (occupied LENGTH buckets of the training split)
 */
export function checkLength(rows: readonly AuditRow[], config: LengthCheckConfig, trainSplit: string): CheckResult {
  return checkLengthTable(rowTableOf(rows), config, trainSplit)
}

/**
 * `checkLength` over a row table.
 * @param occupancy `false`: leave the `bucket_occupancy` table out (a caller that counts it over several tables adds
 *   it with `BucketOccupancy`)
 */
export function checkLengthTable(t: RowTable, config: LengthCheckConfig, trainSplit: string, occupancy = true): CheckResult {
  const items: AuditItem[] = []
  const { min_audio_len: min, max_audio_len: max } = config
  const histogram: TableRow[] = []
  const cutoffs: TableRow[] = []
  const byLanguage = groupTable(t, (f) => f.language)
  const order = byLanguage.keys.map((language, g) => ({ language, g })).sort((a, b) => compareUtf8(a.language, b.language))
  for (const { language, g } of order) {
    const list = groupRowsOf(byLanguage, g).filter((i) => !Number.isNaN(t.audioSize[i]))
    const bins = durationBinEdges.map(() => ({ rows: 0, samples: 0 })).concat([{ rows: 0, samples: 0 }])
    const below: number[] = []
    const above: number[] = []
    for (const i of list) {
      const n = t.audioSize[i]
      const bin = bins[binOf(n / storedSampleRate)]
      bin.rows++
      bin.samples += n
      if (n < min) below.push(i)
      else if (n > max) above.push(i)
    }
    bins.forEach((b, i) => histogram.push({ language, bin: binLabel(i), rows: b.rows, hours: rowHours(b.samples) }))
    cutoffs.push({
      language, rows: list.length, hours: rowHours(samplesAt(t, list)),
      rows_below_min: below.length, hours_below_min: rowHours(samplesAt(t, below)),
      rows_above_max: above.length, hours_above_max: rowHours(samplesAt(t, above)),
    })
    for (const i of below) {
      const n = t.audioSize[i]
      items.push(rowItemAt(t, i, 'warning', 'below-min-audio-len',
        `${exampleIdAt(t, i)} has audio_size ${n} (${(n / storedSampleRate).toFixed(2)} s), below min_audio_len ${min}: the length filter drops it`))
    }
    for (const i of above) {
      const n = t.audioSize[i]
      items.push(rowItemAt(t, i, 'warning', 'above-max-audio-len',
        `${exampleIdAt(t, i)} has audio_size ${n} (${(n / storedSampleRate).toFixed(2)} s), above max_audio_len ${max}: the length filter drops it`))
    }
  }
  if (!occupancy) return { items, tables: { length_histogram: histogram, length_cutoffs: cutoffs } }
  const buckets = new BucketOccupancy(config)
  for (let i = 0; i < t.length; i++) if (fileAt(t, i).split === trainSplit) buckets.add(t.audioSize[i])
  items.push(...buckets.items())
  return { items, tables: { length_histogram: histogram, length_cutoffs: cutoffs, bucket_occupancy: buckets.table() } }
}

/**
 * Rows of the kept training examples per LENGTH bucket (first bucket whose length ≥ the example's), counted one
 * `audio_size` at a time; `table()` lists the occupied buckets (none unless `batching_strategy` is LENGTH).
 */
export class BucketOccupancy {
  private readonly sizes: { seqLen: number; batchSize: number }[] = []
  private readonly rows: Float64Array
  private readonly samples: Float64Array
  private readonly error: string | null = null

  constructor(private readonly config: LengthCheckConfig) {
    if (config.batching_strategy === 'LENGTH') {
      try {
        this.sizes = taskBucketSizes(config).sizes
      } catch (error) {
        this.error = (error as Error).message
      }
    }
    this.rows = new Float64Array(this.sizes.length)
    this.samples = new Float64Array(this.sizes.length)
  }

  /** Counts one training row of `audio_size` `n` (`NaN` for null: not kept). */
  add(n: number): void {
    const { sizes, config } = this
    if (sizes.length === 0 || Number.isNaN(n) || n < config.min_audio_len || n > config.max_audio_len) return
    let lo = 0
    let hi = sizes.length - 1
    if (n > sizes[hi].seqLen) return
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (sizes[mid].seqLen >= n) hi = mid
      else lo = mid + 1
    }
    this.rows[lo]++
    this.samples[lo] += n
  }

  /** `bucket-config` (error) when the LENGTH bucket table cannot be built. */
  items(): AuditItem[] {
    if (this.error === null) return []
    return [{ rows: 0, samples: 0, corpus: null, language: null,
      finding: finding('error', 'bucket-config', '', `the LENGTH bucket table cannot be built: ${this.error}`) }]
  }

  /** The occupied buckets. */
  table(): TableRow[] {
    const out: TableRow[] = []
    this.sizes.forEach((b, i) => {
      const rows = this.rows[i]
      if (rows === 0) return
      const samples = this.samples[i]
      out.push({
        bucket: i, seq_len: b.seqLen, batch_size: b.batchSize, rows, hours: rowHours(samples),
        full_batches: Math.floor(rows / b.batchSize),
        padding_share: 1 - samples / (rows * b.seqLen),
      })
    })
    return out
  }
}
