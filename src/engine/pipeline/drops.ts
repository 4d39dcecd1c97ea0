/**
 * Counters of examples the pipeline drops, per reason and per mixture partition (corpus, language).
 */

/** Why an example never reaches a batch. */
export type DropReason =
  | 'warm-up'
  | 'length-below-min'
  | 'length-above-max'
  | 'empty-text'
  | 'fast-speech'
  | 'all-unknown'
  | 'long-text'
  | 'bucket-below-min'
  | 'bucket-above-max'
  | 'drop-remainder'

/** Pipeline order of the drop reasons (where in the reference's pipeline each one drops an example). */
const REASON_ORDER: readonly DropReason[] = ['warm-up', 'length-below-min', 'length-above-max', 'empty-text', 'fast-speech', 'all-unknown', 'long-text',
  'bucket-below-min', 'bucket-above-max', 'drop-remainder']

/** Assumed sample rate for hours (the dataprep's `audio_size / 16000`), in Hz. */
export const HOURS_SAMPLE_RATE = 16_000

/** One counter cell. */
export interface DropCount {
  reason: DropReason
  corpus: string
  language: string
  /** Examples dropped. */
  count: number
  /** Audio dropped, in hours at 16 kHz (`Σ length / 16000 / 3600`). */
  hours: number
}

/**
 * Accumulates drops; `list()` gives them in pipeline order of the reason, then by corpus and language (code points),
 * so the order does not depend on which partition stream was read first.
 */
export class DropCounter {
  private readonly cells = new Map<string, DropCount>()

  /** Counts one dropped example of `length` samples. */
  add(reason: DropReason, corpus: string, language: string, length: number): void {
    const key = `${reason}\u0000${corpus}\u0000${language}`
    let cell = this.cells.get(key)
    if (!cell) {
      cell = { reason, corpus, language, count: 0, hours: 0 }
      this.cells.set(key, cell)
    }
    cell.count++
    if (Number.isFinite(length)) cell.hours += length / HOURS_SAMPLE_RATE / 3600
  }

  /** Every non-empty cell: by reason in pipeline order, then corpus, then language. */
  list(): DropCount[] {
    const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    return [...this.cells.values()].map((c) => ({ ...c }))
      .sort((a, b) => REASON_ORDER.indexOf(a.reason) - REASON_ORDER.indexOf(b.reason) || byText(a.corpus, b.corpus) || byText(a.language, b.language))
  }

  /** Total examples dropped for a reason (all partitions). */
  total(reason: DropReason): number {
    let n = 0
    for (const c of this.cells.values()) if (c.reason === reason) n += c.count
    return n
  }
}
