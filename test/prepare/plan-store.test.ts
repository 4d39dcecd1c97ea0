/**
 * The plan's compact per-row state against the plain in-memory answer on random inputs: the chunked integer column,
 * the record store read back by number with its slabs spilled past a tiny budget, and a partition's rows read a
 * stretch at a time through the streamed buffer shuffle (against `bufferShuffleOrder`, which shuffle.test.ts checks
 * against the reference's Python).
 */
import { describe, expect, it } from 'vitest'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { IntColumn, RecordStore, type PlanSpill } from '../../src/engine/prepare/plan-store.ts'
import { PlanBuilder } from '../../src/engine/prepare/plan-builder.ts'
import { bufferShuffleOrder, BufferShuffle } from '../../src/engine/prepare/shuffle/buffer-shuffle.ts'
import type { InputRow } from '../../src/engine/prepare/inputs/types.ts'

/** A spill in memory that counts what went through it. */
function countingSpill() {
  let data = new Uint8Array(1024)
  let size = 0
  const stats = { appended: 0, reads: 0, opened: 0, closed: 0 }
  const open = async (): Promise<PlanSpill> => {
    stats.opened++
    return {
      async append(bytes) {
        const at = size
        if (size + bytes.length > data.length) {
          const grown = new Uint8Array(2 * (size + bytes.length))
          grown.set(data.subarray(0, size))
          data = grown
        }
        data.set(bytes, size)
        size += bytes.length
        stats.appended += bytes.length
        return at
      },
      async read(offset, length) {
        stats.reads++
        if (offset + length > size) throw new Error(`spill: ${length} bytes at ${offset} are not there`)
        return data.slice(offset, offset + length)
      },
      async close() { stats.closed++ },
    }
  }
  return { open, stats }
}

describe('IntColumn', () => {
  it('holds what an array holds across several 65,536-value chunks', () => {
    const rand = mulberry32(11)
    const col = new IntColumn()
    const ref: number[] = []
    for (let i = 0; i < 200_000; i++) {
      const v = Math.floor(rand() * 2 ** 32) - 2 ** 31
      col.push(v)
      ref.push(v)
    }
    expect(col.length).toBe(ref.length)
    for (let k = 0; k < 5000; k++) {
      const i = Math.floor(rand() * ref.length)
      expect(col.get(i)).toBe(ref[i])
    }
    expect(col.get(0)).toBe(ref[0])
    expect(col.get(65_535)).toBe(ref[65_535])
    expect(col.get(65_536)).toBe(ref[65_536])
    expect(col.get(ref.length - 1)).toBe(ref[ref.length - 1])
    // 4 bytes a value, a chunk at a time
    expect(col.bytes).toBe(Math.ceil(ref.length / 65_536) * 65_536 * 4)
  })
})

describe('RecordStore', () => {
  const words = ['', 'a', 'grüß gott', 'नमस्ते', '😀 emoji', 'x'.repeat(300), '"quoted"\\']
  for (const [budget, slab] of [[Infinity, 4096], [256, 64], [0, 16]] as const) {
    it(`gives back every record by number, in any order (budget ${budget} bytes, slabs of ${slab})`, async () => {
      const rand = mulberry32(budget === Infinity ? 1 : slab)
      const spill = countingSpill()
      const store = new RecordStore(budget === Infinity ? { slabBytes: slab } : { bytes: budget, slabBytes: slab, spill: spill.open })
      const ref: string[] = []
      for (let i = 0; i < 3000; i++) {
        const text = `${i}:${words[Math.floor(rand() * words.length)]}${rand() < 0.5 ? words[Math.floor(rand() * words.length)] : ''}`
        expect(store.append(text)).toBe(i)
        ref.push(text)
        if (store.overBudget) await store.flush()
      }
      expect(store.length).toBe(ref.length)
      // in order, then at random, then backwards
      for (let i = 0; i < ref.length; i++) expect(await store.get(i)).toBe(ref[i])
      for (let k = 0; k < 3000; k++) {
        const i = Math.floor(rand() * ref.length)
        expect(await store.get(i)).toBe(ref[i])
      }
      for (let i = ref.length - 1; i >= 0; i--) expect(await store.get(i)).toBe(ref[i])
      if (budget === Infinity) expect(spill.stats.opened).toBe(0)
      else {
        expect(spill.stats.appended).toBeGreaterThan(50_000)
        expect(store.residentBytes).toBeLessThanOrEqual(Math.max(budget, 0) + 2 * 900)
      }
      // per record: 4 bytes of its end, whatever its length
      expect(store.indexBytes).toBeLessThan(ref.length * 4 + 65_536 * 4 + 48 * 3000)
      await store.close()
      expect(spill.stats.closed).toBe(spill.stats.opened)
    })
  }
})

describe('BufferShuffle', () => {
  it('emits bufferShuffleOrder one index at a time, then −1', () => {
    for (const [count, buffer] of [[0, 10], [5, 10], [10, 10], [2345, 100], [30_000, 10_000]]) {
      const s = new BufferShuffle(count, 123, buffer)
      const got: number[] = []
      for (let x = s.next(); x >= 0; x = s.next()) got.push(x)
      expect(got).toEqual(bufferShuffleOrder(count, 123, buffer))
      expect(s.next()).toBe(-1)
      expect(s.emitted).toBe(count)
    }
  })
})

describe('a partition read a stretch at a time', () => {
  it('is the reference shuffle of its whole stream, skipped rows dropped after, in any stretches, spilled or not', async () => {
    const rand = mulberry32(5)
    const rows: InputRow[] = []
    for (let i = 0; i < 25_000; i++) {
      rows.push({
        index: i, where: `m:${i}`, audio: { kind: 'file', path: `a${i % 7}.wav` },
        text: rand() < 0.1 ? '' : `row ${i} ${'ü'.repeat(i % 5)}`, language: rand() < 0.8 ? 'en' : 'de',
        split: 'train', corpus: 'c', duration: 1, problem: null,
      })
    }
    for (const budget of [undefined, { bytes: 1000, slabBytes: 512, spill: countingSpill().open }]) {
      const b = new PlanBuilder('nemo', null, {}, { budget })
      for (const r of rows) {
        b.add(r)
        if (b.overBudget) await b.flush()
      }
      const plan = b.finish([])
      for (const p of plan.partitions) {
        const lang = p.language === 'eng_Latn' ? 'en' : 'de'
        const stream = rows.filter((r) => r.language === lang)
        const expected = bufferShuffleOrder(stream.length).map((k) => stream[k]).filter((r) => r.text !== '').map((r) => r.index)
        expect(p.rows.length).toBe(expected.length)
        // forward in random stretches, with a step back now and then (the cursor starts again)
        const got: number[] = []
        for (let at = 0; at < p.rows.length;) {
          const n = 1 + Math.floor(rand() * 3000)
          const stretch = await p.rows.read(at, at + n)
          expect(stretch.map((r) => r.index)).toEqual(expected.slice(at, at + n))
          if (rand() < 0.2 && at > 0) {
            const back = Math.floor(rand() * at)
            expect((await p.rows.read(back, back + 5)).map((r) => r.index)).toEqual(expected.slice(back, back + 5))
          }
          for (const r of stretch) got.push(r.index)
          at += n
        }
        expect(got).toEqual(expected)
        expect(await p.rows.read(p.rows.length, p.rows.length + 10)).toEqual([])
      }
      await plan.close()
    }
  })
})
