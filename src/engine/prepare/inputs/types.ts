/**
 * What the input readers produce: the layouts `prepare` reads, one input row as a reader found it, and why a row is
 * not written (readers find some reasons, the plan the others). docs/conventions.md "Dataprep".
 */

/** The input layouts `prepare` reads. */
export type InputFormat = 'nemo' | 'nemo-tarred' | 'commonvoice' | 'audiofolder' | 'hf-parquet' | 'lhotse' | 'webdataset'
export const INPUT_FORMATS: readonly InputFormat[] = ['nemo', 'nemo-tarred', 'commonvoice', 'audiofolder', 'hf-parquet', 'lhotse', 'webdataset']

/** Where one row's audio is: a file under the input root, or a cell of an input parquet file. */
export type AudioRef =
  | { kind: 'file'; path: string; segment?: AudioSegment }
  | { kind: 'parquet'; file: string; row: number; rowGroup: number }
  /** A member of a tar file of the input (webdataset, NeMo tarred): bytes `[start, end)` of `file`. */
  | { kind: 'member'; file: string; member: string; start: number; end: number; segment?: AudioSegment }

/** How messages and `_prepare_skipped.jsonl` name a row's audio: the file, `<file>:<row>`, `<tar>:<member>`. */
export function audioRefName(a: AudioRef): string {
  return a.kind === 'file' ? a.path : a.kind === 'parquet' ? `${a.file}:${a.row}` : `${a.file}:${a.member}`
}

/** The stretch of the audio a row takes, when not all of it. */
export function audioSegment(a: AudioRef): AudioSegment | undefined {
  return a.kind === 'parquet' ? undefined : a.segment
}

/** A stretch of a longer audio file (NeMo `offset` + `duration`, Lhotse supervisions), seconds. */
export interface AudioSegment {
  offset: number
  /** null: to the end of the file. */
  duration: number | null
}

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
  /** The audio path is a URL, climbs above the input folder or is absolute with no tail in it (nothing is read). */
  | 'audio-outside-input'
  | 'unreadable-audio'
  | 'no-text'
  | 'empty-text'
  | 'no-language'
  | 'unknown-language'
  | 'ambiguous-language'
  | 'unknown-split'

export const SKIP_REASONS: readonly SkipReason[] = ['bad-input-row', 'missing-audio', 'audio-outside-input', 'unreadable-audio', 'no-text', 'empty-text', 'no-language', 'unknown-language', 'ambiguous-language', 'unknown-split']

/** A half-open range `[first, end)` of input rows (0-based, in reading order): a shard's cut of the input. */
export interface RowRange {
  first: number
  end: number
}

/**
 * What the readers found, before any row is decided on. The rows are read as they are iterated (a NeMo manifest
 * line by line, never whole); the other layouts are read once, when the input is scanned, into a `RowLog`
 * (row-log.ts: a line of bytes per row, spilled past a budget).
 */
export interface InputScan {
  format: InputFormat
  /** The rows in reading order, numbered from 0; with `range`, only those (the rows before are not parsed). */
  rows(range?: RowRange): AsyncIterable<InputRow>
  /** How many rows the input holds (a NeMo manifest's lines are counted on their bytes, none parsed). */
  count(): Promise<number>
  /** Things about the input as a whole (files not read, guessed split names). */
  notes: string[]
  /** Removes what holds the scanned rows on disk (a spill file); the rows cannot be read after. */
  close(): Promise<void>
}
