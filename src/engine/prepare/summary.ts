/**
 * The summary of a dataprep plan: what `prepare --dry-run --json` prints under `"plan"` and what the Prepare view
 * shows before converting (the worker kind `prepare-scan`), so the two can never differ.
 */
import { SKIP_REASONS, type SkipReason } from './inputs/types.ts'
import type { LanguageDecision, PreparePlan, SkippedRow } from './types.ts'

/** One output partition of the plan: its keys, its rows, and Σ input `duration` (seconds) when every row has one. */
export interface PlanPartitionSummary {
  corpus: string
  split: string
  language: string
  rows: number
  declared_seconds: number | null
}

/** The plan's summary (field names as the CLI's JSON writes them, docs/conventions.md "Dataprep"). */
export interface PreparePlanSummary {
  format: PreparePlan['format']
  version: string
  audio_format: PreparePlan['audioFormat']
  input_rows: number
  /** Rows per partition folder, in the plan's order. */
  partitions: PlanPartitionSummary[]
  /** Skipped rows per reason (every reason, 0 when none). */
  skipped: Record<SkipReason, number>
  /** The skipped rows with their reasons: all of them, or the first `skippedRowsShown`. */
  skipped_rows: SkippedRow[]
  languages: LanguageDecision[]
  /** For the CLI (may name its options). */
  notes: string[]
  /** The notes that name no CLI option (`PreparePlan.facts`). */
  facts: string[]
  /** Rows not written for their split (`PreparePlan.unknownSplits`). */
  unknown_splits: PreparePlan['unknownSplits']
}

/**
 * Summarizes `plan`: partitions with their row counts, skipped rows per reason, language decisions, notes.
 * @param skippedRowsShown at most this many skipped rows are listed (default: all; the counts are always whole)
 */
export async function preparePlanSummary(plan: PreparePlan, skippedRowsShown = Infinity): Promise<PreparePlanSummary> {
  const skipped = Object.fromEntries(SKIP_REASONS.map((r) => [r, plan.skipped.counts[r]])) as Record<SkipReason, number>
  return {
    format: plan.format, version: plan.version, audio_format: plan.audioFormat, input_rows: plan.inputRows,
    partitions: plan.partitions.map((p) => ({ corpus: p.corpus, split: p.split, language: p.language, rows: p.rows.length, declared_seconds: p.declaredSeconds })),
    skipped, skipped_rows: await plan.skipped.read(0, Math.min(plan.skipped.length, skippedRowsShown)),
    languages: plan.languages, notes: plan.notes, facts: plan.facts, unknown_splits: plan.unknownSplits,
  }
}
