/**
 * `batches --jsonl`: one line per batch of the rank, `{"batch": i, "examples": [{"file", "row", "row_group",
 * "corpus", "language", "split", "length", "text_chars"}]}`. Shared by the CLI and the browser so both
 * print the same bytes.
 */
import { codePointLength } from '../pipeline/example.ts'
import type { PlannedBatch } from '../pipeline/plan-batches.ts'

/** One batch as its JSONL line, newline included. `text_chars` counts Unicode code points. */
export function batchJsonLine(batch: PlannedBatch): string {
  const examples = batch.examples.map((e) => ({
    file: e.file, row: e.row, row_group: e.row_group, corpus: e.corpus, language: e.language, split: e.split,
    length: e.length, text_chars: codePointLength(e.text),
  }))
  return JSON.stringify({ batch: batch.index, examples }) + '\n'
}
