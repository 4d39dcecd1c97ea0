/**
 * Shapes of the data audit: the rows it reads, what each check returns, the report `audit --json` prints,
 * and the resumable state of the audio pass.
 */
import type { Finding } from '../../core/findings.ts'
import type { FindingCount, FindingItem } from '../../core/findings-sink.ts'
import type { ExampleLocation } from '../../dataset/example-id.ts'

/**
 * One row as the metadata checks see it (no audio bytes): its location (the example id is `<path>:<row>`, made only
 * for the rows a finding names) and the three partition keys the checks group by, `''` when absent (kept flat, not
 * as the file's `keys`, because the checks read them per row).
 */
export interface AuditRow extends ExampleLocation {
  /** Index of the file in `dataset.files` (UTF-8 path order). */
  file: number
  corpus: string
  language: string
  split: string
  /** Stored `audio_size` (16 kHz samples); `null` when null or missing. */
  audioSize: number | null
  /** Transcript; `null` when null or missing. */
  text: string | null
}

/** One finding plus how many rows and stored samples it is about (for the per-kind summary). */
export type AuditItem = FindingItem

/** What every check module returns: items plus named detail tables (rows of plain JSON values). */
export interface CheckResult {
  items: AuditItem[]
  tables: Record<string, TableRow[]>
}

/** One row of a detail table: plain JSON values only (a list of example ids, e.g. a near-duplicate cluster's members). */
export type TableRow = Record<string, string | number | null | string[]>

/** Per-kind totals of the summary. */
export interface KindSummary {
  severity: Finding['severity']
  /** Findings of this kind. */
  count: number
  /** Σ rows the findings are about. */
  rows: number
  /** Σ hours of those rows (audio_size / 16000 / 3600). */
  hours: number
}

/** `audit --json`. */
export interface AuditReport {
  schema_version: 1
  root: string
  /** What was audited and how. */
  options: {
    deep: boolean
    /** The cheap audio check ran over every row (src/engine/audit/quick-audio.ts): only without `deep` or a sample. */
    quick: boolean
    /** Fraction of rows per language decoded (`1` for deep, `0` for metadata only). */
    sample: number
    seed: number
    split: string
    min_audio_len: number
    max_audio_len: number
    min_samples_per_char: number
    world_size: number
    tokenizer: boolean
    /** Findings of one kind `findings` holds (`null`: every one). */
    max_findings_per_kind: number | null
  }
  /**
   * `rows_audio_checked`: rows the cheap audio check read (0 unless `options.quick`); `flagged_rows`: rows with at
   * least one row finding, each counted once; `flagged_hours`: their hours.
   */
  totals: {
    files: number; row_groups: number; rows: number; hours: number; rows_decoded: number; hours_decoded: number
    rows_audio_checked: number; flagged_rows: number; flagged_hours: number
  }
  /** Per finding kind: severity, count, rows, hours. Kinds in alphabetical order. */
  summary: Record<string, KindSummary>
  /**
   * Per finding kind (UTF-8 order): its severity, how many findings there are (`total`, exact duplicates once) and
   * how many `findings` holds (`shown`, the first ones in order; at most `options.max_findings_per_kind`).
   */
  finding_counts: Record<string, FindingCount>
  /** Findings counted in `finding_counts` but left out of `findings` (0 when `findings` is the whole list). */
  findings_omitted: number
  /** The first `options.max_findings_per_kind` findings of each kind, sorted (docs/conventions.md "Findings and exit codes"). */
  findings: Finding[]
  /**
   * What the config would do on this dataset, as the explorer's Audit view shows it: the config's resolution findings
   * and `checkConfig` (docs/reference-pipeline.md §19), sorted. Not counted in `summary`, `totals` or the tables.
   */
  config_findings: Finding[]
  /** Detail tables (histograms, per-language counts), by name; every chart's numbers. */
  tables: Record<string, TableRow[]>
}

/** What the audio pass measures for one row (JSON-serializable: kept in the resume state). */
export type AudioMeasure = AudioDecoded | AudioFailed

/** A row that decoded. */
export interface AudioDecoded {
  row: number
  ok: true
  container: string
  codec: string | null
  sampleRate: number
  channels: number
  frames: number
  /** Whole-clip RMS of the mono mix in dBFS (`-Infinity` → `null` for digital silence). */
  rmsDb: number | null
  /** Share of 25 ms frames whose RMS is below the silence threshold. */
  silentShare: number
  /** Share of samples (all channels) at full scale. */
  clippedShare: number
  /** Mean of the mono mix (DC offset, full scale = 1). */
  dcOffset: number
  /** Hash of the encoded bytes (hex). */
  bytesHash: string
  /** Hash of the decoded float32 samples (hex). */
  pcmHash: string
  /** Decoder warnings (e.g. length differs from the header). */
  warnings: string[]
  /**
   * The speech fingerprint of the 16 kHz mono signal (src/engine/features/dsp/fingerprint.ts), base64; `null` when
   * the clip is too short or silent. Absent in states and parts written before near-duplicate search existed.
   */
  fingerprint?: string | null
}

/** A row that did not decode. */
export interface AudioFailed {
  row: number
  ok: false
  /** The decoder's message. */
  error: string
  /** Hash of the encoded bytes (hex), `null` when the cell is null/empty. */
  bytesHash: string | null
}

/** One unit of audio work: some rows of one row group, with their encoded bytes. */
export interface AudioTask {
  path: string
  rowGroup: number
  rows: { row: number; bytes: Uint8Array | null }[]
}

/** Runs one audio task (in this thread or a worker); must return one measure per task row, in order. */
export type AudioMeasurer = (task: AudioTask, signal?: AbortSignal) => Promise<AudioMeasure[]>

/**
 * Resumable state of the audio pass: results per `(file, row group)`, JSON-serializable (the browser keeps it in
 * IndexedDB/OPFS, the CLI may write it to a file). Valid only for the same dataset files and audio selection.
 */
export interface AuditState {
  format: 'mixscope-audit-state'
  version: 1
  /** Fingerprint of the dataset's files (paths, sizes) and the audio selection (deep/sample/seed). */
  fingerprint: string
  /** Measures by `"<path>#<row group>"`. */
  groups: Record<string, AudioMeasure[]>
}
