/**
 * The rows an audit flagged (docs/interpretations.md "Flagged rows and row findings"), kept as positions: per file,
 * its flagged rows as one sorted `Int32Array` (4 bytes a flagged row), built from every finding of the audit's report
 * as the collector hands them over (`onFindings`, uncapped). Above the example index's row limit the Examples
 * list's "Only flagged" pages through these (text-scan.ts) instead of building the index, which holds every
 * transcript: the same rows the Audit counts, without a second pass over the data.
 */
import type { Finding } from '../core/findings.ts'
import type { OpenDataset } from '../dataset/open.ts'

/** Flagged rows per file path, each file's rows sorted and distinct. */
export class FlaggedPositions {
  private static made = 0
  /** Tells one audit's positions from another's (a scan over them starts again when they change). */
  readonly id = ++FlaggedPositions.made

  private constructor(
    private readonly byPath: Map<string, Int32Array>,
    /** Flagged rows in all. */
    readonly rows: number,
  ) {}

  /** Collects the row findings handed to it, then `finish`es into the positions. */
  static builder(): { add(findings: readonly Finding[]): void; finish(): FlaggedPositions } {
    const lists = new Map<string, number[]>()
    return {
      add(findings) {
        for (const f of findings) {
          if (f.row === undefined || f.row === null || !f.path) continue
          let list = lists.get(f.path)
          if (!list) lists.set(f.path, list = [])
          list.push(f.row)
        }
      },
      finish() {
        const byPath = new Map<string, Int32Array>()
        let rows = 0
        for (const [path, list] of lists) {
          const sorted = Int32Array.from(list).sort()
          let n = 0
          for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]
          byPath.set(path, sorted.slice(0, n))
          rows += n
        }
        lists.clear()
        return new FlaggedPositions(byPath, rows)
      },
    }
  }

  /** The flagged rows of `path` in `[firstRow, firstRow + count)`, ascending (a view: do not change it). */
  rowsIn(path: string, firstRow: number, count: number): Int32Array {
    const rows = this.byPath.get(path)
    if (!rows) return new Int32Array(0)
    return rows.subarray(lowerBound(rows, firstRow), lowerBound(rows, firstRow + count))
  }
}

/** First index of `sorted` whose value is ≥ `value`. */
function lowerBound(sorted: Int32Array, value: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid] < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The latest audit's flagged rows per dataset, with the config they were flagged under. */
const latest = new WeakMap<OpenDataset, { config: string; positions: FlaggedPositions }>()

/**
 * Keeps `positions` as the flagged rows of `dataset` under `config` (the config's `auditRowsKey`, audit/rows-config.ts:
 * the keys the row checks read, so a beta step keeps them), replacing those of an earlier audit.
 */
export function rememberFlagged(dataset: OpenDataset, config: string, positions: FlaggedPositions): void {
  latest.set(dataset, { config, positions })
}

/** The flagged rows of `dataset`'s latest audit under `config`, else `null` (none ran, or under another config). */
export function flaggedUnder(dataset: OpenDataset, config: string): FlaggedPositions | null {
  const known = latest.get(dataset)
  return known && known.config === config ? known.positions : null
}

/** Whether an audit's flagged rows are kept for `dataset` under a config other than `config`. */
export function flaggedUnderOtherConfig(dataset: OpenDataset, config: string): boolean {
  const known = latest.get(dataset)
  return !!known && known.config !== config
}
