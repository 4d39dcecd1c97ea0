/**
 * The rows a reader found, held compactly until they are planned (every layout but NeMo's, whose manifest is read
 * again instead): each row one JSON line in slabs of UTF-8 bytes (4 MiB), no JavaScript object or number per row, and
 * per slab the row its first line is. Past the budget, full slabs go to the host's spill file
 * (plan-store.ts `PlanBudget`; Node: a temporary file), so a 10⁷-row Common Voice release or audiofolder holds a
 * bounded amount of memory. Rows are read back in order, from any row on (a shard's range).
 */
import type { PlanBudget, PlanSpill } from '../plan-store.ts'
import type { InputRow, InputScan, RowRange } from './types.ts'

/** A row as a reader gives it (its number is its place in the log). */
export type ScannedRow = Omit<InputRow, 'index'>

/** A row as its line holds it. */
type RowLine = [string, InputRow['audio'], string | null, string | null, string | null, string | null, number | null, InputRow['problem']]

interface Slab {
  /** Its bytes while in memory; null once spilled. */
  bytes: Uint8Array | null
  used: number
  /** The row its first line is. */
  firstRow: number
  spilledAt: number
}

const encoder = new TextEncoder()

/** Where a reader puts its rows, one at a time, in reading order. */
export interface RowSink {
  add(row: ScannedRow): Promise<void>
}

/** Rows appended as lines, read back in order from any row (see the module comment). */
export class RowLog implements RowSink {
  private readonly slabBytes: number
  private readonly budget: number
  private readonly slabs: Slab[] = []
  private resident = 0
  private spilled = 0
  private spill: PlanSpill | null = null
  length = 0

  constructor(private readonly options: PlanBudget = {}) {
    this.slabBytes = Math.max(16, options.slabBytes ?? 4 * 1024 * 1024)
    this.budget = options.spill ? options.bytes ?? Infinity : Infinity
  }

  /** Appends a row; full slabs past the budget are spilled before it returns. */
  async add(row: ScannedRow): Promise<void> {
    const line: RowLine = [row.where, row.audio, row.text, row.language, row.split, row.corpus, row.duration, row.problem]
    const text = JSON.stringify(line) + '\n'
    let slab = this.slabs[this.slabs.length - 1]
    let wrote = slab?.bytes ? encoder.encodeInto(text, slab.bytes.subarray(slab.used)) : null
    if (!wrote || wrote.read! < text.length) {
      // a line never straddles two slabs
      const size = Math.max(this.slabBytes, text.length * 3)
      slab = { bytes: new Uint8Array(size), used: 0, firstRow: this.length, spilledAt: -1 }
      this.slabs.push(slab)
      this.resident += size
      wrote = encoder.encodeInto(text, slab.bytes!)
    }
    slab.used += wrote.written!
    this.length++
    while (this.resident > this.budget && this.spilled < this.slabs.length - 1) {
      const full = this.slabs[this.spilled++]
      this.spill ??= await this.options.spill!()
      full.spilledAt = await this.spill.append(full.bytes!.subarray(0, full.used))
      this.resident -= full.bytes!.length
      full.bytes = null
    }
  }

  /** Rows `[first, end)` in order, numbered (the lines before `first` in its slab are skipped unparsed). Memory: one slab at a time. */
  async* read(range?: RowRange): AsyncGenerator<InputRow> {
    const first = Math.max(0, range?.first ?? 0)
    const end = Math.min(this.length, range?.end ?? this.length)
    if (first >= end) return
    // the last slab starting at or before `first`
    let s = 0
    for (let lo = 0, hi = this.slabs.length - 1; lo <= hi;) {
      const mid = (lo + hi) >> 1
      if (this.slabs[mid].firstRow <= first) { s = mid; lo = mid + 1 } else hi = mid - 1
    }
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
    let index = this.slabs[s].firstRow
    for (; s < this.slabs.length && index < end; s++) {
      const slab = this.slabs[s]
      const bytes = slab.bytes ? slab.bytes.subarray(0, slab.used) : await this.spill!.read(slab.spilledAt, slab.used)
      let at = 0
      while (at < bytes.length && index < end) {
        const nl = bytes.indexOf(10, at)
        if (index >= first) {
          const [where, audio, text, language, split, corpus, duration, problem] = JSON.parse(decoder.decode(bytes.subarray(at, nl))) as RowLine
          yield { index, where, audio, text, language, split, corpus, duration, problem }
        }
        index++
        at = nl + 1
      }
    }
  }

  /** Bytes of slabs held in memory. */
  get residentBytes(): number {
    return this.resident
  }

  /** Removes the spill file (the rows cannot be read after). */
  async close(): Promise<void> {
    await this.spill?.close()
    this.spill = null
  }

  /** The log as an `InputScan`'s rows. */
  scanRows(): Pick<InputScan, 'rows' | 'count' | 'close'> {
    return {
      rows: (range?: RowRange) => this.read(range),
      count: () => Promise.resolve(this.length),
      close: () => this.close(),
    }
  }
}
