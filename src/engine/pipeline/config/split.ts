/**
 * Split strings as the reference reads them (docs/reference-pipeline.md §3; OA mixture_parquet_storage.py:201-204, 408-414).
 */

import type { SyncMode } from './types.ts'

/** A split string taken apart: `train_mls_extra` → split `train`, corpus `mls_extra`. */
export interface ParsedSplit {
  /** Value the `split` partition key must equal. */
  split: string
  /** Value the `corpus` key must equal, or `null` for no corpus filter. May be `""` (`train_`), which matches nothing. */
  corpus: string | null
}

/**
 * Splits on `_`: with two or more pieces the first is the split and the rest, re-joined with `_`, the corpus.
 * So a split value that itself contains `_` can never be selected (docs/reference-pipeline.md §19.4).
 */
export function parseSplit(raw: string): ParsedSplit {
  const pieces = raw.split('_')
  if (pieces.length >= 2) return { split: pieces[0], corpus: pieces.slice(1).join('_') }
  return { split: raw, corpus: null }
}

/**
 * The reference's train-streaming test: `"train"` is a substring of the raw split (before parsing) and the
 * sync mode is UNTIL_FIRST. Train streaming means infinite, shuffled, per-partition mixed streams.
 */
export function isTrainStreaming(raw: string, syncMode: SyncMode): boolean {
  return raw.includes('train') && syncMode === 'UNTIL_FIRST'
}
