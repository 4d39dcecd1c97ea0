/**
 * Fragment loading (docs/reference-pipeline.md §7) for planning: each row group's `audio_size` and `text`, turned into
 * examples in row order, with a bounded read-ahead.
 */
import type { PlannedExample } from './example.ts'
import type { FragmentRef } from './fragments.ts'
import { MixscopeError } from '../core/findings.ts'

/** What the planner needs from one row group: `[rows]` lengths (samples) and transcripts. */
export interface FragmentMeta {
  lengths: number[]
  texts: string[]
}

/** Reads one row group's lengths and texts (injected I/O). Should reject with the signal's reason when aborted. */
export type ReadFragmentMeta = (fragment: FragmentRef, signal?: AbortSignal) => Promise<FragmentMeta>

/** Which mixture partition and split the rows belong to. */
export interface RowLabels {
  corpus: string
  language: string
  split: string
}

/** Options of `fragmentRows`. */
export interface FragmentRowsOptions {
  /** Row groups read ahead of the one being consumed (≥ 0). */
  prefetch: number
  signal?: AbortSignal
  /** Called once per row group read, with its row count. */
  onFragmentRead?: (fragment: FragmentRef, rows: number) => void
}

/** Throws the signal's reason (or a `MixscopeError`) when aborted. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (!signal?.aborted) return
  throw signal.reason instanceof Error ? signal.reason : new MixscopeError('pipeline: planning was cancelled', 'aborted', 'io')
}

/**
 * Yields the examples of a fragment stream in order (row groups in stream order, rows in row order), reading at most
 * `prefetch` row groups ahead. Row groups with no rows yield nothing (the reference drops empty tables).
 * @param labels a fixed label for every fragment, or a function of the fragment (single stream over partitions).
 */
export async function* fragmentRows(
  fragments: Iterable<FragmentRef>,
  read: ReadFragmentMeta,
  labels: RowLabels | ((fragment: FragmentRef) => RowLabels),
  options: FragmentRowsOptions,
): AsyncGenerator<PlannedExample> {
  const it = fragments[Symbol.iterator]()
  const queue: { fragment: FragmentRef; meta: Promise<FragmentMeta> }[] = []
  let exhausted = false
  const fill = () => {
    while (!exhausted && queue.length <= options.prefetch) {
      const r = it.next()
      if (r.done) {
        exhausted = true
        break
      }
      const meta = read(r.value, options.signal)
      meta.catch(() => undefined) // a read-ahead that is never awaited must not become an unhandled rejection
      queue.push({ fragment: r.value, meta })
    }
  }
  try {
    for (;;) {
      throwIfAborted(options.signal)
      fill()
      const next = queue.shift()
      if (!next) return
      const meta = await next.meta
      throwIfAborted(options.signal)
      const { fragment } = next
      if (meta.lengths.length !== meta.texts.length) {
        throw new MixscopeError(`pipeline: row group ${fragment.rowGroup} of "${fragment.path}" gave ${meta.lengths.length} lengths but ${meta.texts.length} texts`, 'fragment-read')
      }
      options.onFragmentRead?.(fragment, meta.lengths.length)
      const l = typeof labels === 'function' ? labels(fragment) : labels
      for (let i = 0; i < meta.lengths.length; i++) {
        yield {
          file: fragment.path,
          row: fragment.firstRow + i,
          row_group: fragment.rowGroup,
          corpus: l.corpus,
          language: l.language,
          split: l.split,
          length: meta.lengths[i],
          text: meta.texts[i],
        }
      }
    }
  } finally {
    queue.length = 0
  }
}
