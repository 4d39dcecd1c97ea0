/**
 * The part a sharded audit writes (`audit --shard i/N --out FILE`, docs/conventions.md "Sharded jobs"): not the rows
 * themselves, but what the merge needs to give the unsharded report byte for byte. Per row of the shard's row
 * groups: the stored `audio_size`, the transcript's length in code points, and a 64-bit hash of its normalized form
 * (leakage); the script and token checks' per-language tables and row findings (they need the transcript's
 * characters); the audio pass's measures (hashes included, for duplicates across shards). Shard 0 also carries
 * what only the footers decide (discovery findings, the ranks check, the TSV, the config).
 */
import type { PipelineConfig } from '../../pipeline/config/types.ts'
import type { SummaryTsv } from '../../dataset/dataset.ts'
import type { Finding } from '../../core/findings.ts'
import type { PartHeader } from '../../shard/part.ts'
import type { QuickCensusCount } from '../quick-audio.ts'
import type { AudioMeasure, AuditItem, AuditReport, CheckResult } from '../rows/types.ts'

/** A file the part's row groups belong to: `[index in dataset.files, path, corpus, language, split]` (keys `''` when absent). */
export type PartFile = [number, string, string, string, string]

/** A row group of the part: `[file index, row group, first row, rows, 1 when read | 0 when it did not read]`. */
export type PartUnit = [number, number, number, number, 0 | 1]

/** What shard 0 carries for the whole dataset. */
export interface AuditPartGlobal {
  /** The report's `options` (the merge decides how many findings it shows). */
  options: Omit<AuditReport['options'], 'max_findings_per_kind'>
  /** The resolved pipeline config (the length, text and leakage checks read it). */
  config: PipelineConfig
  /** `dataset.files.length`. */
  files: number
  /** Row groups of the readable files. */
  rowGroups: number
  /** Discovery's findings. */
  findings: Finding[]
  /** The ranks check (footers only). */
  ranks: CheckResult
  /** The stats TSV, or `null`. */
  summary: SummaryTsv | null
  /** Whether a tokenizer was given (the token check ran). */
  tokenizer: boolean
  /** The report's `config_findings` (absent in parts written before the report had them: none). */
  configFindings?: Finding[]
}

/** One shard's audit part. */
export interface AuditPart extends PartHeader {
  kind: 'audit'
  files: PartFile[]
  units: PartUnit[]
  /** Per row of the read row groups, in dataset order. */
  rows: {
    /** Stored `audio_size`, `null` when null or missing. */
    audio_size: (number | null)[]
    /** The transcript's `textMeasure` (src/engine/text/unicode.ts): code points, `-1` when null, `-2 - n` when blank. */
    chars: number[]
    /**
     * The transcript as the leakage check compares it: `null` (no text), `''` (empty), `' '` (empty once
     * normalized), else the 16-hex-digit hash of its normalized form.
     */
    transcript: (string | null)[]
  }
  /** Row-group findings of the metadata pass (`unreadable-row-group`). */
  items: AuditItem[]
  /** The script check over this shard's rows. */
  script: CheckResult
  /** The token check over this shard's rows, and the first path holding text per language; `null` without a tokenizer. */
  tokens: { result: CheckResult; firstPath: Record<string, string> } | null
  /** The audio pass: positions in `rows` of the rows decoded (`null`: every row), and their measures. */
  audio: { rows: number[] | null; measures: AudioMeasure[] } | null
  /**
   * The cheap audio check (the default without `--deep`/`--sample`) of this shard's row groups: rows checked, its
   * row findings in dataset order, and its census counts; `null` when it did not run.
   */
  quick: { rows: number; items: AuditItem[]; census: QuickCensusCount[] } | null
  /** Only in shard 0. */
  global: AuditPartGlobal | null
}
