/**
 * The unit that flows through the planner: one row as the reference's AsrTask sees it, without audio.
 */

/** One example (a parquet row) with its id and the fields the task filters and batches on. */
export interface PlannedExample {
  /** File path relative to the dataset root (example id part 1). */
  file: string
  /** 0-based row index within the file, counting across row groups (example id part 2). */
  row: number
  /** 0-based row group within the file. */
  row_group: number
  corpus: string
  language: string
  /** Split value (the hive `split` key). */
  split: string
  /** Stored `audio_size` (samples); what the reference filters and buckets on. */
  length: number
  /** Transcript as stored. */
  text: string
  /**
   * Set when a cell the task reads holds no usable value (a null `audio_size` or `text`): the stage that reads that
   * cell raises, as the reference's does when the row reaches it (docs/reference-pipeline.md §7: nulls are not
   * filtered). `length` is then NaN, `text` ''.
   */
  invalid?: InvalidCell
}

/** An unusable cell of a row: the task stage that raises on it, and the error's message. */
export interface InvalidCell {
  stage: 'length-filter' | 'empty-text-filter'
  message: string
}

/** Number of Unicode code points of a string (Python `len(str)`), not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // a low surrogate that follows a high surrogate continues the same code point
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = text.charCodeAt(i - 1)
      if (p >= 0xd800 && p <= 0xdbff) continue
    }
    n++
  }
  return n
}
