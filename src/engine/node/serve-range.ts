/**
 * The `Range` header of a request for a file of known size, as `mixscope serve` answers it (RFC 9110 §14.2): one
 * range only, `bytes=a-b`, `bytes=a-` or `bytes=-n`. Static hosts get some of these wrong (docs/browser-notes.md
 * "HTTP range requests"); this server gets each right, `bytes=0-0` and suffixes included.
 */

/** What a `Range` header asks of a file. */
export type RangeRequest =
  /** No Range, or one to ignore (multi-range, another unit, malformed, `b < a`): answer 200 with the whole file. */
  | { kind: 'whole' }
  /** Inclusive byte positions `start ≤ end < size`: answer 206 with `Content-Range: bytes start-end/size`. */
  | { kind: 'range'; start: number; end: number }
  /** Nothing of the file is asked (`a ≥ size`, `bytes=-0`, any range of an empty file): answer 416. */
  | { kind: 'unsatisfiable' }

/**
 * Reads a `Range` header against a file of `size` bytes. An end past the file is cut to its last byte; a suffix
 * longer than the file asks for all of it.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  const m = header?.trim().match(/^bytes=(\d*)-(\d*)$/i)
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'whole' }
  if (m[1] === '') {
    const suffix = Number(m[2])
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' }
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(m[1])
  const end = m[2] === '' ? size - 1 : Number(m[2])
  if (!Number.isSafeInteger(start)) return { kind: 'unsatisfiable' } // past any file
  if (start >= size) return { kind: 'unsatisfiable' }
  if (end < start) return { kind: 'whole' }
  return { kind: 'range', start, end: Math.min(end, size - 1) }
}
