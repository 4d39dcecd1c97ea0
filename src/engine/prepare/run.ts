/**
 * Converting a plan: every partition's rows in their (shuffled) order through the clip processor, a few clips in
 * flight, into `version=<V>/corpus=…/split=…/language=…/part-<k>.parquet` files of up to 10,000 rows in row groups
 * of 100 (the reference's `min_rows_per_file=10_000, row_group_size=100`), then `language_distribution_<V>.tsv`
 * beside `version=<V>`, `_prepare_skipped.jsonl` (every skipped row with its reason) and `_prepare_report.json`.
 * A finished file is recorded in `_prepare_state.json`, so a cancelled run resumes after its last finished file;
 * the same plan always writes the same bytes.
 */
import type { AudioFormat } from './encode/types.ts'
import { HfAudioReader } from './inputs/hf-parquet.ts'
import { dirOf, outsideInput, resolveAudioPath, type InputFiles } from './inputs/input-files.ts'
import { STREAM_INPUT_BYTES, type ClipProcessor, type ClipResult, type StreamedClipConverter } from './clip.ts'
import { overSampleLimit } from '../audio/types.ts'
import { planFingerprint } from './plan.ts'
import { datasetSums, statsTsv } from './stats-tsv.ts'
import { type PlannedPartition, type PlannedRow, type PreparePlan, type PrepareReport, type SkippedRow, type WrittenFile } from './types.ts'
import { audioRefName, audioSegment, SKIP_REASONS, type SkipReason } from './inputs/types.ts'
import { PreparedParquetWriter, type PreparedRow } from './write/parquet-file.ts'
import type { OutputFile, OutputSink } from './write/sink.ts'

/** Rows per output file and per row group (OA:hf_dataset_ingestion_example.py:221-226). */
export const ROWS_PER_FILE = 10_000
export const ROWS_PER_GROUP = 100

/** Planned rows read from the plan's store at a time. */
const ROWS_READ = 1024

/** Files beside `version=<V>` (their `_` keeps the reference and mixscope from reading them as data). */
export const STATE_FILE = '_prepare_state.json'
export const SKIPPED_FILE = '_prepare_skipped.jsonl'
export const REPORT_FILE = '_prepare_report.json'

/** Progress of a run. */
export interface PrepareProgress {
  /** Rows decided (written or skipped) of those planned. */
  rowsDone: number
  rowsTotal: number
  rowsWritten: number
  /** Rows that failed while converting (unreadable audio). */
  rowsFailed: number
  /** Σ audio_size written, 16 kHz samples. */
  samplesWritten: number
  filesWritten: number
  /** The file being written. */
  file: string | null
  /** Rows taken from finished files of an earlier run. */
  rowsResumed: number
  /**
   * Rows this run wrote whose audio was converted a stretch at a time from ranged reads (a long input file, or a
   * compressed one over the sample limit: `streamClip`); not in the report, so that a merge of parts, which takes
   * the clips from them, writes the report an unsharded run writes.
   */
  rowsStreamed: number
}

/** Options of `runPrepare`. */
export interface RunPrepareOptions {
  plan: PreparePlan
  /** The input folder (not needed when `convert` is given). */
  input?: InputFiles
  sink: OutputSink
  processClip: ClipProcessor
  /** Clips in flight (default 4). */
  concurrency?: number
  signal?: AbortSignal
  /** Awaited before each clip starts: a pause holds the run there. */
  gate?: () => Promise<void>
  onProgress?: (progress: PrepareProgress) => void
  /** Start again from scratch even when a state of the same plan exists. */
  fresh?: boolean
  createdBy?: string
  /**
   * Converts the clips of raw-sample input files over `STREAM_INPUT_BYTES` a stretch at a time, in this thread
   * (`createStreamedClipConverter`); without it they are read whole, and a file over `decodeAudio`'s sample limit
   * is unreadable.
   */
  streamClip?: StreamedClipConverter
  /** Converts each row instead of `input` + `processClip` (a merge of sharded parts takes the clips from them). */
  convert?: RowConverter
  /** Rows per file and per row group (tests use small ones; default the reference's 10,000 and 100). */
  rowsPerFile?: number
  rowsPerGroup?: number
}

/** A finished file as the state records it. */
interface StateFile extends WrittenFile {
  partition: string
  /** Planned rows of the partition covered so far (exclusive end). */
  end: number
  /** Rows of this stretch that failed. */
  failed: SkippedRow[]
}

interface PrepareState {
  format: 'mixscope-prepare-state'
  version: 1
  fingerprint: string
  files: StateFile[]
}

const encoder = new TextEncoder()

async function writeWhole(sink: OutputSink, path: string, text: string): Promise<void> {
  const f = await sink.create(path)
  await f.write(encoder.encode(text))
  await f.close()
}

async function readState(sink: OutputSink, fp: string): Promise<PrepareState | null> {
  const bytes = await sink.read(STATE_FILE)
  if (!bytes) return null
  try {
    const state = JSON.parse(new TextDecoder().decode(bytes)) as PrepareState
    return state.format === 'mixscope-prepare-state' && state.fingerprint === fp ? state : null
  } catch {
    return null
  }
}

/** A row's audio that is not there (as opposed to there but not decodable). */
class MissingAudio extends Error {}

/** Reads a planned row's input audio. @throws MissingAudio when it does not exist */
function audioReader(input: InputFiles) {
  const hf = new HfAudioReader(input)
  return async (row: PlannedRow, signal?: AbortSignal): Promise<Uint8Array> => {
    if (row.audio.kind === 'file') return input.source.read(row.audio.path, 0, input.sizes.get(row.audio.path) ?? 0, { signal })
    if (row.audio.kind === 'member') return input.source.read(row.audio.file, row.audio.start, row.audio.end, { signal })
    const cell = await hf.read(row.audio.file, row.audio.rowGroup, row.audio.row, signal)
    if (cell.bytes) return cell.bytes
    // datasets decodes `path` when `bytes` is null: read it when it names a file of the input
    if (!cell.path) throw new MissingAudio(`${row.where}: the "audio" cell has neither bytes nor a path`)
    const path = resolveAudioPath(input, dirOf(row.audio.file), cell.path)
    const outside = outsideInput(path)
    if (outside !== null) throw new MissingAudio(`${row.where}: the "audio" cell has no bytes, and its path ${JSON.stringify(cell.path)} ${outside}`)
    if (!input.sizes.has(path)) throw new MissingAudio(`${row.where}: the "audio" cell has no bytes, and its path ${JSON.stringify(cell.path)} is not a file of the input folder`)
    return input.source.read(path, 0, input.sizes.get(path)!, { signal })
  }
}

/** Turns a planned row into its converted clip. */
export type RowConverter = (row: PlannedRow, signal?: AbortSignal) => Promise<ClipResult>

/**
 * What `runPrepare` does with each row: read its input audio, convert it with `processClip`; a read that fails
 * becomes the row's `unreadable-audio` reason. A file (or tar member) over `STREAM_INPUT_BYTES` that holds raw
 * samples or a compressed stream read in pieces (FLAC, Ogg, MP3, the coded WAV/AIFC/Wave64/CAF streams) goes to `streamClip` instead, which
 * reads only the frames the clip takes, a stretch at a time; so does a smaller file that the whole-file path refuses
 * for its sample count (`overSampleLimit`). A sharded
 * dataprep (src/engine/prepare/partial) converts with it too.
 */
export function rowConverter(input: InputFiles, processClip: ClipProcessor, format: AudioFormat, streamClip?: StreamedClipConverter): RowConverter {
  const read = audioReader(input)
  const whole: RowConverter = (row, signal) => read(row, signal).then(
    (bytes) => processClip({ bytes, id: row.where, format, ...(audioSegment(row.audio) ? { segment: audioSegment(row.audio) } : {}) }, signal),
    (error: Error) => (error instanceof MissingAudio
      ? { ok: false, error: error.message, reason: 'missing-audio' }
      : { ok: false, error: `${row.where}: cannot read ${row.audio.kind === 'parquet' ? 'the audio cell' : audioRefName(row.audio)} (${error.message})` }) as ClipResult,
  )
  if (!streamClip) return whole
  return async (row, signal) => {
    const a = row.audio
    if (a.kind === 'parquet') return whole(row, signal)
    const [file, from, size] = a.kind === 'file' ? [a.path, 0, input.sizes.get(a.path)] : [a.file, a.start, a.end - a.start]
    if (size === undefined) return whole(row, signal)
    // a file up to STREAM_INPUT_BYTES is read whole, unless it decodes to more than decodeAudio's sample limit (a
    // compressed file: 12 minutes of 48 kHz stereo MP3 is 14 MB)
    const first = size <= STREAM_INPUT_BYTES ? await whole(row, signal) : null
    if (first && (first.ok || !overSampleLimit(first.error))) return first
    const segment = audioSegment(a)
    try {
      const result = await streamClip({
        read: (start, end) => input.source.read(file, from + start, from + end, { signal }), size, id: row.where, format, ...(segment ? { segment } : {}),
      }, signal)
      return result ?? first ?? whole(row, signal)
    } catch (error) {
      signal?.throwIfAborted()
      return { ok: false, error: `${row.where}: cannot read ${audioRefName(a)} (${(error as Error).message})` }
    }
  }
}

/**
 * Runs the plan into `sink`.
 * @returns the report (also written as `_prepare_report.json`)
 * @throws the abort reason when `signal` aborts (finished files stay, and are reused by the next run)
 */
export async function runPrepare(options: RunPrepareOptions): Promise<PrepareReport> {
  const release = await options.sink.lock(options.createdBy ?? 'mixscope prepare')
  try {
    return await runLocked(options)
  } finally {
    await release()
  }
}

async function runLocked(options: RunPrepareOptions): Promise<PrepareReport> {
  const { plan, input, sink, processClip, signal, gate, onProgress } = options
  const concurrency = Math.max(1, options.concurrency ?? 4)
  const rowsPerFile = options.rowsPerFile ?? ROWS_PER_FILE
  const rowsPerGroup = options.rowsPerGroup ?? ROWS_PER_GROUP
  const fp = await planFingerprint(plan)
  const previous = options.fresh ? null : await readState(sink, fp)
  const state: PrepareState = { format: 'mixscope-prepare-state', version: 1, fingerprint: fp, files: [] }
  if (!options.convert && !input) throw new Error('prepare: runPrepare needs the input folder, or a converter of its rows')
  const convert = options.convert ?? rowConverter(input!, processClip, plan.audioFormat as AudioFormat, options.streamClip)
  const rowsTotal = plan.partitions.reduce((n, p) => n + p.rows.length, 0)
  const progress: PrepareProgress = { rowsDone: 0, rowsTotal, rowsWritten: 0, rowsFailed: 0, samplesWritten: 0, filesWritten: 0, file: null, rowsResumed: 0, rowsStreamed: 0 }
  const report = () => onProgress?.({ ...progress })

  for (const partition of plan.partitions) {
    let start = 0
    let part = 0
    // reuse this partition's finished files of an earlier run of the same plan, while they are still there
    for (const f of previous?.files.filter((x) => x.partition === partition.folder) ?? []) {
      if (f.path !== filePath(plan, partition, part)) break
      if (f.rows > 0 && (await sink.size(f.path)) !== f.bytes) break
      state.files.push(f)
      progress.rowsResumed += f.end - start
      progress.rowsDone += f.end - start
      progress.rowsWritten += f.rows
      progress.rowsFailed += f.failed.length
      progress.samplesWritten += f.audioSamples
      progress.filesWritten++
      start = f.end
      if (f.rows > 0) part++
    }
    report()
    await convertPartition(partition, start, part)
  }

  async function convertPartition(partition: PlannedPartition, from: number, firstPart: number): Promise<void> {
    const rows = partition.rows
    // the partition's planned rows, a stretch at a time from the plan's store
    let stretch: PlannedRow[] = []
    let stretchAt = 0
    const rowAt = async (i: number): Promise<PlannedRow> => {
      if (i < stretchAt || i >= stretchAt + stretch.length) {
        stretchAt = i
        stretch = await rows.read(i, i + ROWS_READ)
      }
      return stretch[i - stretchAt]
    }
    let part = firstPart
    let open: { path: string; file: OutputFile; writer: PreparedParquetWriter; samples: number; failed: SkippedRow[] } | null = null
    let group: PreparedRow[] = []
    const queue: { row: PlannedRow; result: Promise<ClipResult> }[] = []
    let next = from
    const launch = async () => {
      while (queue.length < concurrency && next < rows.length) {
        await gate?.()
        signal?.throwIfAborted()
        const row = await rowAt(next++)
        queue.push({ row, result: convert(row, signal) })
      }
    }
    try {
      for (let i = from; i < rows.length; i++) {
        await launch()
        const head = queue.shift()!
        const { row } = head
        const result = await head.result
        signal?.throwIfAborted()
        if (!open) {
          const path = filePath(plan, partition, part)
          const file = await sink.create(path)
          open = { path, file, writer: new PreparedParquetWriter(file, options.createdBy), samples: 0, failed: [] }
          progress.file = path
        }
        progress.rowsDone++
        if (!result.ok) {
          progress.rowsFailed++
          open.failed.push({ index: row.index, where: row.where, reason: result.reason ?? 'unreadable-audio', message: result.error, problem: result.error, fix: null, audio: audioRefName(row.audio) })
        } else {
          group.push({ text: row.text, audio: result.audio, audioSize: result.audioSize })
          open.samples += result.audioSize
          if (result.streamed) progress.rowsStreamed++
          progress.rowsWritten++
          progress.samplesWritten += result.audioSize
          if (group.length === rowsPerGroup) {
            await open.writer.writeRowGroup(group)
            group = []
          }
        }
        const full = open.writer.rowCount + group.length >= rowsPerFile
        if (full || i === rows.length - 1) {
          await open.writer.writeRowGroup(group)
          group = []
          if (open.writer.rowCount === 0) {
            // every row of this stretch failed: no file
            await open.file.abort()
            state.files.push({ path: open.path, partition: partition.folder, end: i + 1, rows: 0, bytes: -1, audioSamples: 0, failed: open.failed })
          } else {
            await open.writer.finish()
            await open.file.close()
            const bytes = (await sink.size(open.path)) ?? 0
            state.files.push({ path: open.path, partition: partition.folder, end: i + 1, rows: open.writer.rowCount, bytes, audioSamples: open.samples, failed: open.failed })
            progress.filesWritten++
            part++
          }
          open = null
          progress.file = null
          await writeWhole(sink, STATE_FILE, JSON.stringify(state))
        }
        report()
      }
    } catch (error) {
      await open?.file.abort()
      await Promise.allSettled(queue.map((q) => q.result))
      throw error
    }
  }

  return finish()

  async function finish(): Promise<PrepareReport> {
    const written = state.files.filter((f) => f.rows > 0)
    const byFolder = new Map(plan.partitions.map((p) => [p.folder, p]))
    const tsvName = `language_distribution_${plan.version}.tsv`
    // the dataset's TSV, not this run's: every file under version=<V>, as the reference computes it, so that several
    // inputs prepared into one output are all in it (training drops partitions the TSV does not list)
    const root = await sink.source(`version=${plan.version}`)
    const sums = root ? await datasetSums(root, signal) : { samples: [], excluded: [] }
    await writeWhole(sink, tsvName, statsTsv(sums.samples))
    const notes = [...plan.notes, ...sums.excluded.map((e) => `stats TSV: left out ${e}`)]
    const thisRun = new Set(written.map((f) => `${byFolder.get(f.partition)!.corpus}\u0000${byFolder.get(f.partition)!.language}`))
    const others = new Set(sums.samples.map((s) => `${s.corpus}\u0000${s.language}`).filter((k) => !thisRun.has(k)))
    if (others.size) notes.push(`stats TSV: also counts ${others.size} (corpus, language) pairs written into version=${plan.version} by earlier runs`)
    const skipped = [...await plan.skipped.read(0, plan.skipped.length), ...state.files.flatMap((f) => f.failed)].sort((a, b) => a.index - b.index)
    await writeWhole(sink, SKIPPED_FILE, skipped.map((s) => JSON.stringify(s)).join('\n') + (skipped.length ? '\n' : ''))
    const counts = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>
    for (const s of skipped) counts[s.reason]++
    const samples = written.reduce((n, f) => n + f.audioSamples, 0)
    const result: PrepareReport = {
      schema_version: 1,
      root: `version=${plan.version}`,
      format: plan.format,
      audio_format: plan.audioFormat,
      input_rows: plan.inputRows,
      rows_written: written.reduce((n, f) => n + f.rows, 0),
      hours_written: samples / 16000 / 3600,
      files: written.map(({ path, rows, bytes, audioSamples }) => ({ path, rows, bytes, audioSamples })),
      skipped: counts,
      languages: plan.languages,
      notes,
      stats_tsv: tsvName,
    }
    await writeWhole(sink, REPORT_FILE, JSON.stringify(result, null, 2) + '\n')
    return result
  }
}

/** `version=<V>/<partition folder>/part-<k>.parquet`. */
function filePath(plan: PreparePlan, partition: PlannedPartition, part: number): string {
  return `version=${plan.version}/${partition.folder}/part-${part}.parquet`
}
