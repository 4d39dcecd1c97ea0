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
