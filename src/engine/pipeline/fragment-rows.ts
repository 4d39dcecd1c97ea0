/**
 * Fragment loading (docs/reference-pipeline.md §7) for planning: each row group's `audio_size` and `text`, turned into
 * examples in row order, read when the stream reaches it. A stream keeps at most `keepRows` rows of its row group
 * decoded between pulls (the rest is read again when reached), so a mixture of thousands of partition streams holds a
 * bounded number of rows whatever the row groups' sizes; the read-ahead starts only once half a row group is passed.
 */
import type { InvalidCell, PlannedExample } from './example.ts'
import type { FragmentRef } from './fragments.ts'
import { MixscopeError } from '../core/findings.ts'

/** Transcripts decoded one row at a time (a column kept as its UTF-8 bytes until a row is taken). */
export interface LazyTexts {
  readonly length: number
  text: (row: number) => string
}

/** What the planner needs from one row group: `[rows]` lengths (samples) and transcripts. */
export interface FragmentMeta {
  lengths: ArrayLike<number>
  texts: ArrayLike<string> | LazyTexts
  /** Rows with an unusable cell (by row index in the row group): the task raises when such a row reaches the stage. */
  invalid?: ReadonlyMap<number, InvalidCell>
}

/** Transcript `i` of a row group. */
function textAt(texts: ArrayLike<string> | LazyTexts, i: number): string {
  return 'text' in texts && typeof texts.text === 'function' ? texts.text(i) : (texts as ArrayLike<string>)[i]
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
  /**
   * Row groups read ahead of the one being consumed (≥ 0). The read-ahead starts once the consumer has passed half
   * of the current row group's rows, so a stream that is pulled a few times (a mixture partition drawn rarely) reads
   * only the row groups whose rows it hands out.
   */
  prefetch: number
  /**
   * Most rows of the current row group kept decoded between pulls (≥ 1; default: the whole row group). When a row
   * group has more, the stream keeps the next `keepRows` and reads the row group again (through `read`) for the rest.
   */
  keepRows?: number
  signal?: AbortSignal
  /** Called once per row group, the first time it is read, with its row count. */
  onFragmentRead?: (fragment: FragmentRef, rows: number) => void
  /** Called when a row group is read again for rows past the ones kept (`keepRows`). */
  onFragmentReread?: (fragment: FragmentRef) => void
}

/** Throws the signal's reason (or a `MixscopeError`) when aborted. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (!signal?.aborted) return
  throw signal.reason instanceof Error ? signal.reason : new MixscopeError('pipeline: planning was cancelled', 'aborted', 'io')
}

/** The rows `[start, end)` of a row group, copied out of its decoded columns. */
interface RowSlice {
  start: number
  /** Rows in the whole row group. */
  total: number
  lengths: ArrayLike<number>
  texts: ArrayLike<string> | LazyTexts
  /** By row index in the row group. */
  invalid?: ReadonlyMap<number, InvalidCell>
}

function sliceOf(meta: FragmentMeta, start: number, end: number): RowSlice {
  const { invalid } = meta
  if (start === 0 && end >= meta.lengths.length) return { start, total: meta.lengths.length, lengths: meta.lengths, texts: meta.texts, invalid }
  const lengths = new Array<number>(end - start)
  const texts = new Array<string>(end - start)
  for (let i = start; i < end; i++) {
    lengths[i - start] = meta.lengths[i]
    texts[i - start] = textAt(meta.texts, i)
  }
  const kept = invalid && invalid.size > 0 ? new Map([...invalid].filter(([row]) => row >= start && row < end)) : undefined
  return { start, total: meta.lengths.length, lengths, texts, invalid: kept }
}

function checkedMeta(meta: FragmentMeta, fragment: FragmentRef, rows?: number): FragmentMeta {
  if (meta.lengths.length !== meta.texts.length) {
    throw new MixscopeError(`pipeline: row group ${fragment.rowGroup} of "${fragment.path}" gave ${meta.lengths.length} lengths but ${meta.texts.length} texts`, 'fragment-read')
  }
  if (rows !== undefined && meta.lengths.length !== rows) {
    throw new MixscopeError(`pipeline: row group ${fragment.rowGroup} of "${fragment.path}" gave ${meta.lengths.length} rows when read again, ${rows} the first time`, 'fragment-read')
  }
  return meta
}

/**
 * Yields the examples of a fragment stream in order (row groups in stream order, rows in row order). A row group is
 * read when the consumer asks for its first row; `prefetch` further row groups are read ahead once half of the
 * current one has been passed. Row groups with no rows yield nothing (the reference drops empty tables).
 * @param labels a fixed label for every fragment, or a function of the fragment (single stream over partitions).
 */
export async function* fragmentRows(
  fragments: Iterable<FragmentRef>,
  read: ReadFragmentMeta,
  labels: RowLabels | ((fragment: FragmentRef) => RowLabels),
  options: FragmentRowsOptions,
): AsyncGenerator<PlannedExample> {
  const { signal } = options
  const keep = Math.max(1, options.keepRows ?? Infinity)
  const it = fragments[Symbol.iterator]()
  const ahead: { fragment: FragmentRef; meta: Promise<FragmentMeta> }[] = []
  let exhausted = false
  const start = (fragment: FragmentRef) => {
    const meta = read(fragment, signal)
    meta.catch(() => undefined) // a read-ahead that is never awaited must not become an unhandled rejection
    return { fragment, meta }
  }
  const take = () => {
    if (exhausted) return undefined
    const r = it.next()
    if (r.done) exhausted = true
    return r.done ? undefined : r.value
  }
  const readAhead = () => {
    while (ahead.length < options.prefetch) {
      const fragment = take()
      if (!fragment) return
      ahead.push(start(fragment))
    }
  }
  try {
    for (;;) {
      throwIfAborted(signal)
      let current = ahead.shift()
      if (!current) {
        const fragment = take()
        if (!fragment) return
        current = start(fragment)
      }
      const { fragment } = current
      // the rows handed out from here on: the whole row group, or its first `keep` (the rest is not kept)
      let slice = sliceOf(checkedMeta(await current.meta, fragment), 0, keep)
      current = undefined // (a settled promise held here would keep the whole row group alive)
      throwIfAborted(signal)
      const rows = slice.total
      options.onFragmentRead?.(fragment, rows)
      const l = typeof labels === 'function' ? labels(fragment) : labels
      let sliceEnd = Math.min(rows, keep)
      const readAheadAfter = rows - Math.floor(rows / 2) // rows passed before the read-ahead starts
      for (let i = 0; i < rows; i++) {
        if (i === sliceEnd) {
          sliceEnd = Math.min(rows, i + keep)
          slice = sliceOf(checkedMeta(await read(fragment, signal), fragment, rows), i, sliceEnd)
          throwIfAborted(signal)
          options.onFragmentReread?.(fragment)
        }
        const invalid = slice.invalid?.get(i)
        yield {
          ...(invalid ? { invalid } : {}),
          file: fragment.path,
          row: fragment.firstRow + i,
          row_group: fragment.rowGroup,
          corpus: l.corpus,
          language: l.language,
          split: l.split,
          length: slice.lengths[i - slice.start],
          text: textAt(slice.texts, i - slice.start),
        }
        if (i + 1 >= readAheadAfter) readAhead()
      }
    }
  } finally {
    ahead.length = 0
  }
}
