/**
 * The plan's per-row state, compact: numbers in growable typed arrays, and each row's strings (where it was read, its
 * text, its audio) as one UTF-8 record in slabs of bytes — no JavaScript object per row. Past a budget, full slabs go
 * to a spill file the host gives (Node: a temporary file, `src/engine/node/plan-spill.ts`; the browser: OPFS), so
 * what stays in memory per record is 4 bytes (where it ends in its slab): 0.4 GB for 10⁸ records. Records are read
 * back by number.
 */
import type { RandomAccessBuckets } from '../core/byte-buckets.ts'

/** Entries per chunk of a column (a column grows a chunk at a time: nothing is copied as it grows). */
const CHUNK = 1 << 16

/**
 * A growable column of 32-bit integers, in chunks of 65,536: 4 bytes per value and no copy as it grows (a doubling
 * array would hold old and new, 12 bytes per value, while it grows past 10⁸).
 */
export class IntColumn {
  private readonly chunks: Int32Array[] = []
  length = 0

  push(value: number): void {
    const at = this.length & (CHUNK - 1)
    if (at === 0) this.chunks.push(new Int32Array(this.chunks.length ? CHUNK : 256))
    else if (at === this.chunks[this.chunks.length - 1].length) {
      // the first chunk starts small (most streams are small) and grows to a whole chunk
      const grown = new Int32Array(Math.min(CHUNK, at * 4))
      grown.set(this.chunks[this.chunks.length - 1])
      this.chunks[this.chunks.length - 1] = grown
    }
    this.chunks[this.chunks.length - 1][at] = value
    this.length++
  }

  get(i: number): number {
    return this.chunks[i >>> 16][i & (CHUNK - 1)]
  }

  /** Bytes the column holds. */
  get bytes(): number {
    return this.chunks.reduce((n, c) => n + c.byteLength, 0)
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

/**
 * A `PlanSpill` on bucket 0 of `RandomAccessBuckets` (the browser's OPFS spill, src/engine/core/opfs-spill.ts, or
 * memory): appended bytes are handed over (not copied), as the store and the row log never touch them again.
 */
export function bucketPlanSpill(buckets: RandomAccessBuckets): PlanSpill {
  let size = 0
  return {
    async append(bytes) {
      const at = size
      size += bytes.length
      await buckets.append(0, bytes)
      return at
    },
    read: (offset, length) => buckets.read(0, offset, length),
    close: () => buckets.close(),
  }
}

/** How much of the plan stays in memory. */
export interface PlanBudget {
  /** Bytes of record slabs held in memory; past it, full slabs go to `spill` (default: all stay in memory). */
  bytes?: number
  /** Bytes per slab (default 4 MiB; tests force tiny ones). */
  slabBytes?: number
  /**
   * Keys a join holds in memory (the Lhotse reader's recordings by id, about 20 bytes each); past it, the join is
   * hash-partitioned through `spill` files (src/engine/prepare/inputs/partitioned-join.ts). Default 2^22; without
   * `spill`, every key stays in memory.
   */
  keys?: number
  /** Opens the spill file, once, when the budget is first exceeded (without it, everything stays in memory). */
  spill?: () => Promise<PlanSpill>
}

interface Slab {
  /** Its first record. */
  first: number
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
  /**
   * Per record, the offset just past it in its slab (its start is the previous record's end, or 0 for its slab's
   * first): 4 bytes per record, the only per-record memory (a record's slab is found from the slabs' first records).
   */
  private readonly ends = new IntColumn()
  /** The slab last found (records are read near one another). */
  private lastSlab = 0
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
      slab = { first: this.ends.length, bytes: new Uint8Array(size), used: 0, spilledAt: -1 }
      this.slabs.push(slab)
      this.resident += size
      at = 0
      wrote = encoder.encodeInto(text, slab.bytes!)
    }
    slab.used = at + wrote.written!
    // slabs are at most a few MiB (or 3 bytes per character of one string): the offset fits 31 bits
    this.ends.push(slab.used)
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

  /** The slab record `i` is in. */
  private slabOf(i: number): number {
    let n = this.lastSlab
    if (this.slabs[n].first <= i && (n + 1 === this.slabs.length || i < this.slabs[n + 1].first)) return n
    n = 0
    for (let lo = 0, hi = this.slabs.length - 1; lo <= hi;) {
      const mid = (lo + hi) >> 1
      if (this.slabs[mid].first <= i) { n = mid; lo = mid + 1 } else hi = mid - 1
    }
    return this.lastSlab = n
  }

  /** Record `i`. */
  async get(i: number): Promise<string> {
    const n = this.slabOf(i)
    const slab = this.slabs[n]
    const from = i === slab.first ? 0 : this.ends.get(i - 1)
    const to = this.ends.get(i)
    if (slab.bytes) return decoder.decode(slab.bytes.subarray(from, to))
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

  /** Bytes held in memory per record (its end) and by the slab list. */
  get indexBytes(): number {
    return this.ends.bytes + this.slabs.length * 48
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
