/**
 * `auditDataset`: the data audit. A metadata pass (audio_size and text only) feeds the splits, mixture,
 * length, text, script, token, leakage and ranks checks; with `deep` or `sample` an audio pass decodes rows per
 * row group (through a pluggable measurer, so a worker pool can run it) and feeds the audio checks. Deterministic
 * for the same dataset and options; the audio pass is resumable through `state`.
 */
import type { RunOptions } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { defaultPipelineConfig } from '../pipeline/config/defaults.ts'
import { parseSplit } from '../pipeline/config/split.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { auditRowsConfig } from './rows-config.ts'
import { audioBytesOf } from '../parquet/audio-bytes.ts'
import type { Finding } from '../core/findings.ts'
import { FindingsCollector, type FinishOptions } from '../core/findings-sink.ts'
import { mapLimit } from '../core/map-limit.ts'
import { checkAudio, type MeasuredRow } from './checks/audio.ts'
import { checkRanks } from './checks/ranks.ts'
import type { AuditTokenizer } from './checks/tokens.ts'
import { metadataPass, rowChecks, type MetadataPass, type RowChecks } from './metadata-pass.ts'
import { measureAudioTask } from './measure.ts'
import { checkNearDuplicatesSpilled, FingerprintSpill, type FingerprintLocations, type SpilledNearDuplicateOptions } from './fingerprint-spill.ts'
import { forEachQuickItem, quickAudioCheckOnce } from './quick-audio.ts'
import { memorySpill, type RowSpillFactory } from './rows/spill.ts'
import { assembleReport } from './assemble-report.ts'
import { selectAudioRows } from './sample.ts'
import { adoptAuditState, auditFingerprint, groupKey } from './state.ts'
import type { AudioMeasure, AudioMeasurer, AudioTask, AuditReport, AuditRow, AuditState, CheckResult } from './rows/types.ts'

/** Options of `auditDataset`. */
export interface AuditOptions extends RunOptions {
  /** Pipeline config (reference names); default: the reference defaults. */
  config?: PipelineConfig
  /** Decode every row. */
  deep?: boolean
  /**
   * The metadata pass and the cheap audio check read behind every other read (`ReadOptions.background`): the
   * explorer's views keep reading while the audit's rows are read.
   */
  background?: boolean
  /**
   * Run the cheap audio check (quick-audio.ts) over every row when no audio is decoded (neither `deep` nor
   * `sample`); its result is kept per opened dataset, so re-auditing with another config does not read the bytes again.
   */
  quick?: boolean
  /** Decode this fraction of each language's rows, in (0, 1] (ignored with `deep`). */
  sample?: number
  /** Seed of the sample (default 0). */
  seed?: number
  /** Tokenizer for the unknown-token check (e.g. `loadSpmTokenizer`). */
  tokenizer?: AuditTokenizer
  /** Runs one audio task; default: decode in this thread. Pass a worker pool's to use more cores. */
  measure?: AudioMeasurer
  /** Audio tasks in flight (default 2). */
  concurrency?: number
  /** Resumable audio state, filled in place as row groups finish; pass it back after a cancel to resume. */
  state?: AuditState
  /**
   * Where the row records wait for their partition's checks (src/engine/audit/rows/spill.ts); default in memory.
   * Node's `createFileSpill` keeps the audit's memory to one partition's rows.
   */
  spill?: RowSpillFactory
  /** Rows of one partition of the row checks (default `defaultRowBudget`, metadata-pass.ts). */
  rowBudget?: number
  /**
   * With `quick`: receives the report without the audio check as soon as the metadata pass is through, before the
   * audio check reads (the explorer shows it meanwhile; the final report is the same with the audio check added).
   */
  onRowsReport?: (report: AuditReport) => void
  /**
   * With `onRowsReport`: every finding of that report, as `onFindings` hands the final one's (uncapped, in order),
   * before `onRowsReport` is called (the explorer's "Only flagged" lists these rows while the audio check reads).
   */
  onRowsFindings?: FinishOptions['onFindings']
  /**
   * The config's findings on this dataset, written as the report's `config_findings` (`auditWithConfig`,
   * configured.ts, computes them: resolution findings and `checkConfig`); none when absent.
   */
  configFindings?: readonly Finding[]
  /**
   * Findings of one kind the report's `findings` holds (default `defaultMaxFindingsPerKind`, core/findings-sink.ts;
   * `Infinity`: every one); `finding_counts` counts them all. With `spill`, the findings wait in a spill of their own
   * until the report is assembled (on disk in Node), so the audit holds at most this many per kind.
   */
  maxFindingsPerKind?: number
  /** Every finding of the report in order, without the cap, a path's at a time (`audit --findings`, `--flagged`). */
  onFindings?: FinishOptions['onFindings']
  /**
   * The near-duplicate search's slices and the bytes of fingerprints it holds at once (src/engine/audit/fingerprint-spill.ts;
   * the fingerprints wait in a spill from `spill`, in memory without it). Defaults: ⌈band entries / 2^22⌉ slices, 32 MB.
   */
  nearDuplicates?: SpilledNearDuplicateOptions
}

const inThread: AudioMeasurer = (task, signal) => measureAudioTask(task, {}, signal)

/**
 * Audits an opened dataset.
 * @returns the report (`audit --json`); deterministic for the same dataset and options
 * @throws the abort reason when `signal` aborts (the `state` keeps what finished)
 */
export async function auditDataset(dataset: OpenDataset, options: AuditOptions = {}): Promise<AuditReport> {
  // the checks see only the keys of rows-config.ts: a config change elsewhere (the betas) leaves the report as it is
  const config = auditRowsConfig(options.config ?? defaultPipelineConfig())
  const { signal, onProgress } = options
  const counters = dataset.source.counters
  const progress = (phase: 'stats' | 'deep', done: number, total: number) =>
    onProgress?.({ phase, done, total, requests: counters.requests, bytes: counters.bytes })
  const trainSplit = parseSplit(config.split).split
  const sample = options.deep ? 1 : options.sample ?? 0
  const seed = options.seed ?? 0

  // the findings wait beside the row records (a spill of their own: on disk in Node) until the report is assembled
  const buckets = options.spill ? await options.spill() : undefined
  try {
    const collector = new FindingsCollector({ maxPerKind: options.maxFindingsPerKind, buckets })
    return await audit(collector)
  } finally {
    await buckets?.close()
  }

  async function audit(collector: FindingsCollector): Promise<AuditReport> {
    const spill = await (options.spill ?? (async () => memorySpill()))()
    let pass: MetadataPass
    let checks: RowChecks
    try {
      pass = await metadataPass(dataset, {
        spill, rowBudget: options.rowBudget, config, trainSplit, tokenizer: options.tokenizer, signal, background: options.background, keepSizes: sample > 0,
        // rows read of all (a counter that moves at 10⁷ rows, where row groups are few and slow)
        onRowGroup: (_d, _t, rows, total) => progress('stats', rows, total), collector,
      })
      checks = await rowChecks(pass, spill, { config, trainSplit, summary: dataset.summary, signal, collector })
    } finally {
      await spill.close()
    }
    // the same results in the same order as the merge of shard parts (partial/merge.ts)
    const results: CheckResult[] = [
      { items: pass.items, tables: {} },
      checks.splits,
      checks.mixture,
      checks.length,
      checks.text,
      pass.script,
      checks.leakage,
      checkRanks(dataset.files, config),
    ]
    if (pass.tokens) results.push(pass.tokens)

    let measured: MeasuredRow[] = []
    let quickRows = 0
    const reportOptions = (quick: boolean) => ({
      deep: !!options.deep, quick, sample, seed, split: config.split, min_audio_len: config.min_audio_len, max_audio_len: config.max_audio_len,
      min_samples_per_char: config.min_samples_per_char, world_size: config.world_size, tokenizer: !!options.tokenizer,
    })
    if (sample > 0) {
      const rows = audioRows(dataset, pass, sample, seed)
      // the fingerprints wait in a spill of their own (on disk in Node) for the near-duplicate search
      const fingerprints = new FingerprintSpill(await (options.spill ?? (async () => memorySpill()))())
      try {
        measured = await audioPass(dataset, rows, { ...options, sample, seed, progress, selected: rows.map((_, i) => i), fingerprints })
        results.push(checkAudio(measured, await checkNearDuplicatesSpilled(measured, fingerprints, options.nearDuplicates)))
      } finally {
        await fingerprints.close()
      }
    } else if (options.quick) {
      if (options.onRowsReport) {
        // the rows' report before the audio check reads: capped like the final one, from a copy of the collector's counts
        options.onRowsReport(await assembleReport({
          root: dataset.root, options: reportOptions(false),
          files: dataset.files.length, rowGroups: pass.rowGroups, rowCount: pass.rowCount, samples: checks.samples, measured, rowsAudioChecked: 0,
          datasetFindings: dataset.findings, configFindings: options.configFindings ?? [], results, collector: await collector.fork(),
          onFindings: options.onRowsFindings,
        }))
      }
      const quick = await quickAudioCheckOnce(dataset, { signal, background: options.background, onRows: (d, t) => onProgress?.({ phase: 'audit', done: d, total: t, requests: counters.requests, bytes: counters.bytes }) })
      // every row finding goes to the collector (which spills): the check itself holds its first ones and positions
      await forEachQuickItem(dataset, quick, async (item) => {
        collector.add(item)
        await collector.drain()
      }, { signal, background: options.background })
      results.push({ items: [], tables: { audio_check: quick.census } })
      quickRows = quick.rows
    }

    return assembleReport({
      root: dataset.root, options: reportOptions(sample === 0 && !!options.quick),
      files: dataset.files.length, rowGroups: pass.rowGroups, rowCount: pass.rowCount, samples: checks.samples, measured, rowsAudioChecked: quickRows,
      datasetFindings: dataset.findings, configFindings: options.configFindings ?? [], results, collector, onFindings: options.onFindings,
    })
  }
}

/**
 * The rows the audio pass decodes (`selectAudioRows` over every read row, dataset order), as `AuditRow`s: only the
 * selected rows are made into objects (every row with `--deep`).
 */
function audioRows(dataset: OpenDataset, pass: MetadataPass, fraction: number, seed: number): AuditRow[] {
  // every read row as its language (one shared object per language), dataset order
  const byLanguage = new Map<string, { language: string }>()
  const all: { language: string }[] = []
  const units: { file: number; rowGroup: number; firstRow: number; rows: number }[] = []
  dataset.files.forEach((file, index) => {
    if (!file.readable) return
    const language = pass.files[index].language
    let row = byLanguage.get(language)
    if (!row) byLanguage.set(language, row = { language })
    for (const g of file.rowGroups) {
      if (pass.unread.has(`${index}#${g.index}`)) continue
      units.push({ file: index, rowGroup: g.index, firstRow: g.firstRow, rows: g.rows })
      for (let r = 0; r < g.rows; r++) all.push(row)
    }
  })
  const picked = selectAudioRows(all as unknown as AuditRow[], fraction, seed)
  all.length = 0
  const out: AuditRow[] = []
  let u = 0
  let start = 0
  for (const position of picked) {
    while (position >= start + units[u].rows) start += units[u++].rows
    const { file, rowGroup, firstRow } = units[u]
    const row = firstRow + position - start
    const f = pass.files[file]
    const size = pass.sizes![pass.fileStart[file] + row]
    out.push({ file, path: f.path, row, rowGroup, corpus: f.corpus, language: f.language, split: f.split, audioSize: Number.isNaN(size) ? null : size, text: null })
  }
  return out
}

/** Options of `audioPass`. */
export interface AudioPassOptions extends AuditOptions {
  sample: number
  seed: number
  progress: (phase: 'deep', done: number, total: number) => void
  /** Indices into `rows` to decode, ascending (a shard's share of the whole dataset's selection); default `selectAudioRows`. */
  selected?: readonly number[]
  /**
   * Where the fingerprints go (placed in row order): the measures returned do not carry them (those in `state` do).
   * Without it, the measures keep them (a shard's part carries them).
   */
  fingerprints?: FingerprintSpill
}

/** Decodes the selected rows per row group (resuming from `state`), returns them with their measures in row order. */
export async function audioPass(dataset: OpenDataset, rows: readonly AuditRow[], options: AudioPassOptions): Promise<MeasuredRow[]> {
  const { signal } = options
  const selected = options.selected ?? selectAudioRows(rows, options.sample, options.seed)
  const state = options.state
  if (state) adoptAuditState(state, auditFingerprint(dataset.files, { sample: options.sample, seed: options.seed }))
  const groups = new Map<string, AuditRow[]>()
  for (const i of selected) {
    const r = rows[i]
    const key = groupKey(r.path, r.rowGroup)
    const list = groups.get(key)
    if (list) list.push(r)
    else groups.set(key, [r])
  }
  const measure = options.measure ?? inThread
  const total = selected.length
  let done = 0
  const entries = [...groups]
  const fingerprints = options.fingerprints
  // with `fingerprints`, each group's go to the spill as it finishes: the measures kept here are copies without them
  const spilled: FingerprintLocations[] = []
  const keep = async (g: number, measures: AudioMeasure[]): Promise<AudioMeasure[]> => {
    if (!fingerprints) return measures
    const written = await fingerprints.writeMeasures(measures)
    spilled[g] = written.locations
    return written.measures
  }
  const results = await mapLimit(entries, options.concurrency ?? 2, async ([key, list], g): Promise<AudioMeasure[]> => {
    const saved = state?.groups[key]
    if (saved && saved.length === list.length && saved.every((m, i) => m.row === list[i].row)) {
      done += list.length
      options.progress('deep', done, total)
      return keep(g, saved)
    }
    if (signal?.aborted) throw signal.reason ?? new Error('audit: aborted')
    const file = dataset.files[list[0].file]
    const hasBytes = file.columns.some((c) => c.name === 'audio_bytes')
    const first = file.rowGroups[list[0].rowGroup].firstRow
    const cells = hasBytes ? (await dataset.parquet.readColumns(file, list[0].rowGroup, ['audio_bytes'], { signal })).audio_bytes : null
    const task: AudioTask = { path: file.path, rowGroup: list[0].rowGroup, rows: list.map((r) => ({ row: r.row, bytes: cells ? audioBytesOf(cells[r.row - first]) : null })) }
    const measures = await measure(task, signal)
    if (measures.length !== list.length) throw new Error(`audit: measurer returned ${measures.length} results for ${list.length} rows of ${key}`)
    if (state) state.groups[key] = measures
    done += list.length
    options.progress('deep', done, total)
    return keep(g, measures)
  })
  if (fingerprints) for (const locations of spilled) fingerprints.place(locations)
  const out: MeasuredRow[] = []
  entries.forEach(([, list], g) => list.forEach((row, i) => out.push({ row, measure: results[g][i] })))
  return out
}

