/**
 * Text checks that need only `text` and `audio_size`: empty transcripts (docs/reference-pipeline.md §8 stage 3), rows the
 * `min_samples_per_char` filter drops (stage 4, code points as Python's `len`), and speaking-rate outliers per
 * language by a robust z-score (median / MAD).
 */
import { compareUtf8 } from '../../findings.ts'
import { storedSampleRate } from '../../stats/stats.ts'
import { codePointLength } from '../../text/unicode.ts'
import { exampleId, rowItem } from '../rows.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../types.ts'

/** |robust z| above which a speaking rate is an outlier (Iglewicz & Hoaglin's 3.5). */
export const speakingRateZ = 3.5
/** Fewest rows a language needs before its speaking-rate outliers are judged. */
export const speakingRateMinRows = 5

/** Median of a sorted array. */
export function medianSorted(sorted: readonly number[]): number {
  const n = sorted.length
  if (n === 0) return NaN
  const mid = n >> 1
  return n % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Median and median absolute deviation of `values`. */
export function medianMad(values: readonly number[]): { median: number; mad: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const median = medianSorted(sorted)
  const mad = medianSorted(sorted.map((v) => Math.abs(v - median)).sort((a, b) => a - b))
  return { median, mad }
}

/** Robust z-score: 0.6745 · (x − median) / MAD (`0` when MAD is 0 and x is the median, else ±Infinity). */
export function robustZ(x: number, median: number, mad: number): number {
  if (mad === 0) return x === median ? 0 : x > median ? Infinity : -Infinity
  return 0.6745 * (x - median) / mad
}

/**
 * @param minSamplesPerChar the task's `min_samples_per_char`
 * @returns `empty-text` and `fast-speech` (warning: training drops the row), `speaking-rate-outlier` (warning);
 *   table `speaking_rate` per language (characters per second of the stored length)
 */
export function checkText(rows: readonly AuditRow[], minSamplesPerChar: number): CheckResult {
  const items: AuditItem[] = []
  const rated: { row: AuditRow; rate: number }[] = []
  for (const r of rows) {
    if (r.text === null) continue
    const chars = codePointLength(r.text)
    if (chars === 0) {
      items.push(rowItem(r, 'warning', 'empty-text', `${exampleId(r)} has an empty transcript: the empty-text filter drops it`))
      continue
    }
    if (r.audioSize === null || r.audioSize <= 0) continue
    const perChar = r.audioSize / chars
    if (perChar < minSamplesPerChar) {
      items.push(rowItem(r, 'warning', 'fast-speech',
        `${exampleId(r)} has ${perChar.toFixed(1)} samples per character (${r.audioSize} samples, ${chars} characters), below min_samples_per_char ${minSamplesPerChar}: the fast-speech filter drops it`))
    }
    rated.push({ row: r, rate: chars / (r.audioSize / storedSampleRate) })
  }
  const table: TableRow[] = []
  const byLanguage = new Map<string, { row: AuditRow; rate: number }[]>()
  for (const x of rated) {
    const list = byLanguage.get(x.row.language)
    if (list) list.push(x)
    else byLanguage.set(x.row.language, [x])
  }
  for (const language of [...byLanguage.keys()].sort(compareUtf8)) {
    const list = byLanguage.get(language)!
    const rates = list.map((x) => x.rate)
    const { median, mad } = medianMad(rates)
    let outliers = 0
    if (list.length >= speakingRateMinRows && mad > 0) {
      for (const { row, rate } of list) {
        const z = robustZ(rate, median, mad)
        if (Math.abs(z) <= speakingRateZ) continue
        outliers++
        items.push(rowItem(row, 'warning', 'speaking-rate-outlier',
          `${exampleId(row)} is spoken at ${rate.toFixed(1)} characters/s, robust z ${z.toFixed(1)} against ${language}'s median ${median.toFixed(1)} (MAD ${mad.toFixed(2)}); expected |z| ≤ ${speakingRateZ}: transcript and audio may not match`))
      }
    }
    table.push({ language, rows: list.length, median_chars_per_s: median, mad, min: rates.reduce((m, r) => Math.min(m, r), Infinity), max: rates.reduce((m, r) => Math.max(m, r), -Infinity), outliers })
  }
  return { items, tables: { speaking_rate: table } }
}
