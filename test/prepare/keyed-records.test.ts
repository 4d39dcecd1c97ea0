/**
 * The Lhotse reader's bounded join: `KeyedRecords` against a `Map` on random keys (duplicates, keys whose 32-bit
 * FNV-1a hashes collide, records spilled past a tiny budget), and a supervisions + recordings manifest read under a
 * tiny budget (and past a tiny key budget: partitioned) giving the rows of a join written here with a `Map`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createPlanSpill } from '../../src/engine/node/plan-spill.ts'
import { listInput } from '../../src/engine/prepare/inputs/input-files.ts'
import { KeyedRecords } from '../../src/engine/prepare/inputs/keyed-records.ts'
import { readLhotse } from '../../src/engine/prepare/inputs/lhotse.ts'
import type { ScannedRow } from '../../src/engine/prepare/inputs/row-log.ts'
import type { PlanSpill } from '../../src/engine/prepare/plan-store.ts'

const base = mkdtempSync(join(tmpdir(), 'mixscope-keyed-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

/** FNV-1a, 32 bits, over UTF-16 code units (written from the FNV specification, not imported). */
function fnv1a(s: string): number {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0
  return h
}

/** Pairs of distinct keys with one 32-bit hash (a birthday search). */
function collidingPairs(want: number): [string, string][] {
  const seen = new Map<number, string>()
  const pairs: [string, string][] = []
  for (let i = 0; pairs.length < want; i++) {
    const key = `rec-${i.toString(36)}`
    const h = fnv1a(key)
    const other = seen.get(h)
    if (other !== undefined) pairs.push([other, key])
    else seen.set(h, key)
  }
  return pairs
}

describe('KeyedRecords', () => {
  const pairs = collidingPairs(3)
  for (const budget of [undefined, 0]) {
    it(`gives what a Map gives: duplicates (last wins), colliding hashes, missing keys (${budget === undefined ? 'in memory' : 'spilled past a budget of 0 bytes'})`, async () => {
      const rand = mulberry32(budget === undefined ? 3 : 4)
      let opened = 0
      let closed = 0
      const spill = async (): Promise<PlanSpill> => { opened++; const f = await createPlanSpill(); return { ...f, close: () => { closed++; return f.close() } } }
      const keyed = new KeyedRecords(budget === undefined ? {} : { bytes: budget, slabBytes: 64, spill })
      const ref = new Map<string, string>()
      const keys: string[] = pairs.flat()
      for (let i = 0; i < 20_000; i++) keys.push(`r${Math.floor(rand() * 15_000)}${rand() < 0.05 ? '-ü😀' : ''}`)
      for (const [i, key] of keys.entries()) {
        const value = JSON.stringify({ n: i, text: 'x'.repeat(Math.floor(rand() * 40)) })
        await keyed.set(key, value)
        ref.set(key, value)
      }
      expect(keyed.size).toBe(ref.size)
      for (const [a, b] of pairs) {
        expect(fnv1a(a)).toBe(fnv1a(b))
        expect(await keyed.get(a)).toBe(ref.get(a))
        expect(await keyed.get(b)).toBe(ref.get(b))
      }
      for (const key of ref.keys()) expect(await keyed.get(key)).toBe(ref.get(key))
      for (let i = 0; i < 2000; i++) {
        const key = `r${15_000 + i}`
        expect(await keyed.get(key)).toBeUndefined()
      }
      // the index: a table at most 4 slots per key (8 bytes each) and 4 bytes per record stored
      expect(keyed.indexBytes).toBeLessThan(ref.size * 32 + keys.length * 4 + 65_536 * 4 + 48 * keys.length)
      if (budget === 0) expect(keyed.residentBytes).toBeLessThan(1000)
      await keyed.close()
      expect(closed).toBe(opened)
      if (budget === 0) expect(opened).toBe(1)
    })
  }
})

describe('a Lhotse supervisions + recordings manifest joined under a tiny budget', () => {
  it('gives the rows of the join done with a Map, recordings spilled or not', async () => {
    const dir = join(base, 'lhotse')
    mkdirSync(join(dir, 'audio'), { recursive: true })
    const rand = mulberry32(8)
    const recordings: Record<string, unknown>[] = []
    for (let i = 0; i < 3000; i++) {
      const id = `spk${i % 50}-utt${i}`
      writeFileSync(join(dir, 'audio', `${i}.flac`), 'not decoded')
      recordings.push({
        id, duration: 5 + (i % 7), sampling_rate: 16000, num_samples: 16000 * (5 + (i % 7)),
        sources: i % 97 === 0 ? [{ type: 'url', channels: [0], source: `https://x/${i}.flac` }] : [{ type: 'file', channels: [0], source: `audio/${i}.flac` }],
      })
    }
    // one id twice (the later one counts), then in another order than the supervisions
    recordings.push({ ...recordings[10], sources: [{ type: 'file', channels: [0], source: 'audio/11.flac' }] })
    const shuffled = recordings.map((r) => [rand(), r] as const).sort((a, b) => a[0] - b[0]).map(([, r]) => r)
    const sups: Record<string, unknown>[] = []
    for (let i = 0; i < 6000; i++) {
      const rec = rand() < 0.02 ? 'nowhere' : recordings[Math.floor(rand() * 3000)].id
      sups.push({ id: `sup${i}`, recording_id: rec, start: rand() < 0.5 ? 0 : 1.25, duration: rand() < 0.5 ? 2 : 10, text: `text ${i}`, language: 'en', custom: i % 3 ? { corpus: 'c' } : null })
    }
    writeFileSync(join(dir, 'lib_recordings_train.jsonl.gz'), gzipSync(shuffled.map((r) => JSON.stringify(r)).join('\n') + '\n'))
    writeFileSync(join(dir, 'lib_supervisions_train.jsonl.gz'), gzipSync(sups.map((s) => JSON.stringify(s)).join('\n') + '\n'))
    const input = await listInput(await createFsSource(dir))
    const manifests = ['lib_recordings_train.jsonl.gz', 'lib_supervisions_train.jsonl.gz']
    const read = async (budget?: number, keys?: number) => {
      const rows: ScannedRow[] = []
      await readLhotse(input, manifests, { add: async (r) => { rows.push(r) } }, undefined, {}, budget === undefined ? {} : { bytes: budget, slabBytes: 256, spill: () => createPlanSpill(), keys })
      return rows
    }
    const inMemory = await read()
    expect(await read(1024)).toEqual(inMemory)
    // past a budget of 100 recordings: hash partitions joined one at a time (lhotse-partitioned-join.test.ts)
    expect(await read(1024, 100)).toEqual(inMemory)
    // the join written out here (a Map keeps the later of the two recordings with one id)
    const byId = new Map(recordings.map((r) => [r.id as string, r]))
    expect(inMemory.length).toBe(sups.length)
    for (const [i, row] of inMemory.entries()) {
      const s = sups[i]
      const rec = byId.get(s.recording_id as string) as { id: string; duration: number; sources: { type: string; source: string }[] } | undefined
      if (!rec) { expect(row.problem?.message).toContain('is not in lib_recordings_train.jsonl.gz'); continue }
      if (rec.sources[0].type !== 'file') { expect(row.problem?.message).toContain('"url" source'); continue }
      expect(row.problem).toBeNull()
      expect(row.audio?.kind === 'file' && row.audio.path).toBe(rec.sources[0].source)
      const whole = s.start === 0 && (s.duration as number) >= rec.duration - 1e-6
      expect((row.audio?.kind === 'file' && row.audio.segment) || null).toEqual(whole ? null : { offset: s.start, duration: s.duration })
      expect([row.text, row.corpus]).toEqual([s.text, i % 3 ? 'c' : null])
    }
  })
})
