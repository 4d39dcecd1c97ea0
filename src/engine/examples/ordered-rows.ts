/**
 * The parts of a streamed sort and a streamed sample (text-scan.ts) that hold a bounded number of rows whatever the
 * row count: a top-K of (value, position) in the example index's order (search.ts `sortMatches`: nulls last, ties
 * in dataset order), and the example index's seeded per-language sample (search.ts `matchingRows`: Python's
 * `random.Random(seed)`, a partial Fisher–Yates shuffle per language, languages in code order) drawn from the
 * count of each language's matches alone, touching only the positions it swaps (docs/architecture.md "Views while
 * the rows are read").
 */
import { compareUtf8 } from '../core/findings.ts'
import { PythonRandom } from '../random/python-random.ts'
import type { ExampleSample, ExampleSort } from './search.ts'

/** A sort key's value: `audio_size` (16 kHz samples), a transcript or a partition key; `null` sorts last. */
export type SortValue = number | string | null

/** Most rows a streamed sort keeps of its order (the first `maxSortedRows` are listed; the rest are counted). */
export const maxSortedRows = 100_000

/**
 * The first `capacity` rows of a stream in `sort`'s order. Rows arrive in dataset order (`file` index into the
 * scan's files, then `row`), so a tie keeps the earlier arrival. Memory: at most 2·`capacity` non-null entries plus
 * `capacity` null ones.
 */
export class TopK {
  private files: number[] = []
  private rows: number[] = []
  private values: (number | string)[] = []
  private nullFiles: number[] = []
  private nullRows: number[] = []
  /** The worst kept value once `capacity` are kept (`undefined` before): a later row must beat it strictly. */
  private worst: number | string | undefined
  private readonly sign: number
  /** Rows offered in all. */
  offered = 0

  constructor(private readonly sort: ExampleSort, readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error(`examples: a sorted scan keeps at least one row, not ${capacity}`)
    this.sign = sort.descending ? -1 : 1
  }

  private compare(a: number | string, b: number | string): number {
    return this.sign * (typeof a === 'number' && typeof b === 'number' ? a - b : compareUtf8(String(a), String(b)))
  }

  /** Offers the row at (`file`, `row`) with `value`. */
  add(file: number, row: number, value: SortValue): void {
    this.offered++
    if (value === null) {
      if (this.nullFiles.length < this.capacity) {
        this.nullFiles.push(file)
        this.nullRows.push(row)
      }
      return
    }
    if (this.worst !== undefined && this.compare(value, this.worst) >= 0) return
    this.files.push(file)
    this.rows.push(row)
    this.values.push(value)
    if (this.values.length >= 2 * this.capacity) this.compact()
  }

  /** Sorts the kept non-null rows and drops all but the first `capacity`. */
  private compact(): void {
    const order = this.values.map((_, i) => i)
    order.sort((i, j) => this.compare(this.values[i], this.values[j]) || this.files[i] - this.files[j] || this.rows[i] - this.rows[j])
    order.length = Math.min(order.length, this.capacity)
    this.files = order.map((i) => this.files[i])
    this.rows = order.map((i) => this.rows[i])
    this.values = order.map((i) => this.values[i])
    if (this.values.length === this.capacity) this.worst = this.values[this.capacity - 1]
  }

  /** The kept rows in order (at most `capacity`): non-null values sorted, then nulls in dataset order. */
  ordered(): { files: Int32Array; rows: Int32Array } {
    this.compact()
    const n = Math.min(this.capacity, this.values.length + this.nullFiles.length)
    const files = new Int32Array(n)
    const rows = new Int32Array(n)
    for (let k = 0; k < n; k++) {
      const nulls = k - this.values.length
      files[k] = nulls < 0 ? this.files[k] : this.nullFiles[nulls]
      rows[k] = nulls < 0 ? this.rows[k] : this.nullRows[nulls]
    }
    return { files, rows }
  }
}

/**
 * The example index's sample drawn from counts: for each language of `counts` with matches (code order,
 * `compareUtf8`), the ranks (0-based, into that language's matches in dataset order) that `sample.perLanguage` steps
 * of a partial Fisher–Yates shuffle with one `random.Random(sample.seed)` pick, exactly as `matchingRows` in
 * search.ts draws them from the whole list. Memory: the picks and the positions they swapped (2 per pick).
 */
export function sampleRanks(counts: ReadonlyMap<string, number>, sample: ExampleSample): Map<string, number[]> {
  const rng = new PythonRandom(sample.seed)
  const want = Math.max(0, Math.floor(sample.perLanguage))
  const out = new Map<string, number[]>()
  for (const language of [...counts.keys()].filter((l) => counts.get(l)! > 0).sort(compareUtf8)) {
    const size = counts.get(language)!
    const n = Math.min(want, size)
    const swapped = new Map<number, number>()
    for (let k = 0; k < n; k++) {
      const j = rng.randint(k, size - 1)
      const atK = swapped.get(k) ?? k
      swapped.set(k, swapped.get(j) ?? j)
      swapped.set(j, atK)
    }
    const picks: number[] = []
    for (let k = 0; k < n; k++) picks.push(swapped.get(k) ?? k)
    out.set(language, picks)
  }
  return out
}
