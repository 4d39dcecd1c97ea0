/**
 * The pieces of a hash-partitioned join whose memory does not grow with its inputs (the Lhotse reader's recordings
 * + supervisions join past `PlanBudget.keys`, lhotse.ts):
 * - `SpilledStreams`: numbered streams of text lines, written in any interleaving, each read back in its order, all
 *   in one spill file of the host (`PlanBudget.spill`: Node a temporary file, the browser OPFS). In memory: one write
 *   buffer per stream being written (64 KiB, or what `chunkBytes` sets), per stream the places of its chunks (16
 *   bytes a chunk), and per stream being read two chunks (the one read and the next, read ahead);
 * - `keyBucket`: which of `KEY_BUCKETS` buckets a key goes to, and `groupBuckets`: consecutive buckets grouped so that
 *   each group's keys and bytes fit a budget (the join's partitions: the number of keys is known only once they are
 *   all read); `splitBucket`: a key's bucket when a partition still over the budget (one bucket) is split again;
 * - `mergeByOrdinal`: streams each in ascending ordinal order merged into one, by ordinal (a binary heap).
 */
import type { PlanBudget, PlanSpill } from '../plan-store.ts'
import { hashKey } from './keyed-records.ts'

/** Buckets keys are written to before the number of keys is known (partitions group them). */
export const KEY_BUCKETS = 256

/** Keys a join holds in memory by default (`PlanBudget.keys`): about 84 MB of `KeyedRecords` table. */
export const DEFAULT_JOIN_KEYS = 1 << 22

/**
 * The bucket of `key`, 0 to `KEY_BUCKETS` − 1: the top 8 bits of its FNV-1a hash times 2^32/φ (the multiply spreads
 * every bit of the hash into the top ones; `KeyedRecords`' table takes the low bits, so one bucket's keys still
 * spread over the whole table).
 */
export function keyBucket(key: string): number {
  return Math.imul(hashKey(key), 0x9e3779b1) >>> 24
}

/** Times a partition over the budget is split again (each time by a fresh hash, `KEY_BUCKETS` ways). */
export const MAX_SPLIT_LEVELS = 3

/**
 * The bucket of `key` when a partition over the budget is split again, at `level` 1 to `MAX_SPLIT_LEVELS`: FNV-1a
 * seeded by the level (a hash of its own, so keys that share a bucket at one level spread at the next), multiplied and
 * its top 8 bits taken as in `keyBucket`.
 */
export function splitBucket(key: string, level: number): number {
  let h = Math.imul(0x811c9dc5 ^ level, 0x01000193)
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  return Math.imul(h ^ (h >>> 15), 0x9e3779b1) >>> 24
}

/**
 * Consecutive buckets grouped so that each group holds at most `budget` keys and `byteBudget` bytes (a bucket holding
 * more is a group of its own, which the join splits again: `splitBucket`).
 * @param counts keys per bucket
 * @param bytes bytes per bucket (default: none)
 * @returns per group, its buckets
 */
export function groupBuckets(counts: readonly number[], budget: number, bytes: readonly number[] = [], byteBudget = Infinity): number[][] {
  const groups: number[][] = []
  let held = 0
  let heldBytes = 0
  for (const [bucket, n] of counts.entries()) {
    const b = bytes[bucket] ?? 0
    if (!groups.length || ((held + n > budget || heldBytes + b > byteBudget) && held > 0)) { groups.push([]); held = 0; heldBytes = 0 }
    groups[groups.length - 1].push(bucket)
    held += n
    heldBytes += b
  }
  return groups
}

/** Bytes a stream gathers before they are appended to the spill, by default (`SpilledStreams.chunkBytes` sets more). */
const CHUNK_BYTES = 64 * 1024

const encoder = new TextEncoder()

interface Stream {
  /** Bytes gathered before they are appended. */
  chunkBytes: number
  buffer: Uint8Array | null
  used: number
  /** Where its appended chunks are in the spill: offset, length, offset, length, … */
  chunks: number[]
}

/** Numbered streams of lines in one spill file (see the module comment). */
export class SpilledStreams {
  private readonly streams = new Map<number, Stream>()
  private spill: PlanSpill | null = null
  /** Bytes appended to the spill file. */
  spilledBytes = 0

  /** @param open opens the spill file, on the first chunk appended (`PlanBudget.spill`) */
  constructor(private readonly open: NonNullable<PlanBudget['spill']>) {}

  private stream(n: number): Stream {
    let s = this.streams.get(n)
    if (!s) this.streams.set(n, s = { chunkBytes: CHUNK_BYTES, buffer: null, used: 0, chunks: [] })
    return s
  }

  /** Sets the bytes stream `n` gathers before they are appended (fewer, longer writes and reads for a few streams). */
  chunkBytes(n: number, bytes: number): void {
    this.stream(n).chunkBytes = bytes
  }

  /** Appends `bytes` to the spill as the next chunk of `s` (the spill owns them from now on). */
  private async append(s: Stream, bytes: Uint8Array): Promise<void> {
    this.spill ??= await this.open()
    s.chunks.push(await this.spill.append(bytes), bytes.length)
    this.spilledBytes += bytes.length
  }

  /**
   * Appends one line (`line` holds no `\n`) to stream `n`; a line is never split between two chunks.
   * @returns its bytes (UTF-8, with its `\n`)
   */
  async write(n: number, line: string): Promise<number> {
    const s = this.stream(n)
    const text = line + '\n'
    let wrote = s.buffer ? encoder.encodeInto(text, s.buffer.subarray(s.used)) : null
    if (!wrote || wrote.read! < text.length) {
      await this.end(n)
      s.buffer = new Uint8Array(Math.max(s.chunkBytes, text.length * 3))
      s.used = 0
      wrote = encoder.encodeInto(text, s.buffer)
    }
    s.used += wrote.written!
    return wrote.written!
  }

  /** Appends what stream `n` has gathered (before it is read). */
  async end(n: number): Promise<void> {
    const s = this.stream(n)
    if (s.buffer && s.used > 0) await this.append(s, s.buffer.subarray(0, s.used))
    s.buffer = null
    s.used = 0
  }

  /** The lines of stream `n`, in the order written, a chunk in memory at a time; the stream is forgotten after. */
  async* lines(n: number): AsyncGenerator<string> {
    await this.end(n)
    const s = this.stream(n)
    this.streams.delete(n)
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
    const read = (c: number) => {
      if (c >= s.chunks.length) return null
      const bytes = this.spill!.read(s.chunks[c], s.chunks[c + 1])
      // a read ahead that is never awaited (the reader stopped) must not fail unhandled
      bytes.catch(() => {})
      return bytes
    }
    let next = read(0)
    for (let c = 0; c < s.chunks.length; c += 2) {
      const bytes = await next!
      // the next chunk is read while this one's lines are used
      next = read(c + 2)
      for (let at = 0; at < bytes.length;) {
        const nl = bytes.indexOf(10, at)
        yield decoder.decode(bytes.subarray(at, nl))
        at = nl + 1
      }
    }
  }

  /** Removes the spill file. */
  async close(): Promise<void> {
    this.streams.clear()
    const spill = this.spill
    this.spill = null
    await spill?.close()
  }
}

/**
 * The items of `sources` (each in ascending ordinal order, no ordinal twice over all of them) in ascending ordinal
 * order: a binary heap of each source's next item.
 */
export async function* mergeByOrdinal<T>(sources: AsyncIterable<[number, T]>[]): AsyncGenerator<[number, T]> {
  const heap: { item: [number, T]; from: AsyncIterator<[number, T]> }[] = []
  const less = (a: number, b: number) => heap[a].item[0] < heap[b].item[0]
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1, r = l + 1
      let m = i
      if (l < heap.length && less(l, m)) m = l
      if (r < heap.length && less(r, m)) m = r
      if (m === i) return
      ;[heap[i], heap[m]] = [heap[m], heap[i]]
      i = m
    }
  }
  for (const source of sources) {
    const from = source[Symbol.asyncIterator]()
    const next = await from.next()
    if (!next.done) heap.push({ item: next.value, from })
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i)
  while (heap.length) {
    const top = heap[0]
    yield top.item
    const next = await top.from.next()
    if (!next.done) top.item = next.value
    else {
      heap[0] = heap[heap.length - 1]
      heap.pop()
    }
    down(0)
  }
}
