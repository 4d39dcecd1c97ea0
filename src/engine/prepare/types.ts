/**
 * The dataprep's data model: input rows as the readers find them, the plan (what will be written, and what is
 * skipped and why), and the report of a run. docs/conventions.md "Dataprep".
 */
import type { AudioFormat } from './encode/types.ts'
import type { AudioRef, InputFormat, SkipReason } from './inputs/types.ts'

/** One skipped row, as listed in `_prepare_skipped.jsonl`. */
export interface SkippedRow {
  index: number
  where: string
  reason: SkipReason
  /** What is wrong and how the CLI fixes it (names its options, e.g. `--language`). */
  message: string
  /** What is wrong, naming no CLI option (the Prepare view words the fix itself, from `fix`). */
  problem: string
  /** What would write the row, when an option would: a language code to decide, a split to map or to set. */
  fix: PrepareFix | null
  /** The audio file or `<file>:<row>`, when known. */
  audio: string | null
}

/**
 * What would write a skipped row: `language`: a language for input code `code` (`null`: the row has none; the CLI's
 * `--language`); `split-map`: a split for input split `split` (`--split-map`); `split`: a split for rows that name
 * none (`--split`).
 */
export type PrepareFix = { option: 'language'; code: string | null } | { option: 'split-map'; split: string } | { option: 'split' }

/** Options of `prepare` (docs/conventions.md "Dataprep"). */
export interface PrepareOptions {
  /** Guessed from the folder when absent. */
  inputFormat?: InputFormat
  /** Sets the corpus of every row (default: the row's own; required when a row declares none). */
  corpus?: string
  /**
   * Sets the language of every row (`xxx_Script`, or a code that maps to one), or maps input codes:
   * entries `code=xxx_Script` (e.g. `mn=khk_Cyrl`) decide ambiguous or unknown codes.
   */
  language?: string[]
  /** Sets the split of every row: `train`, `dev`, `test` or a name of one (default: from the input). */
  split?: string
  /**
   * Input split names → `train`/`dev`/`test` (`9_hours=train`). Rows of a split name that is neither recognized
   * nor mapped are skipped (`unknown-split`).
   */
  splitMap?: string[]
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
  /**
   * Input rows in the order they will be written (after the shuffle, skipped rows removed; a shard's plan: in
   * reading order), read from the plan's compact store.
   */
  rows: PlannedRows
  /** Σ input `duration` of the rows, seconds, when every row has one; else null. */
  declaredSeconds: number | null
}

/** A partition's planned rows, read a stretch at a time. */
export interface PlannedRows {
  readonly length: number
  /** Rows `[from, to)`. @throws Error when the plan was made for its summary only (`keepRows: false`) */
  read(from: number, to: number): Promise<PlannedRow[]>
}

/** The skipped rows, counted per reason, read a stretch at a time (in input order). */
export interface SkippedRows {
  readonly length: number
  readonly counts: Record<SkipReason, number>
  read(from: number, to: number): Promise<SkippedRow[]>
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
  /** Decided by the user (the CLI's `--language FROM=TO`, the Prepare view's choice), not by the code's mapping. */
  decided: boolean
}

/** Everything decided before converting: shown by the Prepare view and `prepare --dry-run`. */
export interface PreparePlan {
  format: InputFormat
  version: string
  audioFormat: AudioFormat
  partitions: PlannedPartition[]
  skipped: SkippedRows
  languages: LanguageDecision[]
  /** Notes for the CLI (they may name its options). */
  notes: string[]
  /** The notes that name no CLI option (the Prepare view shows these, and words `unknownSplits` itself). */
  facts: string[]
  /** Rows not written because their split is not train, dev or test (`split` `null`: the row names none). */
  unknownSplits: { split: string | null; rows: number }[]
  /** Input rows planned (a shard's: the rows of its range). */
  inputRows: number
  /** The cut of the input a shard's plan covers (its rows unshuffled, in reading order), of `of` rows; null: all. */
  range: { first: number; end: number; of: number } | null
  /** Removes the plan's spill file, if it has one (its rows cannot be read after). */
  close(): Promise<void>
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
