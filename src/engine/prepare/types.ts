/**
 * The dataprep's data model: input rows as the readers find them, the plan (what will be written, and what is
 * skipped and why), and the report of a run. docs/conventions.md "Dataprep".
 */
import type { AudioFormat } from './encode/types.ts'

/** The input layouts `prepare` reads. */
export type InputFormat = 'nemo' | 'commonvoice' | 'audiofolder' | 'hf-parquet'
export const INPUT_FORMATS: readonly InputFormat[] = ['nemo', 'commonvoice', 'audiofolder', 'hf-parquet']

/** Where one row's audio is: a file under the input root, or a cell of an input parquet file. */
export type AudioRef =
  | { kind: 'file'; path: string }
  | { kind: 'parquet'; file: string; row: number; rowGroup: number }

/** One input row as a reader found it (before language mapping and normalization). */
export interface InputRow {
  /** 0-based position in the input's order (readers list rows in a fixed order; a shard is a contiguous range). */
  index: number
  /** Where it was read, for messages: `train.tsv:12`, `manifest.jsonl:3`, `data/train-0.parquet:41`. */
  where: string
  /** `null` when the row names no audio (a problem of the row). */
  audio: AudioRef | null
  /** The raw transcript, `null` when missing. */
  text: string | null
  /** The raw language code, `null` when the input has none. */
  language: string | null
  split: string | null
  corpus: string | null
  /** Seconds, when the input says (NeMo `duration`). */
  duration: number | null
  /** A reason this row cannot be used, found while reading it (bad JSON line, no audio path). */
  problem: { reason: SkipReason; message: string } | null
}

/** Why a row is not written. */
export type SkipReason =
  | 'bad-input-row'
  | 'missing-audio'
  | 'unreadable-audio'
  | 'no-text'
  | 'empty-text'
  | 'no-language'
  | 'unknown-language'
  | 'ambiguous-language'

export const SKIP_REASONS: readonly SkipReason[] = ['bad-input-row', 'missing-audio', 'unreadable-audio', 'no-text', 'empty-text', 'no-language', 'unknown-language', 'ambiguous-language']

/** One skipped row, as listed in `_prepare_skipped.jsonl`. */
export interface SkippedRow {
  index: number
  where: string
  reason: SkipReason
  message: string
  /** The audio file or `<file>:<row>`, when known. */
  audio: string | null
}

/** What the readers found, before any row is decided on. */
export interface InputScan {
  format: InputFormat
  rows: InputRow[]
  /** Things about the input as a whole (files not read, guessed split names). */
  notes: string[]
}

/** Options of `prepare` (docs/conventions.md "Dataprep"). */
export interface PrepareOptions {
  /** Guessed from the folder when absent. */
  inputFormat?: InputFormat
  /** Sets the corpus of every row (default: the row's own, else the input folder's name). */
  corpus?: string
  /**
   * Sets the language of every row (`xxx_Script`, or a code that maps to one), or maps input codes:
   * entries `code=xxx_Script` (e.g. `mn=khk_Cyrl`) decide ambiguous or unknown codes.
   */
  language?: string[]
  /** Sets the split of every row (default: from the input, else `train`). */
  split?: string
  /** Output codec (default `flac`). */
  audioFormat?: AudioFormat
  /** The transcript column (audiofolder, hf-parquet). */
  textColumn?: string
  /** Skip the reference's text normalization (default: normalize). */
  normalizeText?: boolean
  /** The `version=<V>` folder (default `0`). */
  version?: string
}

/** One output partition: its hive keys and its rows in output (shuffled) order. */
export interface PlannedPartition {
  corpus: string
  split: string
  language: string
  /** `corpus=…/split=…/language=…` under `version=<V>/`. */
  folder: string
  /** Input rows in the order they will be written (after the shuffle, skipped rows removed). */
  rows: PlannedRow[]
  /** Σ input `duration` of the rows, seconds, when every row has one; else null. */
  declaredSeconds: number | null
}

/** A row that will be converted. */
export interface PlannedRow {
  index: number
  where: string
  audio: AudioRef
  /** The text to write (normalized unless `normalizeText: false`). */
  text: string
}

/** A language code of the input and what it maps to. */
export interface LanguageDecision {
  input: string
  /** The partition value, or null when the code could not be decided. */
  output: string | null
  rows: number
  /** How it was decided, or why it could not be. */
  note: string | null
  /** Candidates when ambiguous. */
  candidates: string[]
  /** Whether Omnilingual ASR lists the output code. */
  listed: boolean
}

/** Everything decided before converting: shown by the Prepare view and `prepare --dry-run`. */
export interface PreparePlan {
  format: InputFormat
  version: string
  audioFormat: AudioFormat
  partitions: PlannedPartition[]
  skipped: SkippedRow[]
  languages: LanguageDecision[]
  notes: string[]
  inputRows: number
}

/** Rows, bytes and audio of one written parquet file. */
export interface WrittenFile {
  path: string
  rows: number
  bytes: number
  /** Σ audio_size (16 kHz samples). */
  audioSamples: number
}

/** What `prepare` did. */
export interface PrepareReport {
  schema_version: 1
  /** The dataset root written: `<out>/version=<V>`. */
  root: string
  format: InputFormat
  audio_format: AudioFormat
  input_rows: number
  rows_written: number
  hours_written: number
  files: WrittenFile[]
  /** Skipped rows per reason. */
  skipped: Record<SkipReason, number>
  /** Language decisions (input code → partition value). */
  languages: LanguageDecision[]
  notes: string[]
  /** The TSV path, relative to the output folder. */
  stats_tsv: string
}
