/**
 * The reference dataprep's `text_normalize` (docs/reference-pipeline.md §17 "Text normalization"; Omnilingual ASR
 * `workflows/dataprep/text_tools.py`, the rules of fairseq's MMS data prep), step for step, with Python `re`
 * semantics where JavaScript's differ: `\d` is any Unicode decimal digit, `\s` is Python's whitespace set, and `$`
 * also matches before a final newline.
 *
 * Only the `*` config is implemented: the reference passes 2-letter ISO codes (`iso_code=self.lang[:2]`), and
 * the config's per-language entries are keyed by 3-letter codes, so every language falls back to `*`
 * (docs/interpretations.md "Dataprep").
 */
import { DELETED, DIGITS, PUNCTUATION, PYTHON_WHITESPACE, type CharSpec } from './normalize-data.ts'

/** Options of `normalizeText` (the reference's keyword arguments, same defaults). */
export interface NormalizeOptions {
  /** Lower-case the text (`lower_case`, default true). */
  lowerCase?: boolean
  /** Remove words made only of digits (`remove_numbers`, default true). */
  removeNumbers?: boolean
  /** Remove every parenthesized span, not only those holding a digit (`remove_brackets`, default false). */
  removeBrackets?: boolean
}

/** The body of a `[...]` class (for the `u` flag) matching `specs`. */
function classBody(specs: readonly CharSpec[]): string {
  const hex = (c: number) => `\\u{${c.toString(16)}}`
  return specs.map((s) => (typeof s === 'number' ? hex(s) : `${hex(s[0])}-${hex(s[1])}`)).join('')
}

const ws = classBody(PYTHON_WHITESPACE)
const digits = `[${classBody(DIGITS)}]+`

const patterns = {
  /** `\([^\)]*\d[^\)]*\)`: a parenthesized span holding a digit ("(Sam 23:17)"). */
  bracketWithDigit: /\([^)]*\p{Nd}[^)]*\)/gu,
  bracket: /\([^)]*\)/gu,
  /** The config's `mapping`, in its (dict insertion) order. */
  mapping: [
    [/&lt;/gu, ''],
    [/&gt;/gu, ''],
    [/&nbsp/gu, ''],
    // a curly or reversed apostrophe between two non-space runs becomes ' (greedy runs: one per run, as in Python)
    [new RegExp(`([^${ws}]+)[\\u201b\\u2019\\u2018]([^${ws}]+)`, 'gu'), "$1'$2"],
    // added by the Arabic entry to the dict it shares with `*` (a shallow copy), so it applies to every language
    [/\u0671/gu, '\u0627'],
  ] as [RegExp, string][],
  punctuation: new RegExp(`[${classBody(PUNCTUATION)}]`, 'gu'),
  deleted: new RegExp(`[${classBody(DELETED)}]`, 'gu'),
  /** `^D(?=\s)|(?<=\s)D(?=\s)|(?<=\s)D$` with D = digits+, Python's `$` (end, or before a final newline). */
  digitWords: new RegExp(`^${digits}(?=[${ws}])|(?<=[${ws}])${digits}(?=[${ws}])|(?<=[${ws}])${digits}(?=\\n?$)`, 'gu'),
  spaces: new RegExp(`[${ws}]+`, 'gu'),
  trim: new RegExp(`^[${ws}]+|[${ws}]+$`, 'gu'),
}

/**
 * Normalizes one transcript as the reference dataprep does: NFKC; lower case; parenthesized spans with a digit
 * (all of them with `removeBrackets`) → space; `&lt;`/`&gt;`/`&nbsp` removed, curly apostrophes inside words → `'`,
 * `ٱ` → `ا`; punctuation → space; deletion set removed; digit-only words removed; whitespace runs → one space, ends
 * stripped. Example: `"Hello, World! 123"` → `"hello world"`.
 *
 * @param text the raw transcript
 * @returns the normalized transcript (may be empty)
 */
export function normalizeText(text: string, options: NormalizeOptions = {}): string {
  const { lowerCase = true, removeNumbers = true, removeBrackets = false } = options
  let t = text.normalize('NFKC')
  if (lowerCase) t = t.toLowerCase()
  t = t.replace(patterns.bracketWithDigit, ' ')
  if (removeBrackets) t = t.replace(patterns.bracket, ' ')
  for (const [pattern, replacement] of patterns.mapping) t = t.replace(pattern, replacement)
  t = t.replace(patterns.punctuation, ' ')
  t = t.replace(patterns.deleted, '')
  if (removeNumbers) t = t.replace(patterns.digitWords, ' ')
  return t.replace(patterns.spaces, ' ').replace(patterns.trim, '')
}
