/**
 * Validate: every problem in one pass, as findings. Discovery and stats findings, then schema checks per
 * file, then row checks per row group (nulls, empty audio, bad sizes, folder keys vs columns); `deep` also sniffs
 * every row's audio container. One bad file or row group never stops the rest.
 */
import { finding, type Finding } from '../core/findings.ts'
import { FindingsCollector, type CollectorOptions, type FinishOptions } from '../core/findings-sink.ts'
import type { DatasetFile, RunOptions } from '../dataset/dataset.ts'
import type { FileMetaData } from 'hyparquet'
import type { OpenDataset, OpenOptions } from '../dataset/open.ts'
import type { ParquetReader } from '../parquet/reader.ts'
import { requiredKeys } from '../dataset/hive.ts'
import { audioBytesOf, isAudioBytesType } from '../parquet/audio-bytes.ts'
import { toNumber, toText } from '../parquet/reader.ts'
import { statsReport } from '../dataset/stats.ts'
import { readFileFacts, type FactsOptions } from '../dataset/facts.ts'
import { sniffAudio } from '../audio/sniff.ts'
import { blockingProblems } from '../audio/sniff-result.ts'
import { audioLengthFindings } from '../audio/length-check.ts'
import { mapLimit } from '../core/map-limit.ts'
import type { StatsReport, ValidateReport } from '../dataset/stats-types.ts'

/** Options of `validateDataset`. */
export interface ValidateOptions extends RunOptions {
  /** Also read and sniff every row's audio bytes (container, codec, rate, channels, declared length vs audio_size). */
  deep?: boolean
  concurrency?: number
}

const expectedTypes: Record<string, { ok: (t: string) => boolean; expected: string }> = {
  audio_bytes: { ok: isAudioBytesType, expected: 'binary or list<int8> (encoded audio file bytes)' },
  audio_size: { ok: (t) => /^u?int(8|16|32|64)$/.test(t), expected: 'int64 (decoded samples at 16 kHz)' },
  text: { ok: (t) => t === 'string' || t === 'large_string', expected: 'string (the transcript)' },
}

/** Schema findings for one readable file; returns the columns that can be read for row checks. */
function checkSchema(file: DatasetFile, findings: Finding[]): string[] {
  const readable: string[] = []
  for (const [name, rule] of Object.entries(expectedTypes)) {
    const column = file.columns.find((c) => c.name === name)
    if (!column) {
      if (name !== 'audio_size') { // stats reports a missing audio_size
        findings.push(finding('error', 'missing-column', file.path,
          `${file.path} has no ${name} column (columns: ${file.columns.map((c) => `${c.name}: ${c.type}`).join(', ') || 'none'}); expected ${rule.expected}`))
      }
    } else if (!rule.ok(column.type)) {
      findings.push(finding('error', 'column-type', file.path, `${file.path} column ${name} is ${column.type}; expected ${rule.expected}`))
    } else {
      readable.push(name)
    }
  }
  return readable
}

/** Whether the footer proves a column chunk holds no null or empty list (so its bytes need not be read). */
function chunkHasNoNulls(footer: FileMetaData, rowGroup: number, column: string): boolean {
  const chunks = footer.row_groups[rowGroup]?.columns ?? []
  const chunk = chunks.find((c) => c.meta_data?.path_in_schema[0] === column)
  const nullCount = chunk?.meta_data?.statistics?.null_count
  return nullCount !== undefined && Number(nullCount) === 0
}

/**
 * Validates an opened dataset.
 * @returns `validate --json`: files and rows checked, every finding
 */
export async function validateDataset(dataset: OpenDataset, options: ValidateOptions = {}): Promise<ValidateReport> {
  return (await checkDataset(dataset, options)).validation
}

/** The columns the row checks read in one row group of `file` (audio_bytes only when deep or when it may hold nulls). */
function rowCheckColumns(footer: FileMetaData, file: DatasetFile, rowGroup: number, deep: boolean): string[] {
  const columns = checkSchema(file, [])
  const keyColumns = requiredKeys.filter((k) => k in file.keys && file.columns.some((c) => c.name === k))
  return [...columns, ...keyColumns].filter((c) => deep || c !== 'audio_bytes' || !chunkHasNoNulls(footer, rowGroup, c))
}

/** What the row checks found in one file. */
export interface FileRowChecks {
  findings: Finding[]
  /** Rows checked. */
  rows: number
}

/**
 * Schema and row checks of one readable file (every row group; one that does not decode is a finding and the others
 * are still checked). `onRows` is told each row group's rows as they are checked.
 */
export async function checkFileRows(parquet: ParquetReader, file: DatasetFile,
  options: { deep?: boolean; signal?: AbortSignal; background?: boolean; onRows?: (rows: number) => void } = {}): Promise<FileRowChecks> {
  const { signal, deep = false, background } = options
  const out: Finding[] = []
  checkSchema(file, out)
  let footer: FileMetaData
  try {
    footer = await parquet.loadFooter(file, { signal, background })
  } catch (error) {
    if (signal?.aborted) throw error
    out.push(finding('error', 'unreadable-parquet', file.path, (error as Error).message))
    return { findings: out, rows: 0 }
  }
  const keyColumns = requiredKeys.filter((k) => k in file.keys && file.columns.some((c) => c.name === k))
  let checked = 0
  const mismatches = new KeyMismatches()
  for (const group of file.rowGroups) {
    const wanted = rowCheckColumns(footer, file, group.index, deep)
    try {
      const data = wanted.length > 0 ? await parquet.readColumns(file, group.index, wanted, { signal, background }) : {}
      for (let i = 0; i < group.rows; i++) checkRow(file, group.index, group.firstRow + i, data, keyColumns, deep, out, mismatches)
      checked += group.rows
      options.onRows?.(group.rows)
    } catch (error) {
      if (signal?.aborted) throw error
      out.push(finding('error', 'unreadable-row-group', file.path, (error as Error).message, { row_group: group.index }))
    }
  }
  out.push(...mismatches.findings(file))
  return { findings: out, rows: checked }
}

/** The columns to read along with a row group's facts, so its row checks find them cached. */
export function rowCheckReads(deep: boolean): NonNullable<FactsOptions['alsoRead']> {
  return (file, rowGroup, footer) => rowCheckColumns(footer, file, rowGroup, deep)
}

/**
 * Open options that run the row checks of every file the open reads, right after its footer and facts (one pass
 * over the data), and the map `checkDataset` then takes as `checked`.
 */
export function rowChecksDuringOpen(options: { deep?: boolean; signal?: AbortSignal; onRows?: (rows: number) => void; collector?: FindingsCollector } = {}): {
  open: Pick<OpenOptions, 'facts' | 'onFile'>; checked: Map<string, FileRowChecks>; soFar: RowFindingsSoFar | null
} {
  const checked = new Map<string, FileRowChecks>()
  const deep = options.deep ?? false
  const { collector } = options
  const soFar = collector ? new RowFindingsSoFar(collector.maxPerKind) : null
  return {
    checked,
    soFar,
    open: {
      facts: { alsoRead: rowCheckReads(deep) },
      onFile: async (file, parquet) => {
        const result = await checkFileRows(parquet, file, { deep, signal: options.signal, onRows: options.onRows })
        if (collector) {
          // the file's findings go to the collector now (pass it to `checkDataset` too): the map keeps its rows only,
          // `soFar` a count per kind and the first of each kind (what a snapshot before the end shows)
          for (const f of result.findings) {
            collector.addFinding(f)
            soFar!.add(f)
          }
          await collector.drain()
          result.findings = []
        }
        checked.set(file.path, result)
      },
    },
  }
}

/**
 * The row findings of the files checked so far, bounded: per kind its count and worst severity, and its first
 * `maxPerKind` findings in order of arrival (a provisional report's share of them: `validationSoFar`,
 * open-snapshots.ts). Memory: kinds × `maxPerKind` findings, whatever the row count.
 */
export class RowFindingsSoFar {
  readonly counts = new Map<string, { severity: Finding['severity']; total: number }>()
  readonly kept: Finding[] = []
  private readonly keptOf = new Map<string, number>()

  constructor(readonly maxPerKind: number) {}

  add(f: Finding): void {
    const c = this.counts.get(f.kind)
    const rank = { error: 0, warning: 1, info: 2 }
    if (!c) this.counts.set(f.kind, { severity: f.severity, total: 1 })
    else {
      c.total++
      if (rank[f.severity] < rank[c.severity]) c.severity = f.severity
    }
    const kept = this.keptOf.get(f.kind) ?? 0
    if (kept < this.maxPerKind) {
      this.kept.push(f)
      this.keptOf.set(f.kind, kept + 1)
    }
  }
}

/** Options of `checkDataset`. */
export interface CheckOptions extends ValidateOptions {
  /** Row checks already done (by the open that read the files), by path: those files are not read again. */
  checked?: Map<string, FileRowChecks>
  /** The collector `rowChecksDuringOpen` was given (else one is made with `maxFindingsPerKind` and `buckets`). */
  collector?: FindingsCollector
  /** Findings of one kind the report's `findings` holds (default `defaultMaxFindingsPerKind`; `Infinity`: all). */
  maxFindingsPerKind?: number
  /** Where the findings wait until the report is made (default in memory; Node's file spill keeps them on disk). */
  buckets?: CollectorOptions['buckets']
  /** Every finding of the report in order, without the cap (`validate --findings`). */
  onFindings?: FinishOptions['onFindings']
  /**
   * The row checks read behind every other read (`ReadOptions.background`): the progressive open's, which continue
   * after the dataset is usable while the views read what they show.
   */
  background?: boolean
}

/**
 * Stats and validation of an opened dataset (what opening shows), file by file: a file's facts are read together
 * with the columns its row checks read (one request per row group for both, where they are neighbours), and its row
 * checks run right after, from the chunk cache.
 */
export async function checkDataset(dataset: OpenDataset, options: CheckOptions = {}): Promise<{ stats: StatsReport; validation: ValidateReport }> {
  const { signal, onProgress, deep = false } = options
  const readable = dataset.files.filter((f) => f.readable)
  const totalRows = readable.reduce((n, f) => n + f.rows, 0)
  let rowsChecked = 0
  const source = dataset.source
  const report = () => onProgress?.({ phase: deep ? 'deep' : 'validate', done: rowsChecked, total: totalRows, requests: source.counters.requests, bytes: source.counters.bytes })
  const collector = options.collector ?? new FindingsCollector({ maxPerKind: options.maxFindingsPerKind, buckets: options.buckets })
  // each file's findings go to the collector as the file is done: what is held is the collector's (bounded with buckets)
  const perFile = await mapLimit(readable, options.concurrency ?? 8, async (file) => {
    let result = options.checked?.get(file.path)
    if (result) {
      rowsChecked += result.rows
      report()
    } else {
      if (!file.facts) file.facts = await readFileFacts(dataset.parquet, file, { signal, alsoRead: rowCheckReads(deep) })
      result = await checkFileRows(dataset.parquet, file, { deep, signal, background: options.background, onRows: (rows) => { rowsChecked += rows; report() } })
    }
    for (const f of result.findings) collector.addFinding(f)
    await collector.drain()
    return result.rows
  })
  const stats = statsReport(dataset)
  for (const f of stats.findings) collector.addFinding(f)
  const collected = await collector.finish({ onFindings: options.onFindings })
  return {
    stats,
    validation: {
      schema_version: 1,
      root: dataset.root,
      files_checked: dataset.files.length,
      rows_checked: perFile.reduce((n, rows) => n + rows, 0),
      finding_counts: collected.counts,
      findings_omitted: collected.omitted,
      findings: collected.findings,
    },
  }
}

/** Column values that disagree with their folder key, collected per (key, value) so one finding covers a file. */
class KeyMismatches {
  private readonly seen = new Map<string, { key: string; value: string; rows: number; first: { row: number; row_group: number } }>()
  note(key: string, value: string, row: number, rowGroup: number): void {
    const id = JSON.stringify([key, value])
    const slot = this.seen.get(id)
    if (slot) slot.rows++
    else this.seen.set(id, { key, value, rows: 1, first: { row, row_group: rowGroup } })
  }
  findings(file: DatasetFile): Finding[] {
    return [...this.seen.values()].map((m) => finding('warning', 'key-column-mismatch', file.path,
      `${file.path} has column ${m.key} = ${JSON.stringify(m.value)} in ${m.rows} row(s) (first: row ${m.first.row}) but its folder says ${m.key}=${file.keys[m.key]}; the folder key wins`, m.first))
  }
}

/** Row-level findings for row `row` of `file`. */
function checkRow(
  file: DatasetFile,
  rowGroup: number,
  row: number,
  data: Record<string, ArrayLike<unknown>>,
  keyColumns: string[],
  deep: boolean,
  out: Finding[],
  mismatches: KeyMismatches,
): void {
  const at = { row, row_group: rowGroup }
  const i = row - file.rowGroups[rowGroup].firstRow
  const id = `${file.path}:${row}`
  for (const column of ['text', 'audio_size', 'audio_bytes']) {
    if (column in data && (data[column][i] === null || data[column][i] === undefined)) {
      out.push(finding('error', 'null-value', file.path, `${id} has a null ${column}; the reference does not drop nulls and fails on this row (reference §7)`, at))
    }
  }
  const size = 'audio_size' in data ? toNumber(data.audio_size[i]) : null
  if (size !== null && (!Number.isInteger(size) || size < 0)) {
    out.push(finding('error', 'bad-audio-size', file.path, `${id} has audio_size ${size}; expected a non-negative integer count of 16 kHz samples`, at))
  }
  for (const k of keyColumns) {
    const v = toText(data[k]?.[i])
    if (v !== null && v !== file.keys[k]) mismatches.note(k, v, row, rowGroup)
  }
  if (!('audio_bytes' in data)) return
  const bytes = audioBytesOf(data.audio_bytes[i])
  if (bytes === null) return
  if (bytes.byteLength === 0) {
    out.push(finding('error', 'empty-audio', file.path, `${id} has empty audio_bytes (0 bytes); the reference's decoder rejects an empty MemoryBlock`, at))
    return
  }
  if (deep) out.push(...sniffFindings(id, file.path, bytes, size, at))
}

/** Findings from the container sniffer for one row (`--deep`). */
function sniffFindings(id: string, path: string, bytes: Uint8Array, storedSize: number | null, at: { row: number; row_group: number }): Finding[] {
  const out: Finding[] = []
  const s = sniffAudio(bytes)
  if (s.container === 'unknown') {
    const head = Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join(' ')
    out.push(finding('error', 'unknown-audio-container', path, `${id} audio_bytes start with ${head}: not a container libsndfile reads (the decoder would fail and stop training)`, at))
    return out
  }
  const what = `${s.container}${s.codec ? `/${s.codec}` : ''}`
  const blocking = blockingProblems(s)
  if (blocking.length > 0) {
    out.push(finding('error', 'bad-audio-header', path, `${id} (${what}): ${blocking.join('; ')}`, at))
  }
  const tolerated = s.problems.filter((p) => !blocking.includes(p))
  if (tolerated.length > 0) {
    out.push(finding('warning', 'odd-audio-header', path, `${id} (${what}): ${tolerated.join('; ')} (libsndfile reads through this, so training does)`, at))
  } else if (s.untrainable) {
    out.push(finding('error', 'untrainable-audio', path, `${id} (${what}): ${s.untrainable}`, at))
  }
  if (s.channels !== null && s.channels > 1) {
    out.push(finding('info', 'multichannel-audio', path, `${id} (${what}) has ${s.channels} channels; the waveform path averages them, the fbank path uses channel 0`, at))
  }
  const rate = s.sampleRate ?? s.declaredFramesRate
  if (rate) {
    // the header's count may be at another rate (Opus granules are 48 kHz): bring it to the stream's rate
    const frames = s.declaredFrames === null ? null
      : s.declaredFramesRate && s.declaredFramesRate !== rate ? s.declaredFrames * rate / s.declaredFramesRate : s.declaredFrames
    // header counts of lossy streams are estimates (granules, frame counts): allow a frame of slack there
    const tolerance = s.codec === 'pcm' || s.codec === 'float' || s.codec === 'flac' ? 0 : s.codec === 'opus' ? 2 : 1152
    out.push(...audioLengthFindings({ path, ...at }, storedSize, { sampleRate: rate, frames, codec: s.codec }, { label: `${id} (${what})`, tolerance }))
  }
  return out
}
