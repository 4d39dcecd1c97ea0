/**
 * The audit's metadata pass in bounded memory: every row group's `audio_size` and `text` are read once, and each
 * row is used at once and let go. What needs the transcript's characters runs right there (the script and token
 * tallies, the transcript's length and its normalized hash); what needs only counts per file is added up (rows and
 * hours per (corpus, language, split), LENGTH bucket occupancy); every row leaves a 40-byte record in the spill
 * bucket of its language's partition (rows/row-records.ts). `partitionChecks` then reads one partition at a time
 * and runs the per-language checks (length, text, leakage) on it. No row object, no transcript, no map of strings
 * is kept: with the file spill the pass holds one partition's rows, whatever the dataset's.
 */
import { finding, compareUtf8 } from '../core/findings.ts'
import type { FindingsCollector } from '../core/findings-sink.ts'
import { mapLimit } from '../core/map-limit.ts'
import type { SummaryTsv } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { toNumber, toText } from '../parquet/reader.ts'
import { textMeasure } from '../text/unicode.ts'
import { checkLeakageHashes } from './checks/leakage.ts'
import { BucketOccupancy, checkLengthTable, type LengthCheckConfig } from './checks/length.ts'
import { checkMixtureCells, checkMixtureTable } from './checks/mixture.ts'
import { ScriptTally } from './checks/script.ts'
import { checkSplitsCells, checkSplitsTable } from './checks/splits.ts'
import { checkTextTable } from './checks/text.ts'
import { TokenTally, type AuditTokenizer } from './checks/tokens.ts'
import { planPartitions, readRecords, RecordWriter } from './rows/row-records.ts'
import { tableSamples, type TableFile } from './rows/row-table.ts'
import { SplitCells, type SplitCell } from './rows/split-cells.ts'
import { concatBytes, type RowSpill } from './rows/spill.ts'
import type { AuditItem, CheckResult, TableRow } from './rows/types.ts'

/** Rows of one partition held at once by default (about 150 bytes each while its checks run). */
export const defaultRowBudget = 2_000_000

/** Options of `metadataPass`. */
export interface MetadataPassOptions {
  spill: RowSpill
  /** Rows a partition aims at (default `defaultRowBudget`); the largest language sets the floor. */
  rowBudget?: number
  config: LengthCheckConfig
  trainSplit: string
  tokenizer?: AuditTokenizer
  signal?: AbortSignal
  /** Its reads wait behind every other read (`ReadOptions.background`). */
  background?: boolean
  concurrency?: number
  /** Called after each row group with (row groups done, of all; rows done, of all). */
  onRowGroup?: (done: number, total: number, rowsDone: number, rowsTotal: number) => void
  /** Keep every row's `audio_size` (8 bytes a row; the audio pass of `--deep` / `--sample` names its rows' hours). */
  keepSizes?: boolean
  /** Takes the script and token checks' row findings as they are found (else their results hold them). */
  collector?: FindingsCollector
}

/** What the pass leaves for the report and for `partitionChecks`. */
export interface MetadataPass {
  /** `unreadable-row-group` findings. */
  items: AuditItem[]
  /** Row groups of the readable files. */
  rowGroups: number
  /** Rows read, and Σ of their `audio_size` (nulls 0). */
  rowCount: number
  samples: number
  /** Rows counted per (corpus, language, split), first appearance first. */
  cells: SplitCell[]
  script: CheckResult
  tokens: CheckResult | null
  occupancy: BucketOccupancy
  /** The dataset's files as the records name them (index in `dataset.files`). */
  files: TableFile[]
  /** Spill buckets `0 … partitions − 1`, one per partition. */
  partitions: number
  /** Row groups that did not read, as `"<file index>#<row group>"`. */
  unread: Set<string>
  /**
   * Whether every `audio_size` is an integer and their magnitudes add up to at most 2^53: then every sum of them is
   * exact in any order, and the per-file and per-partition sums equal the row-order sums of one run over every row.
   */
  exact: boolean
  /** With `keepSizes`: each row's `audio_size` (NaN for null) by its position in dataset order (`fileStart[file] + row`). */
  sizes: Float64Array | null
  /** Per file of `dataset.files`: the position in dataset order of its row 0 (the rows of the readable files before it). */
  fileStart: Float64Array
}

/**
 * Reads every readable file's `audio_size` and `text`.
 * @throws the abort reason when `signal` aborts
 */
export async function metadataPass(dataset: OpenDataset, options: MetadataPassOptions): Promise<MetadataPass> {
  const { spill, signal } = options
  const files: TableFile[] = dataset.files.map((f) => ({ path: f.path, corpus: f.keys.corpus ?? '', language: f.keys.language ?? '', split: f.keys.split ?? '' }))
  const readable = dataset.files.map((file, index) => ({ file, index })).filter(({ file }) => file.readable)
  // each row's position in dataset order: the rows of the files before it, then its row
  const fileStart = new Float64Array(dataset.files.length)
  const languageRows = new Map<string, number>()
  let total = 0
  let rowGroups = 0
  dataset.files.forEach((file, i) => {
    fileStart[i] = total
    if (!file.readable) return
    total += file.rows
    rowGroups += file.rowGroups.length
    languageRows.set(files[i].language, (languageRows.get(files[i].language) ?? 0) + file.rows)
  })
  const plan = planPartitions(languageRows, options.rowBudget ?? defaultRowBudget)
  const writer = new RecordWriter(spill, plan.count)
  const { collector } = options
  const sink = collector ? (item: AuditItem) => collector.add(item) : undefined
  const script = new ScriptTally(sink)
  const tokens = options.tokenizer ? new TokenTally(options.tokenizer, sink) : null
  const occupancy = new BucketOccupancy(options.config)
  const rowsRead = new Float64Array(dataset.files.length)
  const samplesRead = new Float64Array(dataset.files.length)
  const firstRead = new Float64Array(dataset.files.length).fill(Infinity)
  const items: AuditItem[] = []
  const unread = new Set<string>()
  const sizes = options.keepSizes ? new Float64Array(total).fill(NaN) : null
  let done = 0
  let rowsDone = 0
  let magnitude = 0
  let integers = true
  await mapLimit(readable, options.concurrency ?? 8, async ({ file, index }) => {
    const keys = files[index]
    const partition = plan.partitionOf.get(keys.language)!
    const train = keys.split === options.trainSplit
    const columns = ['audio_size', 'text'].filter((c) => file.columns.some((col) => col.name === c))
    for (const group of file.rowGroups) {
      let data: Record<string, ArrayLike<unknown>>
      try {
        data = columns.length > 0 ? await dataset.parquet.readColumns(file, group.index, columns, { signal, background: options.background }) : {}
      } catch (error) {
        if (signal?.aborted) throw error
        unread.add(`${index}#${group.index}`)
        items.push({
          finding: finding('error', 'unreadable-row-group', file.path, (error as Error).message, { row_group: group.index }),
          rows: group.rows, samples: 0, corpus: file.keys.corpus ?? null, language: file.keys.language ?? null,
        })
        rowsDone += group.rows
        options.onRowGroup?.(++done, rowGroups, rowsDone, total)
        continue
      }
      const sizeCells = data.audio_size
      const texts = data.text
      const where = { path: file.path, row: 0, rowGroup: group.index, corpus: keys.corpus, language: keys.language, split: keys.split, audioSize: null as number | null }
      for (let i = 0; i < group.rows; i++) {
        const row = group.firstRow + i
        const n = toNumber(sizeCells?.[i])
        const size = n !== null && Number.isFinite(n) ? n : null
        const text = toText(texts?.[i])
        const at = fileStart[index] + row
        where.row = row
        where.audioSize = size
        script.add(where, text, at)
        tokens?.add(where, text, at)
        if (train) occupancy.add(size ?? NaN)
        samplesRead[index] += size ?? 0
        if (size !== null) {
          magnitude += Math.abs(size)
          if (integers && !Number.isInteger(size)) integers = false
        }
        if (sizes && size !== null) sizes[at] = size
        writer.add(partition, index, row, group.index, size ?? NaN, textMeasure(text), text)
      }
      rowsRead[index] += group.rows
      if (firstRead[index] === Infinity) firstRead[index] = fileStart[index] + group.firstRow
      await writer.drain()
      await collector?.drain()
      rowsDone += group.rows
      options.onRowGroup?.(++done, rowGroups, rowsDone, total)
    }
  })
  await writer.flush()
  const cells = new SplitCells()
  let rowCount = 0
  let samples = 0
  files.forEach((f, i) => {
    cells.add(f, rowsRead[i], samplesRead[i], firstRead[i])
    rowCount += rowsRead[i]
    samples += samplesRead[i]
  })
  items.sort((a, b) => compareUtf8(a.finding.path, b.finding.path) || a.finding.row_group! - b.finding.row_group!)
  return {
    items, rowGroups, rowCount, samples, cells: cells.cells(), script: script.result(), tokens: tokens?.result() ?? null,
    occupancy, files, partitions: plan.count, unread, exact: integers && magnitude <= 2 ** 53, sizes, fileStart,
  }
}

/** Options of `rowChecks`. */
export interface RowCheckOptions {
  config: LengthCheckConfig & { min_samples_per_char: number }
  trainSplit: string
  summary: SummaryTsv | null
  signal?: AbortSignal
  /** Takes the length, text and leakage checks' findings a partition at a time (else the results hold them). */
  collector?: FindingsCollector
}

/** What `rowChecks` returns: the checks' results (in the audit's order) and Σ audio_size of every row read. */
export interface RowChecks {
  splits: CheckResult
  mixture: CheckResult
  length: CheckResult
  text: CheckResult
  leakage: CheckResult
  samples: number
}

/**
 * The splits, mixture, length, text and leakage checks on the pass's rows. When the pass is `exact`, one partition
 * at a time (each taken from the spill and dropped after), the per-language checks' items and tables joined as one
 * run over every row gives them (tables sorted by language, as each check sorts them), the splits and mixture checks
 * from the per-file counts. Otherwise (an `audio_size` with a fraction, whose sums depend on the order of addition)
 * every partition at once, as one table, so every sum is added in row order as in the merge of shard parts.
 */
export async function rowChecks(pass: MetadataPass, spill: RowSpill, options: RowCheckOptions): Promise<RowChecks> {
  const { config, trainSplit, summary, signal, collector } = options
  // a result's items to the collector (when there is one), its tables kept
  const collect = async (result: CheckResult): Promise<CheckResult> => {
    if (!collector) return result
    collector.addAll(result.items)
    await collector.drain()
    return { items: [], tables: result.tables }
  }
  const aborted = () => { if (signal?.aborted) throw signal.reason ?? new Error('audit: aborted') }
  if (!pass.exact) {
    const all: Uint8Array[] = []
    for (let p = 0; p < pass.partitions; p++) { aborted(); all.push(await spill.take(p)) }
    const { table, chars, hashes } = readRecords(concatBytes(all), pass.files)
    all.length = 0
    return {
      splits: checkSplitsTable(table), mixture: checkMixtureTable(table, summary, trainSplit), length: await collect(checkLengthTable(table, config, trainSplit)),
      text: await collect(checkTextTable(table, chars, config.min_samples_per_char)), leakage: await collect(checkLeakageHashes(table, trainSplit, hashes)), samples: tableSamples(table),
    }
  }
  const length: CheckResult[] = []
  const text: CheckResult[] = []
  const leakage: CheckResult[] = []
  for (let p = 0; p < pass.partitions; p++) {
    aborted()
    const rows = readRecords(await spill.take(p), pass.files)
    length.push(await collect(checkLengthTable(rows.table, config, trainSplit, false)))
    text.push(await collect(checkTextTable(rows.table, rows.chars, config.min_samples_per_char)))
    leakage.push(await collect(checkLeakageHashes(rows.table, trainSplit, rows.hashes)))
  }
  const byLanguage = (a: TableRow, b: TableRow) => compareUtf8(String(a.language), String(b.language))
  const byLanguageSplit = (a: TableRow, b: TableRow) => {
    const [x, y] = [String(a.language), String(b.language)]
    const [s, t] = [String(a.split), String(b.split)]
    return x < y ? -1 : x > y ? 1 : s < t ? -1 : s > t ? 1 : 0
  }
  return {
    splits: checkSplitsCells(pass.cells),
    mixture: checkMixtureCells(pass.cells, summary, trainSplit),
    length: {
      items: [...joinItems(length), ...pass.occupancy.items()],
      tables: {
        length_histogram: joinTable(length, 'length_histogram', byLanguage),
        length_cutoffs: joinTable(length, 'length_cutoffs', byLanguage),
        bucket_occupancy: pass.occupancy.table(),
      },
    },
    text: { items: joinItems(text), tables: { speaking_rate: joinTable(text, 'speaking_rate', byLanguage) } },
    leakage: { items: joinItems(leakage), tables: { leakage: joinTable(leakage, 'leakage', byLanguageSplit) } },
    samples: pass.samples,
  }
}

function joinItems(results: readonly CheckResult[]): AuditItem[] {
  const out: AuditItem[] = []
  for (const r of results) for (const item of r.items) out.push(item)
  return out
}

/** The partitions' rows of table `name`, stably sorted (each language's rows keep their order). */
function joinTable(results: readonly CheckResult[], name: string, order: (a: TableRow, b: TableRow) => number): TableRow[] {
  return results.flatMap((r) => r.tables[name] ?? []).sort(order)
}
