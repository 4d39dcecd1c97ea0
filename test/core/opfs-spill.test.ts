/**
 * The OPFS spill against the in-memory buckets, on a model of the origin-private file system's directory and
 * synchronous access handles (WHATWG File System: one open access handle per file, reads past the end return fewer
 * bytes, writes past the end extend the file). The model can also behave as Chromium 156 did under load: a handle
 * opened again on a file whose handle was closed never opens; the spill must never need that. The real OPFS path
 * runs in Chromium in e2e/audit-opfs-spill.spec.ts.
 */
import { describe, expect, it } from 'vitest'
import { memoryBuckets, type RandomAccessBuckets } from '../../src/engine/core/byte-buckets.ts'
import { createOpfsSpill, type SpillDirectory } from '../../src/engine/core/opfs-spill.ts'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { RowLog, type ScannedRow } from '../../src/engine/prepare/inputs/row-log.ts'
import { bucketPlanSpill, RecordStore } from '../../src/engine/prepare/plan-store.ts'

/**
 * A model OPFS directory; `open` counts the access handles open at once, `maxOpenSeen` the most ever, `opened` every
 * handle ever opened. `reopen: 'hang'`: a handle asked for a file whose handle was closed before never opens;
 * `open: 'hang'`: no handle ever opens.
 */
class ModelDirectory implements SpillDirectory {
  readonly dirs = new Map<string, ModelDirectory>()
  readonly files = new Map<string, { bytes: Uint8Array; locked: boolean; closedOnce: boolean }>()
  constructor(private readonly stats = { open: 0, maxOpenSeen: 0, opened: 0, maxFileBytes: 0 }, readonly behaviour: { reopen?: 'hang'; open?: 'hang' } = {}) {}
  get counters() { return this.stats }

  async getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<ModelDirectory> {
    let d = this.dirs.get(name)
    if (!d) {
      if (!options?.create) throw new DOMException(`${name} not found`, 'NotFoundError')
      this.dirs.set(name, d = new ModelDirectory(this.stats, this.behaviour))
    }
    return d
  }

  async getFileHandle(name: string, options?: { create?: boolean }) {
    if (!this.files.has(name)) {
      if (!options?.create) throw new DOMException(`${name} not found`, 'NotFoundError')
      this.files.set(name, { bytes: new Uint8Array(0), locked: false, closedOnce: false })
    }
    const file = this.files.get(name)!
    const stats = this.stats
    const behaviour = this.behaviour
    return {
      async createSyncAccessHandle() {
        if (behaviour.open === 'hang' || (behaviour.reopen === 'hang' && file.closedOnce)) await new Promise(() => undefined)
        if (file.locked) throw new DOMException(`${name} is locked`, 'NoModificationAllowedError')
        file.locked = true
        stats.opened++
        stats.maxOpenSeen = Math.max(stats.maxOpenSeen, ++stats.open)
        let open = true
        const live = () => { if (!open) throw new DOMException('closed handle', 'InvalidStateError') }
        return {
          read(buffer: Uint8Array, { at }: { at: number }) {
            live()
            // a read hands back at most 1,000 bytes, as a real one may return fewer than asked
            const piece = file.bytes.subarray(at, at + Math.min(buffer.byteLength, 1000))
            buffer.set(piece)
            return piece.byteLength
          },
          write(buffer: Uint8Array, { at }: { at: number }) {
            live()
            const n = Math.min(buffer.byteLength, 700)
            if (at + n > file.bytes.byteLength) {
              const grown = new Uint8Array(at + n)
              grown.set(file.bytes)
              file.bytes = grown
            }
            file.bytes.set(buffer.subarray(0, n), at)
            stats.maxFileBytes = Math.max(stats.maxFileBytes, file.bytes.byteLength)
            return n
          },
          truncate(size: number) {
            live()
            const cut = new Uint8Array(size)
            cut.set(file.bytes.subarray(0, size))
            file.bytes = cut
          },
          getSize() { live(); return file.bytes.byteLength },
          flush() { live() },
          close() { if (open) { open = false; file.locked = false; file.closedOnce = true; stats.open-- } },
        }
      },
    }
  }

  async removeEntry(name: string, options?: { recursive?: boolean }): Promise<void> {
    const d = this.dirs.get(name)
    if (d) {
      if (!options?.recursive && (d.dirs.size || d.files.size)) throw new DOMException(`${name} is not empty`, 'InvalidModificationError')
      if ([...d.files.values()].some((f) => f.locked)) throw new DOMException(`${name} holds a locked file`, 'NoModificationAllowedError')
      this.dirs.delete(name)
      return
    }
    const f = this.files.get(name)
    if (!f) throw new DOMException(`${name} not found`, 'NotFoundError')
    if (f.locked) throw new DOMException(`${name} is locked`, 'NoModificationAllowedError')
    this.files.delete(name)
  }

  /** What a closed tab leaves: every file's lock released, the folders kept. */
  tabClosed(): void {
    for (const d of this.dirs.values()) d.tabClosed()
    for (const f of this.files.values()) if (f.locked) { f.locked = false; this.stats.open-- }
  }

  async *keys(): AsyncIterableIterator<string> {
    yield* this.dirs.keys()
    yield* this.files.keys()
  }
}

describe('OPFS spill', () => {
  it('gives back what the in-memory buckets give back, over many buckets through one handle, reusing freed bytes', async () => {
    // a reopened handle would hang here: the spill opens one, once
    const root = new ModelDirectory(undefined, { reopen: 'hang' })
    const spill = await createOpfsSpill(root, { now: 1_000_000 })
    const reference = memoryBuckets()
    const next = mulberry32(7)
    const sizes = new Map<number, number>()
    let peakLive = 0
    const pending: Promise<unknown>[] = []
    const both = async <T>(f: (b: RandomAccessBuckets) => Promise<T>) => {
      const [a, b] = await Promise.all([f(spill), f(reference)])
      return { a, b }
    }
    for (let step = 0; step < 600; step++) {
      const bucket = Math.floor(next() * 12)
      const roll = next()
      if (roll < 0.7) {
        const bytes = Uint8Array.from({ length: Math.floor(next() * 3000) }, () => Math.floor(next() * 256))
        // appends are not awaited one by one: their order must still hold
        pending.push(spill.append(bucket, bytes.slice()), reference.append(bucket, bytes.slice()))
        sizes.set(bucket, (sizes.get(bucket) ?? 0) + bytes.byteLength)
        peakLive = Math.max(peakLive, [...sizes.values()].reduce((a, b) => a + b, 0))
      } else if (roll < 0.85) {
        const size = sizes.get(bucket) ?? 0
        const offset = Math.floor(next() * size)
        const length = Math.floor(next() * (size - offset))
        const { a, b } = await both((s) => s.read(bucket, offset, length))
        expect(Array.from(a), `read ${bucket} ${offset}+${length}`).toEqual(Array.from(b))
      } else {
        const { a, b } = await both((s) => s.take(bucket))
        expect(a.byteLength).toBe(b.byteLength)
        expect(Buffer.from(a).equals(Buffer.from(b)), `take ${bucket}`).toBe(true)
        sizes.delete(bucket)
      }
    }
    await Promise.all(pending)
    expect(root.counters.opened).toBe(1)
    // freed extents are written again before the file grows: never more bytes on disk than the buckets held at once
    expect(root.counters.maxFileBytes).toBeLessThanOrEqual(peakLive)
    expect(root.counters.maxFileBytes).toBeGreaterThan(0)
    await expect(spill.read(0, (sizes.get(0) ?? 0), 1)).rejects.toThrow(/past the end of bucket 0/)
    expect([...root.dirs.keys()]).toHaveLength(1)
    await spill.close()
    expect([...root.dirs.keys()]).toEqual([])
    expect(root.counters.open).toBe(0)
  })

  it('throws when the access handle does not open in time, leaving no folder behind', async () => {
    const root = new ModelDirectory(undefined, { open: 'hang' })
    await expect(createOpfsSpill(root, { openTimeoutMs: 30 })).rejects.toThrow(/did not open a file in 0.03 s/)
    expect([...root.dirs.keys()]).toEqual([])
  })

  it('writes into freed extents before the file grows, and empties the file when every bucket is taken', async () => {
    const root = new ModelDirectory()
    const spill = await createOpfsSpill(root)
    const [folder] = root.dirs.values()
    const file = () => [...folder.files.values()][0].bytes.byteLength
    await spill.append(0, new Uint8Array(100).fill(1))
    await spill.append(1, new Uint8Array(50).fill(2))
    await spill.append(0, new Uint8Array(30).fill(3))
    expect(file()).toBe(180)
    await spill.take(0)
    expect(file()).toBe(180)
    // bucket 0's 130 freed bytes (two extents) take the next append before the file grows by the last 20
    await spill.append(2, new Uint8Array(150).map((_, i) => i))
    expect(file()).toBe(200)
    expect(Array.from(await spill.read(2, 95, 40))).toEqual(Array.from({ length: 40 }, (_, i) => 95 + i))
    expect(Array.from(await spill.take(1))).toEqual(new Array(50).fill(2))
    expect(Array.from(await spill.take(2))).toEqual(Array.from({ length: 150 }, (_, i) => i))
    expect(file()).toBe(0)
    await spill.close()
    await expect(spill.append(0, new Uint8Array(1))).rejects.toThrow(/append after the spill was closed/)
  })

  it('removes the folders of spills a day old, never a newer one', async () => {
    const root = new ModelDirectory()
    const day = 24 * 3600 * 1000
    const old = await createOpfsSpill(root, { now: 5 * day })
    await old.append(1, new Uint8Array([1, 2, 3]))
    await old.take(1)
    root.tabClosed() // its handle is gone with the tab; its folder stays
    const recent = await createOpfsSpill(root, { now: 5.5 * day })
    await root.getDirectoryHandle('prepared-keep', { create: true })
    expect([...root.dirs.keys()]).toHaveLength(3)
    await createOpfsSpill(root, { now: 6 * day + 1 })
    const left = [...root.dirs.keys()]
    expect(left).toHaveLength(3)
    expect(left.filter((n) => n.startsWith(`mixscope-spill-${5 * day}-`))).toEqual([])
    expect(left).toContain('prepared-keep')
    await recent.close()
  })

  it('holds the Prepare view\'s row log and plan records past a tiny budget, giving back what memory holds', async () => {
    const root = new ModelDirectory()
    const rand = mulberry32(21)
    const budget = { bytes: 200, slabBytes: 64, spill: async () => bucketPlanSpill(await createOpfsSpill(root)) }
    const log = new RowLog(budget)
    const store = new RecordStore(budget)
    const rows: ScannedRow[] = []
    const texts: string[] = []
    for (let i = 0; i < 2000; i++) {
      const row: ScannedRow = { where: `m:${i}`, audio: { kind: 'file', path: `a/${i}.flac` }, text: `tëxt ${i} ${'x'.repeat(Math.floor(rand() * 50))}`, language: 'en', split: 'train', corpus: null, duration: rand() < 0.5 ? null : i / 7, problem: null }
      rows.push(row)
      await log.add(row)
      texts.push(JSON.stringify(row))
      store.append(texts[i])
      if (store.overBudget) await store.flush()
    }
    // two spills, each its own folder
    expect([...root.dirs.keys()]).toHaveLength(2)
    expect(log.residentBytes + store.residentBytes).toBeLessThan(2000)
    const back: ScannedRow[] = []
    for await (const { index, ...row } of log.read({ first: 500, end: 1500 })) { expect(index).toBe(500 + back.length); back.push(row) }
    expect(back).toEqual(rows.slice(500, 1500))
    for (let k = 0; k < 2000; k++) {
      const i = Math.floor(rand() * 2000)
      expect(await store.get(i)).toBe(texts[i])
    }
    await log.close()
    await store.close()
    expect([...root.dirs.keys()]).toEqual([])
    expect(root.counters.open).toBe(0)
  })
})
