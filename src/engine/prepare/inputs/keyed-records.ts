/**
 * Records looked up by a string key (the Lhotse reader's recordings by id, to join supervisions with them), held
 * compactly: each record one UTF-8 string in a `RecordStore` (plan-store.ts: slabs spilled to the host's file past
 * the budget) and an open-addressing hash table of two `Int32Array`s (each key's 32-bit FNV-1a hash and its record's
 * number), at most half full. Memory per record: 4 bytes in the store and 8–32 bytes of table (about 20 MB per 10⁶
 * records), whatever the records hold; no JavaScript object per record. A key set twice keeps its last record, as a
 * `Map` would. Past `PlanBudget.keys` keys the Lhotse reader holds one hash partition's records in one at a time
 * (lhotse.ts `joinManifests`).
 */
import { RecordStore, type PlanBudget } from '../plan-store.ts'

/** 32-bit FNV-1a of the string's UTF-16 code units. */
export function hashKey(key: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  return h | 0
}

/** String records by string key (see the module comment). */
export class KeyedRecords {
  private readonly store: RecordStore
  /** Per slot: the key's hash. */
  private hashes = new Int32Array(1024)
  /** Per slot: its record (as stored: `[key, value]` JSON), or −1 when empty. */
  private slots = new Int32Array(1024).fill(-1)
  /** Keys held. */
  size = 0

  constructor(budget: PlanBudget = {}) {
    this.store = new RecordStore(budget)
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  private async find(key: string, hash: number): Promise<number> {
    const mask = this.slots.length - 1
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const r = this.slots[s]
      if (r < 0) return s
      if (this.hashes[s] === hash && (JSON.parse(await this.store.get(r)) as [string, string])[0] === key) return s
    }
  }

  /** Sets `key`'s record to `value` (a later set replaces an earlier one). */
  async set(key: string, value: string): Promise<void> {
    const hash = hashKey(key)
    const s = await this.find(key, hash)
    const existed = this.slots[s] >= 0
    this.slots[s] = this.store.append(JSON.stringify([key, value]))
    this.hashes[s] = hash
    if (this.store.overBudget) await this.store.flush()
    if (existed) return
    if (++this.size * 2 > this.slots.length) this.grow()
  }

  /** `key`'s record, or undefined. */
  async get(key: string): Promise<string | undefined> {
    const s = await this.find(key, hashKey(key))
    const r = this.slots[s]
    return r < 0 ? undefined : (JSON.parse(await this.store.get(r)) as [string, string])[1]
  }

  /**
   * Every `set` so far, in the order made (a key set twice comes twice, the later one last): the records are read
   * back from the store, nothing else is held.
   */
  async* sets(): AsyncGenerator<[key: string, value: string]> {
    for (let i = 0; i < this.store.length; i++) yield JSON.parse(await this.store.get(i)) as [string, string]
  }

  /** Doubles the table (the hashes are kept: no record is read). */
  private grow(): void {
    const hashes = this.hashes
    const slots = this.slots
    this.hashes = new Int32Array(slots.length * 2)
    this.slots = new Int32Array(slots.length * 2).fill(-1)
    const mask = this.slots.length - 1
    for (let i = 0; i < slots.length; i++) {
      if (slots[i] < 0) continue
      let s = hashes[i] & mask
      while (this.slots[s] >= 0) s = (s + 1) & mask
      this.slots[s] = slots[i]
      this.hashes[s] = hashes[i]
    }
  }

  /** Bytes of the table and the store's index in memory (the records' slabs are the store's `residentBytes`). */
  get indexBytes(): number {
    return this.hashes.byteLength + this.slots.byteLength + this.store.indexBytes
  }

  /** Bytes of record slabs in memory. */
  get residentBytes(): number {
    return this.store.residentBytes
  }

  /** Removes the spill file. */
  async close(): Promise<void> {
    await this.store.close()
  }
}
