/**
 * The plan's per-row state, compact: numbers in growable typed arrays, and each row's strings (where it was read, its
 * text, its audio) as one UTF-8 record in slabs of bytes — no JavaScript object per row. Past a budget, full slabs go
 * to a spill file the host gives (Node: a temporary file, `src/engine/node/plan-spill.ts`), so a plan of 10⁷ rows
 * holds a bounded amount of memory; records are read back by number.
 */

/** A growable column of 32-bit integers. */
export class IntColumn {
  private data: Int32Array
  length = 0

  constructor(capacity = 256) {
    this.data = new Int32Array(Math.max(1, capacity))
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length++] = value
  }

  get(i: number): number {
    return this.data[i]
  }

  /** The values (a view: valid until the next `push`). */
  values(): Int32Array {
    return this.data.subarray(0, this.length)
  }
}

/** A growable column of doubles. */
class FloatColumn {
  private data = new Float64Array(256)
  length = 0

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length++] = value
  }

  get(i: number): number {
    return this.data[i]
  }
}

/** Where slabs go past the budget: an append-only file of the host. */
export interface PlanSpill {
  /** Appends `bytes`. @returns the offset they were written at */
  append(bytes: Uint8Array): Promise<number>
  read(offset: number, length: number): Promise<Uint8Array>
  /** Removes the file. */
  close(): Promise<void>
}

/** How much of the plan stays in memory. */
export interface PlanBudget {
  /** Bytes of record slabs held in memory; past it, full slabs go to `spill` (default: all stay in memory). */
  bytes?: number
  /** Bytes per slab (default 4 MiB; tests force tiny ones). */
  slabBytes?: number
  /** Opens the spill file, once, when the budget is first exceeded (without it, everything stays in memory). */
  spill?: () => Promise<PlanSpill>
}

interface Slab {
  /** Offset of its first byte among all records. */
  start: number
  /** Its bytes while in memory; null once spilled. */
  bytes: Uint8Array | null
  used: number
  /** Where it was written in the spill file. */
  spilledAt: number
}

/** Bytes of a spilled slab read at a time, and how many such stretches are kept. */
const WINDOW_BYTES = 64 * 1024
const WINDOWS = 16

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { ignoreBOM: true })

/** Strings appended one after the other, numbered from 0, read back by number. */
export class RecordStore {
  private readonly slabBytes: number
  private readonly budget: number
  private readonly slabs: Slab[] = []
  /** Per record, the offset just past it (its start is the previous record's end, or its slab's start). */
  private readonly ends = new FloatColumn()
  /** Per record, its slab. */
  private readonly slabOf = new IntColumn()
  private resident = 0
  private spill: PlanSpill | null = null
  private spilled = 0
  /** Stretches of spilled slabs read lately (rows are read near one another: a shuffle window, a partition). */
  private windows: { slab: number; from: number; bytes: Uint8Array }[] = []

  constructor(private readonly options: PlanBudget = {}) {
    this.slabBytes = Math.max(16, options.slabBytes ?? 4 * 1024 * 1024)
    this.budget = options.spill ? options.bytes ?? Infinity : Infinity
  }

  get length(): number {
    return this.ends.length
  }

  /** Appends one record. @returns its number */
  append(text: string): number {
    let slab = this.slabs[this.slabs.length - 1]
    let at = slab?.bytes ? slab.used : -1
    let wrote = at < 0 ? null : encoder.encodeInto(text, slab.bytes!.subarray(at))
    if (!wrote || wrote.read! < text.length) {
      // a record never straddles two slabs
      const size = Math.max(this.slabBytes, text.length * 3)
      const start = slab ? slab.start + slab.used : 0
      slab = { start, bytes: new Uint8Array(size), used: 0, spilledAt: -1 }
      this.slabs.push(slab)
      this.resident += size
      at = 0
      wrote = encoder.encodeInto(text, slab.bytes!)
    }
    slab.used = at + wrote.written!
    this.ends.push(slab.start + slab.used)
    this.slabOf.push(this.slabs.length - 1)
    return this.ends.length - 1
  }

  /** Whether full slabs wait to be spilled (`flush` writes them). */
  get overBudget(): boolean {
    return this.resident > this.budget && this.spilled < this.slabs.length - 1
  }

  /** Spills full slabs, oldest first, until the slabs in memory fit the budget (the slab being filled stays). */
  async flush(): Promise<void> {
    while (this.overBudget) {
      const slab = this.slabs[this.spilled++]
      this.spill ??= await this.options.spill!()
      slab.spilledAt = await this.spill.append(slab.bytes!.subarray(0, slab.used))
      this.resident -= slab.bytes!.length
      slab.bytes = null
    }
  }

  /** Record `i`. */
  async get(i: number): Promise<string> {
    const slab = this.slabs[this.slabOf.get(i)]
    const start = i > 0 && this.slabOf.get(i - 1) === this.slabOf.get(i) ? this.ends.get(i - 1) : slab.start
    const end = this.ends.get(i)
    if (slab.bytes) return decoder.decode(slab.bytes.subarray(start - slab.start, end - slab.start))
    const n = this.slabOf.get(i)
    const from = start - slab.start
    const to = end - slab.start
    let w = this.windows.find((x) => x.slab === n && x.from <= from && to <= x.from + x.bytes.length)
    if (!w) {
      // read a stretch from this record on: the next rows asked for are often in it
      const length = Math.max(to - from, Math.min(WINDOW_BYTES, slab.used - from))
      w = { slab: n, from, bytes: await this.spill!.read(slab.spilledAt + from, length) }
      this.windows.push(w)
      if (this.windows.length > WINDOWS) this.windows.shift()
    }
    return decoder.decode(w.bytes.subarray(from - w.from, to - w.from))
  }

  /** Bytes held in memory by the slabs. */
  get residentBytes(): number {
    return this.resident
  }

  /** Removes the spill file. */
  async close(): Promise<void> {
    await this.spill?.close()
    this.spill = null
  }
}
