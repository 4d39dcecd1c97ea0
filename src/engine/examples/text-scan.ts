/**
 * A transcript search that streams: the rows of the partitions a filter keeps are read a row group at a time, in
 * dataset order, and each match's position (file, row: 8 bytes) is kept; pages read only the row groups of the
 * matches they show. Memory is the positions (at most `maxHeldMatches`, then matches are counted, not kept) plus a
 * few row groups in flight, whatever the row count: at 10⁷ rows the example index (example-index.ts), which holds
 * every transcript, is what this replaces for a text search, a length range, and "only flagged" once an audit ran
 * (it then looks only at the rows the audit flagged, flagged-positions.ts: row groups without one are not read), a
 * sort (a bounded top-K of the order instead of the positions) and a sample (ordered-rows.ts)
 * (docs/architecture.md "Views while the rows are read").
 *
 * One scan per dataset runs at a time: a scan for another filter stops the previous one. A stopped scan keeps its
 * matches and continues from where it stopped.
 */
import type { DatasetFile, RunOptions } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { toNumber, toText } from '../parquet/reader.ts'
import { TextCells } from '../parquet/text-column.ts'
import { foldText } from './example-index.ts'
import type { FlaggedPositions } from './flagged-positions.ts'
import { facetsOfFiles, matchingFiles } from './partition-pages.ts'
import { maxSortedRows, sampleRanks, TopK, type SortValue } from './ordered-rows.ts'
import { compareUtf8 } from '../core/findings.ts'
import { valuePasses, type ExampleFilter, type ExampleNeighbour, type ExamplePage, type ExampleSample, type ExampleSort, type ExampleSummary, type TextScanStatus } from './search.ts'

export type { TextScanStatus } from './search.ts'

/** Rows above which a transcript search or a length range streams instead of building the example index. */
export const defaultExampleIndexRowLimit = 2_000_000
/** Most match positions a scan keeps (8 bytes each); past it, matches are counted and not listed. */
export const maxHeldMatches = 1_000_000
/** Row groups read at once (their answers are taken in order). */
const READ_AHEAD = 4
/** Most matches one page returns (as `searchExamples`). */
const MAX_PAGE = 1000
const textChars = 300

/**
 * Whether `filter`, `sample` and `sort` are answered by a streamed scan on a dataset of `rows` rows (more than
 * `indexRowLimit`): a filter that searches transcripts, bounds the length or keeps only flagged rows (from the
 * audit's positions, flagged-positions.ts), or any sample, or any sort but by findings (those are the example
 * index's row findings).
 */
export function streamsRows(filter: ExampleFilter, sample: ExampleSample | null | undefined, sort: ExampleSort | null | undefined, rows: number,
  indexRowLimit = defaultExampleIndexRowLimit): boolean {
  if (rows <= indexRowLimit || sort?.key === 'findings') return false
  return !!sample || !!sort || conditioned(filter)
}

/** Whether `filter` asks about a row's values (transcript, length, flags), not only its partition keys. */
function conditioned(filter: ExampleFilter): boolean {
  return (filter.text?.trim() ?? '') !== '' || (filter.minSamples ?? null) !== null || (filter.maxSamples ?? null) !== null || !!filter.flaggedOnly
}

/** How a scan lists its matches: in dataset order (both absent), `sort`'s order, or `sample`'s picks (then sorted). */
export interface ScanOrder {
  sort?: ExampleSort | null
  sample?: ExampleSample | null
}

/** The key of the rows a filter keeps and their order (two requests with one key share a scan). */
function scanKey(filter: ExampleFilter, flagged: FlaggedPositions | null, order: ScanOrder): string {
  return JSON.stringify([filter.languages ?? [], filter.corpora ?? [], filter.splits ?? [], filter.minSamples ?? null, filter.maxSamples ?? null,
    foldText(filter.text?.trim() ?? ''), filter.flaggedOnly ? flagged?.id ?? null : null, order.sort ?? null, order.sample ?? null])
}

/** One streamed search over one dataset (see the module's comment). */
export class TextScan {
  readonly key: string
  private readonly files: { file: DatasetFile; at: number }[]
  private readonly fileIndex = new Map<string, number>()
  private readonly needle: string
  private fileOf = new Int32Array(1024)
  private rowOf = new Int32Array(1024)
  private held = 0
  private matches = 0
  private rowsRead = 0
  private readonly rowsTotal: number
  private unreadable = 0
  /** The next row group to take: index into `files`, then row group (reads ahead of it are dropped on a stop). */
  private resume = { file: 0, group: 0 }
  private state: TextScanStatus['state'] = 'stopped'
  private error: string | undefined
  private controller: AbortController | null = null
  private waiters: (() => void)[] = []
  /** With a sort and no sample: the first rows of the order (the scan keeps no other positions). */
  private readonly top: TopK | null
  private readonly sort: ExampleSort | null
  private readonly sample: ExampleSample | null
  /** With a sample: the picks (dataset order, or the sort's), once the scan has finished. */
  private picks: { files: Int32Array; rows: Int32Array } | null = null
  /** The top-K's order as of `offered` rows (recomputed when more arrived). */
  private ordered: { offered: number; files: Int32Array; rows: Int32Array } | null = null
  /** Most match positions kept (`maxHeldMatches`; lower in tests). */
  private readonly maxHeld: number
  /** Most rows a sort keeps of its order (`maxSortedRows`; lower in tests). */
  private readonly maxSorted: number
  /** With a sample: matches per language (the counts its draw needs when not every position is kept). */
  private readonly languageMatches = new Map<string, number>()
  /** During a sample's second pass: takes each match instead of `keep`'s counting. */
  private picker: ((file: number, row: number) => void) | null = null

  /**
   * @param flagged with `filter.flaggedOnly`: the audit's flagged rows, the only rows the scan looks at (row groups
   *   without one are not read; with no text or length condition, none is read)
   * @param order a sort (not by findings: `streamsRows`) keeps the first `maxSortedRows` rows of its order
   *   (`TopK`); a sample is drawn as the example index draws it (`sampleRanks`): from the footers' row counts when
   *   the filter asks only partition keys (only the picks' row groups are read, by the pages), else from the
   *   matches' positions once the scan has finished, or, past `maxHeldMatches` matches, from their count per
   *   language, the picks then found by a second pass; the picks are then sorted by `order.sort` reading their
   *   row groups
   * @param limits `maxHeld`: most positions kept (default `maxHeldMatches`); `maxSorted`: most rows of a sort's order
   *   kept (default `maxSortedRows`)
   */
  constructor(private readonly dataset: OpenDataset, readonly filter: ExampleFilter, private readonly flagged: FlaggedPositions | null = null, order: ScanOrder = {},
    limits: { maxHeld?: number; maxSorted?: number } = {}) {
    this.maxHeld = limits.maxHeld ?? maxHeldMatches
    this.maxSorted = limits.maxSorted ?? maxSortedRows
    if (filter.flaggedOnly && !flagged) throw new Error('examples: "only flagged" streams over an audit\'s flagged rows, and none were given')
    if (order.sort?.key === 'findings') throw new Error(`examples: a streamed scan cannot sort by ${order.sort.key}: that needs the example index's row findings`)
    this.key = scanKey(filter, filter.flaggedOnly ? flagged : null, order)
    this.sort = order.sort ?? null
    this.sample = order.sample ?? null
    this.top = this.sort && !this.sample ? new TopK(this.sort, this.maxSorted) : null
    const { files, total } = matchingFiles(dataset, filter)
    this.files = files
    this.rowsTotal = total
    files.forEach(({ file }, i) => this.fileIndex.set(file.path, i))
    this.needle = foldText(filter.text?.trim() ?? '')
  }

  /** Where the scan stands. */
  status(): TextScanStatus {
    const capped = this.top ? this.matches > this.maxSorted : false
    return {
      state: this.state, rowsRead: this.rowsRead, rowsTotal: this.rowsTotal, matches: this.matches, unreadableRowGroups: this.unreadable,
      ...(this.top ? { order: 'sort' as const } : this.sample ? { order: 'sample' as const } : {}),
      ...(capped ? { capped: true } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
    }
  }

  /** Starts reading (or continues after `stop`); nothing when it runs or has finished. */
  start(): void {
    if (this.state === 'running' || this.state === 'done') return
    this.state = 'running'
    this.error = undefined
    const controller = new AbortController()
    this.controller = controller
    this.run(controller.signal).then(
      () => { if (this.controller === controller) this.state = 'done' },
      (error: unknown) => {
        if (this.controller !== controller) return
        if (controller.signal.aborted) this.state = 'stopped'
        else {
          this.state = 'error'
          this.error = error instanceof Error ? error.message : String(error)
        }
      },
    ).finally(() => {
      if (this.controller === controller) this.controller = null
      this.wake()
    })
  }

  /** Stops reading; the matches found so far stay, and `start` continues from the next row group. */
  stop(): void {
    if (this.state !== 'running') return
    this.controller?.abort()
    this.controller = null
    this.state = 'stopped'
    this.wake()
  }

  /**
   * Resolves once `count` matches are kept (a sort or a sample: once it has finished), the scan is no longer
   * running, or `ms` milliseconds have passed (a page answers with what there is by then, and says the scan runs on).
   */
  async waitFor(count: number, ms: number, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + ms
    while (this.state === 'running' && (this.top !== null || this.sample !== null || this.held < count) && Date.now() < deadline) {
      signal?.throwIfAborted()
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))
        this.waiters.push(() => { clearTimeout(timer); resolve() })
      })
    }
  }

  private wake(): void {
    const waiters = this.waiters
    this.waiters = []
    for (const w of waiters) w()
  }

  private get conditioned(): boolean {
    return conditioned(this.filter)
  }

  private async run(signal: AbortSignal): Promise<void> {
    if (this.sample && !this.conditioned) {
      // partition keys only: the picks are arithmetic over the footers' row counts
      this.picks = await this.sorted(this.footerPicks(this.sample), signal)
      this.matches = this.rowsTotal
      this.rowsRead = this.rowsTotal
      return
    }
    await this.pass(signal, this.resume, true)
    if (!this.sample) return
    if (this.matches <= this.held) {
      this.picks = await this.sorted(this.heldPicks(this.sample), signal)
      return
    }
    // more matches than positions kept: the picks' ranks from the counts per language, then a second pass finds them
    const ranks = new Map([...sampleRanks(this.languageMatches, this.sample)].map(([language, list]) => [language, new Set(list)]))
    const seen = new Map<string, number>()
    const positions: [number, number][] = []
    this.picker = (file, row) => {
      const language = this.files[file].file.keys.language ?? ''
      const k = seen.get(language) ?? 0
      seen.set(language, k + 1)
      if (ranks.get(language)?.has(k)) positions.push([file, row])
    }
    try {
      await this.pass(signal, { file: 0, group: 0 }, false)
    } finally {
      this.picker = null
    }
    this.picks = await this.sorted(inDatasetOrder(positions), signal)
  }

  /**
   * Reads the filter's row groups from `from` on, in dataset order, and hands each match to `keep`; `counting`: the
   * first pass, which counts rows read, unreadable row groups and where to resume.
   */
  private async pass(signal: AbortSignal, from: { file: number; group: number }, counting: boolean): Promise<void> {
    const sortKey = this.top ? this.sort!.key : null
    const wantText = this.needle !== '' || sortKey === 'text'
    const wantSize = (this.filter.minSamples ?? null) !== null || (this.filter.maxSamples ?? null) !== null || sortKey === 'length'
    const flagged = this.filter.flaggedOnly ? this.flagged : null
    const hitsOf = (file: DatasetFile, group: number) => flagged?.rowsIn(file.path, file.rowGroups[group].firstRow, file.rowGroups[group].rows) ?? null
    const EMPTY: Promise<Values | null> = Promise.resolve({ text: null, size: null })
    const queue: { at: number; group: number; read: Promise<Values | null> }[] = []
    const next = { ...from }
    const enqueue = () => {
      while (queue.length < READ_AHEAD && next.file < this.files.length) {
        const { file } = this.files[next.file]
        if (next.group >= file.rowGroups.length) {
          next.file++
          next.group = 0
          continue
        }
        const group = next.group++
        // with only flagged rows wanted: a row group without one, or any when nothing else is asked, is not read
        const hits = hitsOf(file, group)
        const skip = hits !== null && (hits.length === 0 || (!wantText && !wantSize))
        const read = skip ? EMPTY : readValues(this.dataset, file, group, wantText, wantSize, signal)
        read.catch(() => undefined) // (a stop rejects the reads still queued; only the one awaited is taken)
        queue.push({ at: next.file, group, read })
      }
    }
    enqueue()
    while (queue.length > 0) {
      const { at: fileAt, group, read } = queue[0]
      const values = await read
      signal.throwIfAborted()
      queue.shift()
      const { file } = this.files[fileAt]
      const meta = file.rowGroups[group]
      const hits = hitsOf(file, group)
      if (values === null) {
        if (counting) this.unreadable++
      } else if (hits !== null) {
        for (const row of hits) {
          const i = row - meta.firstRow
          if (wantText || wantSize) {
            const text = values.text === null ? null : textOf(values.text, i)
            const folded = wantText && text !== null ? foldText(text) : ''
            const size = values.size === null ? null : toNumber(values.size[i])
            const length = size !== null && Number.isFinite(size) ? size : null
            if (!valuePasses(length, folded, this.filter, this.needle)) continue
            this.keep(fileAt, row, length, text)
          } else this.keep(fileAt, row, null, null)
        }
      } else {
        for (let i = 0; i < meta.rows; i++) {
          const text = values.text === null ? null : textOf(values.text, i)
          const folded = wantText && text !== null ? foldText(text) : ''
          const size = values.size === null ? null : toNumber(values.size[i])
          const length = size !== null && Number.isFinite(size) ? size : null
          if (!valuePasses(length, folded, this.filter, this.needle)) continue
          this.keep(fileAt, meta.firstRow + i, length, text)
        }
      }
      if (counting) {
        this.rowsRead += meta.rows
        this.resume = { file: fileAt, group: group + 1 }
        this.wake()
      }
      enqueue()
    }
  }

  /** The value `sort` orders row `row` of `this.files[file]` by (its length or transcript when read). */
  private sortValue(file: number, length: number | null, text: string | null): SortValue {
    const key = this.sort!.key
    return key === 'length' ? length : key === 'text' ? text : key === 'findings' ? null : this.files[file].file.keys[key] ?? ''
  }

  private keep(file: number, row: number, length: number | null, text: string | null): void {
    if (this.picker) {
      this.picker(file, row)
      return
    }
    if (this.sample) {
      const language = this.files[file].file.keys.language ?? ''
      this.languageMatches.set(language, (this.languageMatches.get(language) ?? 0) + 1)
    }
    if (this.top) {
      this.matches++
      this.top.add(file, row, this.sortValue(file, length, text))
      return
    }
    this.matches++
    if (this.held >= this.maxHeld) return
    if (this.held === this.fileOf.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(Math.max(1, Math.min(this.maxHeld, a.length * 2)))
        b.set(a)
        return b
      }
      this.fileOf = grow(this.fileOf)
      this.rowOf = grow(this.rowOf)
    }
    this.fileOf[this.held] = file
    this.rowOf[this.held] = row
    this.held++
  }

  /** The sample's picks (dataset order) from the footers: each language's matches are its files' rows, in order. */
  private footerPicks(sample: ExampleSample): { files: Int32Array; rows: Int32Array } {
    const byLanguage = new Map<string, number[]>()
    this.files.forEach(({ file }, i) => {
      const language = file.keys.language ?? ''
      const list = byLanguage.get(language)
      if (list) list.push(i)
      else byLanguage.set(language, [i])
    })
    const counts = new Map([...byLanguage].map(([language, files]) => [language, files.reduce((n, i) => n + this.files[i].file.rows, 0)]))
    const positions: [number, number][] = []
    for (const [language, ranks] of sampleRanks(counts, sample)) {
      const files = byLanguage.get(language)!
      const starts: number[] = []
      let at = 0
      for (const i of files) { starts.push(at); at += this.files[i].file.rows }
      for (const rank of ranks) {
        let lo = 0
        let hi = files.length - 1
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1
          if (starts[mid] <= rank) lo = mid
          else hi = mid - 1
        }
        positions.push([files[lo], rank - starts[lo]])
      }
    }
    return inDatasetOrder(positions)
  }

  /** The sample's picks (dataset order) from the kept matches' positions. */
  private heldPicks(sample: ExampleSample): { files: Int32Array; rows: Int32Array } {
    const byLanguage = new Map<string, number[]>()
    for (let k = 0; k < this.held; k++) {
      const language = this.files[this.fileOf[k]].file.keys.language ?? ''
      const list = byLanguage.get(language)
      if (list) list.push(k)
      else byLanguage.set(language, [k])
    }
    const positions: [number, number][] = []
    for (const [language, ranks] of sampleRanks(new Map([...byLanguage].map(([l, list]) => [l, list.length])), sample)) {
      const list = byLanguage.get(language)!
      for (const rank of ranks) positions.push([this.fileOf[list[rank]], this.rowOf[list[rank]]])
    }
    return inDatasetOrder(positions)
  }

  /** `picks` (dataset order) in `this.sort`'s order (reading the row groups that hold them), or as they are. */
  private async sorted(picks: { files: Int32Array; rows: Int32Array }, signal: AbortSignal): Promise<{ files: Int32Array; rows: Int32Array }> {
    if (!this.sort) return picks
    const key = this.sort.key
    const values: SortValue[] = []
    let cached: { file: number; group: number; values: Values | null } | null = null
    for (let k = 0; k < picks.files.length; k++) {
      const at = picks.files[k]
      const { file } = this.files[at]
      const row = picks.rows[k]
      if (key !== 'length' && key !== 'text') {
        values.push(this.sortValue(at, null, null))
        continue
      }
      const group = groupOf(file, row)
      if (!cached || cached.file !== at || cached.group !== group) {
        signal.throwIfAborted()
        cached = { file: at, group, values: await readValues(this.dataset, file, group, key === 'text', key === 'length', signal) }
      }
      const i = row - file.rowGroups[group].firstRow
      const size = cached.values?.size ? toNumber(cached.values.size[i]) : null
      values.push(key === 'text' ? (cached.values?.text ? textOf(cached.values.text, i) : null) : size !== null && Number.isFinite(size) ? size : null)
    }
    const sign = this.sort.descending ? -1 : 1
    const order = values.map((_, i) => i)
    order.sort((i, j) => {
      const a = values[i], b = values[j]
      if (a === null || b === null) return a === null ? (b === null ? i - j : 1) : -1
      return sign * (typeof a === 'number' && typeof b === 'number' ? a - b : compareUtf8(String(a), String(b))) || i - j
    })
    return { files: Int32Array.from(order, (i) => picks.files[i]), rows: Int32Array.from(order, (i) => picks.rows[i]) }
  }

  /** The listed rows: the kept matches in dataset order, the sort's first rows, or the sample's picks. */
  private listed(): { files: Int32Array; rows: Int32Array; n: number } {
    if (this.top) {
      if (this.ordered?.offered !== this.top.offered) this.ordered = { offered: this.top.offered, ...this.top.ordered() }
      return { files: this.ordered.files, rows: this.ordered.rows, n: this.ordered.files.length }
    }
    if (this.sample) return this.picks ? { ...this.picks, n: this.picks.files.length } : { files: new Int32Array(0), rows: new Int32Array(0), n: 0 }
    return { files: this.fileOf, rows: this.rowOf, n: this.held }
  }

  /**
   * The kept matches `[offset, offset + limit)` (limit capped at 1,000), in dataset order, reading only their row
   * groups. Rows carry no findings (`rowFindings: false`): the example index has them.
   */
  async page(offset: number, limit: number, options: RunOptions = {}): Promise<ExamplePage & { scan: TextScanStatus }> {
    const status = this.status()
    const list = this.listed()
    const total = list.n
    const from = Math.max(0, Math.floor(offset))
    const end = Math.min(total, from + Math.min(MAX_PAGE, Math.max(0, Math.floor(limit))))
    const rows: ExampleSummary[] = []
    let cached: { file: number; group: number; values: Values | null } | null = null
    for (let k = from; k < end; k++) {
      const { file } = this.files[list.files[k]]
      const row = list.rows[k]
      const group = groupOf(file, row)
      if (!cached || cached.file !== list.files[k] || cached.group !== group) {
        options.signal?.throwIfAborted()
        cached = { file: list.files[k], group, values: await readValues(this.dataset, file, group, true, true, options.signal) }
      }
      const i = row - file.rowGroups[group].firstRow
      const text = cached.values?.text ? textOf(cached.values.text, i) : null
      const n = cached.values?.size ? toNumber(cached.values.size[i]) : null
      rows.push({
        id: `${file.path}:${row}`, path: file.path, row, rowGroup: group,
        corpus: file.keys.corpus ?? '', language: file.keys.language ?? '', split: file.keys.split ?? '',
        audioSize: n !== null && Number.isFinite(n) ? n : null, text: text === null ? null : text.slice(0, textChars),
        findings: 0, severity: null, kinds: [],
      })
    }
    const readable = this.dataset.files.filter((f) => f.readable)
    return {
      total, offset: from, rows, facets: facetsOfFiles(this.dataset.files),
      indexed: { rows: readable.reduce((n, f) => n + f.rows, 0), rowGroups: readable.reduce((n, f) => n + f.rowGroups.length, 0) },
      audioChecked: false, rowFindings: false, scan: status,
    }
  }

  /**
   * The listed row `step` places after (+1) or before (−1) example `id`: a binary search over matches in dataset
   * order, a walk over a sort's or a sample's list (at most `maxSortedRows`, or the picks).
   */
  neighbour(id: string, step: number): ExampleNeighbour {
    const cut = id.lastIndexOf(':')
    const file = this.fileIndex.get(id.slice(0, cut))
    const row = Number(id.slice(cut + 1))
    const list = this.listed()
    const total = list.n
    if (file === undefined || !Number.isInteger(row)) return { id: null, index: null, total }
    let lo = 0
    if (this.top || (this.sample && this.sort)) {
      while (lo < total && (list.files[lo] !== file || list.rows[lo] !== row)) lo++
    } else {
      let hi = total
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (list.files[mid] < file || (list.files[mid] === file && list.rows[mid] < row)) lo = mid + 1
        else hi = mid
      }
    }
    if (lo >= total || list.files[lo] !== file || list.rows[lo] !== row) return { id: null, index: null, total }
    const next = lo + Math.sign(step)
    if (next < 0 || next >= total) return { id: null, index: null, total }
    return { id: `${this.files[list.files[next]].file.path}:${list.rows[next]}`, index: next, total }
  }
}

/** `positions` ([index into the scan's files, row]) sorted into dataset order. */
function inDatasetOrder(positions: [number, number][]): { files: Int32Array; rows: Int32Array } {
  positions.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  return { files: Int32Array.from(positions, (p) => p[0]), rows: Int32Array.from(positions, (p) => p[1]) }
}

interface Values {
  text: TextCells | ArrayLike<unknown> | null
  size: ArrayLike<unknown> | null
}

function textOf(cells: TextCells | ArrayLike<unknown>, i: number): string | null {
  return cells instanceof TextCells ? cells.get(i) : toText(cells[i])
}

/** The row group of `file` holding `row` (row groups are few per file). */
function groupOf(file: DatasetFile, row: number): number {
  const groups = file.rowGroups
  let g = groups.length - 1
  while (g > 0 && groups[g].firstRow > row) g--
  return g
}

/** The `text` and `audio_size` values of one row group (each when wanted and present); `null` when it cannot be read. */
async function readValues(dataset: OpenDataset, file: DatasetFile, group: number, wantText: boolean, wantSize: boolean, signal?: AbortSignal): Promise<Values | null> {
  const has = (c: string) => file.columns.some((col) => col.name === c)
  try {
    const [text, size] = await Promise.all([
      wantText && has('text') ? dataset.parquet.readTextColumn(file, group, 'text', { signal }) : null,
      wantSize && has('audio_size') ? dataset.parquet.readIntColumn(file, group, 'audio_size', { signal }) : null,
    ])
    return { text, size }
  } catch (error) {
    if (signal?.aborted) throw error
    return null
  }
}

const scans = new WeakMap<OpenDataset, TextScan>()

/** The dataset's scan for `filter`, started (or continued); a scan for another filter is stopped and dropped. */
export function textScan(dataset: OpenDataset, filter: ExampleFilter, flagged: FlaggedPositions | null = null, order: ScanOrder = {}): TextScan {
  const key = scanKey(filter, filter.flaggedOnly ? flagged : null, order)
  let scan = scans.get(dataset)
  if (scan?.key !== key) {
    scan?.stop()
    scan = new TextScan(dataset, filter, flagged, order)
    scans.set(dataset, scan)
    scan.start()
  }
  return scan
}

/** The dataset's current scan (`null` when none was started). */
export function currentTextScan(dataset: OpenDataset): TextScan | null {
  return scans.get(dataset) ?? null
}
