/**
 * Unicode helpers that match Python's view of strings: the reference counts characters with `len(str)`, i.e.
 * code points, where JavaScript's `.length` counts UTF-16 units (docs/reference-pipeline.md §8 empty-text and fast-speech filters).
 */

/** Number of code points, as Python's `len(text)` (an astral character counts 1; a lone surrogate counts 1). */
export function codePointLength(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}

/** The code points of `text` as one-character strings, in order. */
export function codePoints(text: string): string[] {
  return Array.from(text)
}

/**
 * SentencePiece's default text handling before lookup (`remove_extra_whitespaces`, `add_dummy_prefix`, and
 * the space meta symbol): trims spaces, collapses runs of spaces to one, prefixes one space, then writes every
 * space as U+2581 `▁`. Input is expected NFKC-normalized already. Empty or all-space text gives `""`.
 */
export function spmWhitespace(text: string): string {
  const collapsed = text.replace(/ +/g, ' ').replace(/^ | $/g, '')
  return collapsed === '' ? '' : `▁${collapsed.replaceAll(' ', '▁')}`
}

/**
 * Python's `str.isspace()` set (every code point whose bidirectional class is WS, B or S, or whose category is Zs;
 * CPython `Objects/unicodectype.c` `_PyUnicode_IsWhitespace`): what `re`'s `\s` and `str.strip()` remove, so what
 * the reference dataprep's whitespace collapsing (docs/reference-pipeline.md §17, text normalization step 9) turns into nothing.
 */
// (\x1c–\x1f, the information separators, are whitespace to Python: bidirectional class B and S)
// eslint-disable-next-line no-control-regex
const PYTHON_WHITESPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/

/** Whether `text` is non-empty and holds only whitespace, as Python's `text.isspace()`. */
export function isBlank(text: string): boolean {
  return PYTHON_WHITESPACE.test(text)
}

/**
 * A transcript's length as the text checks keep it, one int32 per row (the row records' and shard parts' `chars`):
 * its code points (Python's `len`) when it holds a non-space character or is empty, `-1` when it is null, and
 * `-2 - n` when it is blank: `n ≥ 1` code points, all whitespace (`isBlank`). The reference's empty-text filter keeps a
 * blank transcript (it drops length 0 only) and its fast-speech filter counts its `n` characters; `measuredChars`
 * gives them back.
 */
export function textMeasure(text: string | null): number {
  if (text === null) return -1
  const n = codePointLength(text)
  return n > 0 && isBlank(text) ? -2 - n : n
}

/** The code points a `textMeasure` counts (`-1` for a null transcript). */
export function measuredChars(measure: number): number {
  return measure <= -2 ? -2 - measure : measure
}

/** Whether a `textMeasure` is that of a blank (whitespace-only) transcript. */
export function measuredBlank(measure: number): boolean {
  return measure <= -2
}
