/**
 * Text checks that need only `text` and `audio_size`: empty transcripts (docs/reference-pipeline.md §8 stage 3), blank
 * (whitespace-only) transcripts that stage keeps, rows the
 * `min_samples_per_char` filter drops (stage 4, code points as Python's `len`), and speaking-rate outliers per
 * language by a robust z-score (median / MAD).
 */
import { compareUtf8 } from '../../core/findings.ts'
import { storedSampleRate } from '../../dataset/stats.ts'
import { measuredBlank, measuredChars, textMeasure } from '../../text/unicode.ts'
import { exampleIdAt, groupRowsOf, groupTable, rowItemAt, rowTableOf, type RowTable } from '../rows/row-table.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../rows/types.ts'

/** |robust z| above which a speaking rate is an outlier (Iglewicz & Hoaglin's 3.5). */
export const speakingRateZ = 3.5
/** Fewest rows a language needs before its speaking-rate outliers are judged. */
export const speakingRateMinRows = 5

/** Median of a sorted array. */
export function medianSorted(sorted: ArrayLike<number>): number {
  const n = sorted.length
  if (n === 0) return NaN
  const mid = n >> 1
  return n % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/**
 * Median and median absolute deviation of `values` (no NaN). One `Float64Array` copy, its median found by selection
 * (`selectInPlace`, no full sort), then overwritten by the deviations and their median selected: 8 bytes a value,
 * since a language may hold 13 M rows (the head language of 10⁸). The same numbers as `medianSorted` of the sorted
 * values and of the sorted deviations.
 */
export function medianMad(values: ArrayLike<number>): { median: number; mad: number } {
  const a = Float64Array.from(values)
  const median = medianInPlace(a)
  for (let i = 0; i < a.length; i++) a[i] = Math.abs(a[i] - median)
  return { median, mad: medianInPlace(a) }
}

/** `medianSorted` of `a` sorted, found by selection (reorders `a`). */
function medianInPlace(a: Float64Array): number {
  const n = a.length
  if (n === 0) return NaN
  const mid = n >> 1
  const upper = selectInPlace(a, mid)
  if (n % 2) return upper
  // a[0 … mid − 1] now hold the mid smallest values: the largest of them is the sorted array's a[mid − 1]
  let lower = a[0]
  for (let i = 1; i < mid; i++) if (a[i] > lower) lower = a[i]
  return (lower + upper) / 2
}

/**
 * Reorders `a` (no NaN) so that `a[k]` holds the value the sorted array has there, every value before it ≤ it and
 * every value after it ≥ it, and returns it: Hoare's selection (quickselect) with a median-of-three pivot, O(n) on
 * average; a range still unsettled after 2·log₂ n + 8 rounds is sorted instead, so never worse than O(n log n).
 */
export function selectInPlace(a: Float64Array, k: number): number {
  if (!(k >= 0 && k < a.length)) throw new RangeError(`audit: selection index ${k} is outside 0 … ${a.length - 1}`)
  let lo = 0
  let hi = a.length - 1
  let rounds = 2 * Math.ceil(Math.log2(a.length + 1)) + 8
  while (hi > lo) {
    if (rounds-- === 0) {
      a.subarray(lo, hi + 1).sort()
      return a[k]
    }
    const x = a[lo]
    const y = a[(lo + hi) >>> 1]
    const z = a[hi]
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y)
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i] < pivot) i++
      while (a[j] > pivot) j--
      if (i <= j) {
        const t = a[i]
        a[i++] = a[j]
        a[j--] = t
      }
    }
    // a[lo … j] ≤ pivot ≤ a[i … hi], and every value strictly between j and i equals the pivot
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else return a[k]
  }
  return a[k]
}

/** The least of `values` (`Infinity` when empty), as `Math.min` over them (NaN when one is NaN). */
function minOf(values: Float64Array): number {
  let m = Infinity
  for (let i = 0; i < values.length; i++) m = Math.min(m, values[i])
  return m
}

/** The greatest of `values` (`-Infinity` when empty), as `Math.max` over them. */
function maxOf(values: Float64Array): number {
  let m = -Infinity
  for (let i = 0; i < values.length; i++) m = Math.max(m, values[i])
  return m
}

/** Robust z-score: 0.6745 · (x − median) / MAD (`0` when MAD is 0 and x is the median, else ±Infinity). */
export function robustZ(x: number, median: number, mad: number): number {
  if (mad === 0) return x === median ? 0 : x > median ? Infinity : -Infinity
  return 0.6745 * (x - median) / mad
}

/**
 * @param minSamplesPerChar the task's `min_samples_per_char`
 * @returns `empty-text` and `fast-speech` (warning: training drops the row), `blank-text` (warning: training keeps
 *   a transcript of only whitespace), `speaking-rate-outlier` (warning; blank rows are not rated);
 *   table `speaking_rate` per language (characters per second of the stored length)
 */
export function checkText(rows: readonly AuditRow[], minSamplesPerChar: number): CheckResult {
  const chars = new Int32Array(rows.length)
  rows.forEach((r, i) => { chars[i] = textMeasure(r.text) })
  return checkTextTable(rowTableOf(rows), chars, minSamplesPerChar)
}

/**
 * `checkText` over a row table.
 * @param chars per row: the transcript's `textMeasure` (code points as Python's `len`, `-1` when it has none, blank
 *   transcripts marked)
 */
export function checkTextTable(t: RowTable, chars: Int32Array, minSamplesPerChar: number): CheckResult {
  const items: AuditItem[] = []
  // per row: its speaking rate (characters per second), NaN when it is not rated
  const rates = new Float64Array(t.length).fill(NaN)
  for (let i = 0; i < t.length; i++) {
    const n = measuredChars(chars[i])
    if (n < 0) continue
    const blank = measuredBlank(chars[i])
    if (n === 0) {
      items.push(rowItemAt(t, i, 'warning', 'empty-text', `${exampleIdAt(t, i)} has an empty transcript: the empty-text filter drops it`))
      continue
    }
    const size = t.audioSize[i]
    const sized = !Number.isNaN(size) && size > 0
    const perChar = size / n
    const fast = sized && perChar < minSamplesPerChar
    if (fast) {
      items.push(rowItemAt(t, i, 'warning', 'fast-speech',
        `${exampleIdAt(t, i)} has ${perChar.toFixed(1)} samples per character (${size} samples, ${n} characters), below min_samples_per_char ${minSamplesPerChar}: the fast-speech filter drops it`))
    }
    // a blank transcript is not rated: its rate says nothing about the speech; the fast-speech filter drops it first
    if (blank) {
      if (fast) continue
      const audio = sized ? `${(size / storedSampleRate).toFixed(2)} s of audio` : 'its audio'
      items.push(rowItemAt(t, i, 'warning', 'blank-text',
        `${exampleIdAt(t, i)} has a transcript of only whitespace (${n} character${n > 1 ? 's' : ''}): the empty-text filter keeps it (it drops length 0 only), so training learns ${audio} as no words`))
      continue
    }
    if (!sized) continue
    rates[i] = n / (size / storedSampleRate)
  }
  const table: TableRow[] = []
  const byLanguage = groupTable(t, (f) => f.language)
  const order = byLanguage.keys.map((language, g) => ({ language, g })).sort((a, b) => compareUtf8(a.language, b.language))
  for (const { language, g } of order) {
    const list = groupRowsOf(byLanguage, g).filter((i) => !Number.isNaN(rates[i]))
    if (list.length === 0) continue
    const listRates = new Float64Array(list.length)
    for (let k = 0; k < list.length; k++) listRates[k] = rates[list[k]]
    const { median, mad } = medianMad(listRates)
    let outliers = 0
    if (list.length >= speakingRateMinRows && mad > 0) {
      for (const i of list) {
        const rate = rates[i]
        const z = robustZ(rate, median, mad)
        if (Math.abs(z) <= speakingRateZ) continue
        outliers++
        items.push(rowItemAt(t, i, 'warning', 'speaking-rate-outlier',
          `${exampleIdAt(t, i)} is spoken at ${rate.toFixed(1)} characters/s, robust z ${z.toFixed(1)} against ${language}'s median ${median.toFixed(1)} (MAD ${mad.toFixed(2)}); expected |z| ≤ ${speakingRateZ}: transcript and audio may not match`))
      }
    }
    table.push({ language, rows: list.length, median_chars_per_s: median, mad, min: minOf(listRates), max: maxOf(listRates), outliers })
  }
  return { items, tables: { speaking_rate: table } }
}
