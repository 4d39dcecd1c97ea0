/**
 * The findings collector: every finding of a job goes in, in any order; out come, in the deterministic order of
 * `sortFindings` with exact duplicates dropped, an exact count per kind, the first `maxPerKind` findings of each
 * kind, and (to a sink) every finding, so nothing is lost (docs/conventions.md "Findings and exit codes": a
 * `--json` document holds at most that many per kind, `finding_counts` says how many there are).
 *
 * Memory: the findings wait in `ByteBuckets` (src/engine/core/byte-buckets.ts), one bucket per path (files are what
 * the order sorts first), serialized, until `finish`; with Node's file spill they wait on disk. `finish` takes one
 * path's bucket at a time, sorts it, and keeps O(kinds × maxPerKind) findings: the collector's memory is one file's
 * findings plus what it shows, whatever the dataset's row count. Without buckets they wait in memory as objects
 * (the browser's default: what it held before).
 */
import type { ByteBuckets } from './byte-buckets.ts'
import { compareFindings, compareUtf8, sameFinding, type Finding, type Severity } from './findings.ts'

/** Findings of one kind a report shows by default (`--max-findings-per-kind`); the rest are counted. */
export const defaultMaxFindingsPerKind = 1000

/** One finding plus how many rows and stored samples it is about (the audit's per-kind summary adds them up). */
export interface FindingItem {
  finding: Finding
  /** Rows the finding is about (1 for a row finding). */
  rows: number
  /** Σ audio_size of those rows (16 kHz samples). */
  samples: number
  /** Mixture partition of the rows, when there is one. */
  corpus: string | null
  language: string | null
}

/** How many findings of one kind there are and how many a report shows (`finding_counts`). */
export interface FindingCount {
  /** The most severe severity among the kind's findings. */
  severity: Severity
  /** Findings of this kind, exact duplicates counted once (the length of the whole list's share of the kind). */
  total: number
  /** How many of them the report's `findings` holds: the first ones in the order of `sortFindings`. */
  shown: number
}

/** What `finish` returns. */
export interface CollectedFindings {
  /** The first `maxPerKind` findings of each kind, in the order of `sortFindings`, without exact duplicates. */
  findings: Finding[]
  /** Per kind (kinds in UTF-8 order): severity, total, shown. */
  counts: Record<string, FindingCount>
  /** Findings counted but not in `findings` (Σ total − shown); 0 when the list is whole. */
  omitted: number
}

/** Options of `FindingsCollector`. */
export interface CollectorOptions {
  /** Findings of one kind kept in `findings` (default `defaultMaxFindingsPerKind`; `Infinity` keeps every one). */
  maxPerKind?: number
  /** Where findings wait until `finish` (serialized, a bucket per path); default: in memory, as objects. */
  buckets?: ByteBuckets
  /** Serialized findings held before they are appended to the buckets by `drain` (default 4 MiB of text). */
  bufferChars?: number
}

/** What `finish` tells as it walks the findings in order. */
export interface FinishOptions {
  /** Every item in the order of `sortFindings`, exact duplicates included (the audit's summary counts them). */
  onItem?: (item: FindingItem) => void
  /** Every finding in the order of `sortFindings` without exact duplicates, a path's findings at a time. */
  onFindings?: (findings: readonly Finding[]) => void | Promise<void>
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 }
const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Collects findings in bounded memory (see the module's comment). */
export class FindingsCollector {
  readonly maxPerKind: number
  private readonly buckets: ByteBuckets | null
  private readonly bufferChars: number
  /** Path → its bucket (first seen, first numbered). */
  private readonly bucketOf = new Map<string, number>()
  /** Without buckets: each path's items. With buckets: each path's lines not yet appended. */
  private readonly held = new Map<number, FindingItem[]>()
  private readonly lines = new Map<number, string[]>()
  private heldChars = 0
  private finished = false

  constructor(options: CollectorOptions = {}) {
    const max = options.maxPerKind ?? defaultMaxFindingsPerKind
    if (!(max >= 0)) throw new RangeError(`findings: maxPerKind must be ≥ 0 (got ${max})`)
    this.maxPerKind = max
    this.buckets = options.buckets ?? null
    this.bufferChars = options.bufferChars ?? 4 << 20
  }

  /** Characters of serialized findings waiting in memory for `drain` (with buckets; 0 without). */
  get buffered(): number {
    return this.heldChars
  }

  /** Adds one item; call `drain` now and then (after a row group, a partition) so the buffer goes to the buckets. */
  add(item: FindingItem): void {
    if (this.finished) throw new Error('findings: add after finish')
    const path = item.finding.path
    let bucket = this.bucketOf.get(path)
    if (bucket === undefined) this.bucketOf.set(path, bucket = this.bucketOf.size)
    if (!this.buckets) {
      const list = this.held.get(bucket)
      if (list) list.push(item)
      else this.held.set(bucket, [item])
      return
    }
    const line = serialize(item)
    const list = this.lines.get(bucket)
    if (list) list.push(line)
    else this.lines.set(bucket, [line])
    this.heldChars += line.length
  }

  /** Adds a finding about no rows (a dataset's, a file's). */
  addFinding(finding: Finding): void {
    this.add({ finding, rows: 0, samples: 0, corpus: null, language: null })
  }

  /** Adds every item of `items`. */
  addAll(items: Iterable<FindingItem>): void {
    for (const item of items) this.add(item)
  }

  /** Appends the buffered findings to the buckets once they exceed the buffer (always with `force`). */
  async drain(force = false): Promise<void> {
    if (!this.buckets || this.heldChars === 0 || (!force && this.heldChars < this.bufferChars)) return
    const lines = [...this.lines]
    this.lines.clear()
    this.heldChars = 0
    for (const [bucket, list] of lines) await this.buckets.append(bucket, encoder.encode(list.join('')))
  }

  /**
   * A collector in memory holding a copy of every finding added so far (same cap), this one unchanged: a provisional
   * report (the audit's rows before its audio check) is made from the copy while this one takes more. The copy holds
   * the findings as objects, so use it where the findings are held in memory anyway (the explorer's worker).
   */
  async fork(): Promise<FindingsCollector> {
    if (this.finished) throw new Error('findings: fork after finish')
    const copy = new FindingsCollector({ maxPerKind: this.maxPerKind })
    await this.drain(true)
    for (const [path, bucket] of this.bucketOf) {
      copy.bucketOf.set(path, bucket)
      if (!this.buckets) {
        copy.held.set(bucket, [...(this.held.get(bucket) ?? [])])
        continue
      }
      const bytes = await this.buckets.take(bucket)
      await this.buckets.append(bucket, bytes)
      copy.held.set(bucket, parse(bytes))
    }
    return copy
  }

  /**
   * Walks every finding in the order of `sortFindings`, one path at a time: counts each kind, keeps its first
   * `maxPerKind`, tells `onItem` and `onFindings`. The collector takes no more findings after.
   */
  async finish(options: FinishOptions = {}): Promise<CollectedFindings> {
    this.finished = true
    await this.drain(true)
    const counts = new Map<string, FindingCount>()
    const findings: Finding[] = []
    let omitted = 0
    const paths = [...this.bucketOf.keys()].sort(compareUtf8)
    for (const path of paths) {
      const bucket = this.bucketOf.get(path)!
      const items = this.buckets ? parse(await this.buckets.take(bucket)) : this.held.get(bucket)!
      this.held.delete(bucket)
      // stable: exact duplicates keep their order of arrival
      items.sort((a, b) => compareFindings(a.finding, b.finding))
      const unique: Finding[] = []
      let last: Finding | undefined
      for (const item of items) {
        options.onItem?.(item)
        const f = item.finding
        if (last && sameFinding(f, last)) continue
        last = f
        unique.push(f)
        let c = counts.get(f.kind)
        if (!c) counts.set(f.kind, c = { severity: f.severity, total: 0, shown: 0 })
        if (severityRank[f.severity] < severityRank[c.severity]) c.severity = f.severity
        c.total++
        if (c.shown < this.maxPerKind) {
          c.shown++
          findings.push(f)
        } else {
          omitted++
        }
      }
      items.length = 0
      if (options.onFindings && unique.length > 0) await options.onFindings(unique)
    }
    this.bucketOf.clear()
    const sorted: Record<string, FindingCount> = {}
    for (const kind of [...counts.keys()].sort(compareUtf8)) sorted[kind] = counts.get(kind)!
    return { findings, counts: sorted, omitted }
  }
}

/**
 * Collects `findings` (any order) with `options`: the capped list, counts and the omitted number, as `finish` gives.
 * `validate` and `config_findings` use it on lists they already hold.
 */
export async function collectFindings(findings: Iterable<Finding>, options: CollectorOptions & FinishOptions = {}): Promise<CollectedFindings> {
  const collector = new FindingsCollector(options)
  for (const f of findings) collector.addFinding(f)
  return collector.finish(options)
}

/**
 * `collectFindings` on a list held in memory, at once: sorted, exact duplicates dropped, the first `maxPerKind` of
 * each kind kept (a provisional result's findings, the open's snapshots).
 */
export function capFindings(findings: readonly Finding[], maxPerKind = defaultMaxFindingsPerKind): CollectedFindings {
  const counts = new Map<string, FindingCount>()
  const shown: Finding[] = []
  let omitted = 0
  let last: Finding | undefined
  for (const f of [...findings].sort(compareFindings)) {
    if (last && sameFinding(f, last)) continue
    last = f
    let c = counts.get(f.kind)
    if (!c) counts.set(f.kind, c = { severity: f.severity, total: 0, shown: 0 })
    if (severityRank[f.severity] < severityRank[c.severity]) c.severity = f.severity
    c.total++
    if (c.shown < maxPerKind) {
      c.shown++
      shown.push(f)
    } else {
      omitted++
    }
  }
  const sorted: Record<string, FindingCount> = {}
  for (const kind of [...counts.keys()].sort(compareUtf8)) sorted[kind] = counts.get(kind)!
  return { findings: shown, counts: sorted, omitted }
}

/** One item as a line: `[path, row, row_group, kind, severity, message, rows, samples, corpus, language]`. */
function serialize(item: FindingItem): string {
  const f = item.finding
  // a non-finite sample sum (JSON has no NaN) is kept as a string
  const samples = Number.isFinite(item.samples) ? item.samples : String(item.samples)
  return JSON.stringify([f.path, f.row, f.row_group, f.kind, f.severity, f.message, item.rows, samples, item.corpus, item.language]) + '\n'
}

function parse(bytes: Uint8Array): FindingItem[] {
  const out: FindingItem[] = []
  // decoded about 1 MiB of whole lines at a time: one file's findings may be more than a string can hold
  let start = 0
  while (start < bytes.byteLength) {
    let end = bytes.indexOf(10, Math.min(bytes.byteLength, start + (1 << 20)) - 1)
    end = end < 0 ? bytes.byteLength : end + 1
    for (const line of decoder.decode(bytes.subarray(start, end)).split('\n')) {
      if (line === '') continue
      const [path, row, row_group, kind, severity, message, rows, samples, corpus, language] = JSON.parse(line) as
        [string, number | null, number | null, string, Severity, string, number, number | string, string | null, string | null]
      out.push({ finding: { path, row, row_group, kind, severity, message }, rows, samples: Number(samples), corpus, language })
    }
    start = end
  }
  return out
}
