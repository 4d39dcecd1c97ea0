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

/** Accumulates drops; `list()` gives a deterministic order (reason, corpus, language as first seen). */
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

  /** Every non-empty cell, in first-seen order. */
  list(): DropCount[] {
    return [...this.cells.values()].map((c) => ({ ...c }))
  }

  /** Total examples dropped for a reason (all partitions). */
  total(reason: DropReason): number {
    let n = 0
    for (const c of this.cells.values()) if (c.reason === reason) n += c.count
    return n
  }
}
