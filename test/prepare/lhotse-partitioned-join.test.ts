/**
 * The Lhotse recordings + supervisions join past its key budget (`PlanBudget.keys`: hash partitions in a spill file)
 * gives what the join in memory gives, byte for byte: the scanned rows (their order, reasons, messages), the notes and
 * the dry run's summary, on Lhotse's own mini_librispeech manifests and on generated ones with duplicate ids, missing
 * recordings, bad lines, blank lines, gzip and not. The partitions are really there (more than one, each within the
 * budget) and their spill file is gone after, also when the read is aborted.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createPlanSpill } from '../../src/engine/node/plan-spill.ts'
import { listInput } from '../../src/engine/prepare/inputs/input-files.ts'
import { readLhotse } from '../../src/engine/prepare/inputs/lhotse.ts'
import { KEY_BUCKETS, SpilledStreams, groupBuckets, keyBucket, mergeByOrdinal, splitBucket } from '../../src/engine/prepare/inputs/partitioned-join.ts'
import { scanInput } from '../../src/engine/prepare/inputs/scan.ts'
import { planPrepare } from '../../src/engine/prepare/plan.ts'
import { preparePlanSummary } from '../../src/engine/prepare/summary.ts'
import type { PlanBudget, PlanSpill } from '../../src/engine/prepare/plan-store.ts'

const base = mkdtempSync(join(tmpdir(), 'mixscope-lhotse-join-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

/** A budget of `keys` recordings and `bytes` whose spill files go to a fresh folder, counted as they are opened and closed. */
function tinyBudget(keys: number, bytes = 1024): { budget: PlanBudget; folder: string; opened: () => number; closed: () => number } {
  const folder = mkdtempSync(join(base, 'spill-'))
  let opened = 0
  let closed = 0
  const spill = async (): Promise<PlanSpill> => {
    opened++
    const f = await createPlanSpill(folder)
    return { ...f, close: () => { closed++; return f.close() } }
  }
  return { budget: { keys, bytes, slabBytes: 256, spill }, folder, opened: () => opened, closed: () => closed }
}

/** What `prepare --dry-run` works from and prints: every scanned row as JSON, in order; the notes; the summary. */
async function prepared(dir: string, budget: PlanBudget): Promise<{ rows: string[]; notes: string[]; summary: string }> {
  const { input, scan } = await scanInput(await createFsSource(dir), { inputFormat: 'lhotse', budget })
  try {
    const rows: string[] = []
    for await (const row of scan.rows()) rows.push(JSON.stringify(row))
    const plan = await planPrepare(scan, input, { corpus: 'c', split: 'train', language: ['en'] }, { keepRows: true, budget })
    try {
      return { rows, notes: scan.notes, summary: JSON.stringify(await preparePlanSummary(plan)) }
    } finally {
      await plan.close()
    }
  } finally {
    await scan.close()
  }
}

describe('the partitioned join\'s pieces', () => {
  it('SpilledStreams gives each stream\'s lines back in order, interleaved, long lines and non-ASCII included', async () => {
    const tiny = tinyBudget(1)
    const streams = new SpilledStreams(tiny.budget.spill!)
    streams.chunkBytes(2, 1 << 20)
    const rand = mulberry32(9)
    const want: string[][] = [[], [], []]
    for (let i = 0; i < 20_000; i++) {
      const n = Math.floor(rand() * 3)
      const line = `${i} ${'ü😀x'.repeat(Math.floor(rand() * (i % 997 === 0 ? 40_000 : 30)))}`
      want[n].push(line)
      await streams.write(n, line)
    }
    for (const n of [2, 0, 1]) {
      const got: string[] = []
      for await (const line of streams.lines(n)) got.push(line)
      expect(got).toEqual(want[n])
    }
    await streams.close()
    expect(tiny.closed()).toBe(1)
    expect(readdirSync(tiny.folder)).toEqual([])
  })

  it('mergeByOrdinal merges ascending streams by ordinal; groupBuckets keeps groups within the budget', async () => {
    const rand = mulberry32(10)
    const ordinals = Array.from({ length: 5000 }, (_, i) => i)
    const parts: [number, string][][] = Array.from({ length: 7 }, () => [])
    for (const o of ordinals) parts[Math.floor(rand() * 7)].push([o, `row ${o}`])
    const gen = async function* (items: [number, string][]) { for (const x of items) yield x }
    const merged: [number, string][] = []
    for await (const x of mergeByOrdinal([...parts.map(gen), gen([])])) merged.push(x)
    expect(merged).toEqual(ordinals.map((o) => [o, `row ${o}`]))
    expect(groupBuckets([3, 4, 0, 9, 1, 1, 12, 2], 8)).toEqual([[0, 1, 2], [3], [4, 5], [6], [7]])
    expect(groupBuckets([3, 4, 0, 1, 1], 8, [10, 10, 0, 50, 10], 30)).toEqual([[0, 1, 2], [3], [4]])
  })

  it('splitBucket spreads the keys of one bucket, each level by a hash of its own', () => {
    // 4,000 keys of one first-level bucket: each split level spreads them over most of the 256 buckets, and the keys
    // sharing a bucket at level 1 spread again at level 2
    const keys: string[] = []
    for (let i = 0; keys.length < 4000; i++) if (keyBucket(`rec-${i}`) === 17) keys.push(`rec-${i}`)
    for (const level of [1, 2, 3]) {
      const used = new Set(keys.map((k) => splitBucket(k, level)))
      expect(used.size, `level ${level}`).toBeGreaterThan(0.9 * KEY_BUCKETS)
    }
    const shared = keys.filter((k) => splitBucket(k, 1) === splitBucket(keys[0], 1))
    expect(shared.length).toBeGreaterThan(5)
    expect(new Set(shared.map((k) => splitBucket(k, 2))).size).toBeGreaterThan(shared.length / 2)
  })
})

describe('the Lhotse join partitioned past its key budget', () => {
  it('gives the in-memory join\'s rows on Lhotse\'s own mini_librispeech recordings + supervisions', async () => {
    const dir = join(import.meta.dirname, '..', 'fixtures', 'lhotse', 'mini_librispeech')
    const inMemory = await prepared(dir, {})
    expect(inMemory.rows.length).toBe(38)
    for (const keys of [1, 5]) {
      const tiny = tinyBudget(keys)
      const partitioned = await prepared(dir, tiny.budget)
      expect(partitioned.rows).toEqual(inMemory.rows)
      expect(partitioned.notes).toEqual(inMemory.notes)
      expect(partitioned.summary).toBe(inMemory.summary)
      expect(tiny.opened()).toBeGreaterThan(0)
      expect(tiny.closed()).toBe(tiny.opened())
      expect(readdirSync(tiny.folder)).toEqual([])
    }
  })

  // a few thousand recordings and supervisions: ids given twice (the later wins), supervisions of no recording,
  // bad lines of both manifests, blank lines, a supervision with no or a numeric recording_id, gzip and not
  const dir = join(base, 'generated')
  const rand = mulberry32(21)
  const ids: string[] = []
  const manifests: [string, string[]][] = []
  mkdirSync(join(dir, 'audio'), { recursive: true })
  for (const [name, n] of [['gen_%_train.jsonl.gz', 3000], ['gen_%_dev.jsonl', 700]] as const) {
    const recs: string[] = []
    for (let i = 0; i < n; i++) {
      const id = `${name.slice(4, 7)}-${i % 40}-${Math.floor(rand() * 1e6).toString(36)}-${i}${i % 211 === 0 ? '-ü😀' : ''}`
      ids.push(id)
      writeFileSync(join(dir, 'audio', `${ids.length}.flac`), 'not decoded')
      const source = i % 89 === 0 ? { type: 'command', channels: [0], source: 'sox x.flac -t wav -' } : { type: 'file', channels: [0], source: `audio/${ids.length}.flac` }
      recs.push(JSON.stringify({ id, sources: [source], sampling_rate: 16000, num_samples: 16000 * 5, duration: 5 }))
      if (rand() < 0.03) recs.push('{"id": "broken')
      if (rand() < 0.02) recs.push('')
    }
    // ids given again later (a duplicate's later recording is the one joined)
    for (let i = 0; i < 60; i++) {
      const id = ids[ids.length - n + Math.floor(rand() * n)]
      recs.push(JSON.stringify({ id, sources: [{ type: 'file', channels: [0], source: `audio/${1 + Math.floor(rand() * ids.length)}.flac` }], duration: 7 }))
    }
    const order = recs.map((r) => [rand(), r] as const).sort((a, b) => a[0] - b[0]).map(([, r]) => r)
    const sups: string[] = []
    for (let i = 0; i < 2 * n; i++) {
      const x = rand()
      const recordingId = x < 0.03 ? 'nowhere' : x < 0.04 ? 17 : x < 0.05 ? undefined : ids[ids.length - n + Math.floor(rand() * n)]
      sups.push(JSON.stringify({ id: `s${i}`, recording_id: recordingId, start: rand() < 0.5 ? 0 : 1.5, duration: rand() < 0.5 ? 5 : 2, text: rand() < 0.02 ? null : `words ${i}`, language: 'en', custom: i % 4 ? { corpus: 'gen' } : null }))
      if (rand() < 0.02) sups.push(rand() < 0.5 ? 'not json at all' : rand() < 0.5 ? '[1, 2]' : '42')
      if (rand() < 0.02) sups.push('   ')
    }
    manifests.push([name.replace('%', 'recordings'), order], [name.replace('%', 'supervisions'), sups])
  }
  // recordings with no supervisions beside them (a note)
  manifests.push(['lone_recordings_test.jsonl', [JSON.stringify({ id: 'x', sources: [] })]])
  for (const [name, lines] of manifests) {
    const text = lines.join('\n') + '\n'
    writeFileSync(join(dir, name), name.endsWith('.gz') ? gzipSync(text) : text)
  }

  it('gives the in-memory join\'s rows on generated manifests (duplicates, missing recordings, bad lines, gzip)', async () => {
    const inMemory = await prepared(dir, {})
    expect(inMemory.rows.length).toBeGreaterThan(2 * 3700)
    expect(inMemory.notes.some((n) => n.includes('lone_recordings_test.jsonl'))).toBe(true)
    // every kind of row is there: joined, recording missing, bad line, not a "file" source
    for (const what of ['"problem":null', 'is not in gen_recordings_train.jsonl.gz', 'recording 17 is not in', 'recording undefined is not in', 'not JSON', 'not a JSON object', 'has a \\"command\\" source']) {
      expect(inMemory.rows.some((r) => r.includes(what)), what).toBe(true)
    }
    // partitions of single buckets (their records over the bytes: spilled), and of several buckets held in memory
    for (const [keys, bytes] of [[64, 1024], [1000, 1 << 20]]) {
      const tiny = tinyBudget(keys, bytes)
      const partitioned = await prepared(dir, tiny.budget)
      expect(partitioned.rows).toEqual(inMemory.rows)
      expect(partitioned.notes).toEqual(inMemory.notes)
      expect(partitioned.summary).toBe(inMemory.summary)
      expect(tiny.closed()).toBe(tiny.opened())
      expect(readdirSync(tiny.folder)).toEqual([])
    }
  })

  it('splits a bucket over the budget again: every partition within it, the same rows; one id given again and again is one partition', async () => {
    const input = await listInput(await createFsSource(dir))
    const names = ['gen_recordings_train.jsonl.gz', 'gen_supervisions_train.jsonl.gz']
    const collect = async (budget: PlanBudget) => {
      const rows: string[] = []
      const { joins } = await readLhotse(input, names, { add: async (r) => { rows.push(JSON.stringify(r)) } }, undefined, {}, budget)
      return { rows, join: joins[0] }
    }
    const inMemory = await collect({})
    // 3,060 recordings in 256 first-level buckets of about 12, each over a budget of 4: every one split again
    const tiny = tinyBudget(4, 1 << 20)
    const split = await collect(tiny.budget)
    expect(split.rows).toEqual(inMemory.rows)
    expect(split.join.largestPartition).toBeLessThanOrEqual(4)
    // more partitions than the final merge reads at once (128): their rows are merged in passes
    expect(split.join.partitions).toBeGreaterThanOrEqual(Math.ceil(3060 / 4))
    expect(tiny.closed()).toBe(tiny.opened())
    expect(readdirSync(tiny.folder)).toEqual([])

    // one recording id given 40 times (the last wins) among a few others: its partition cannot be split, and is joined
    const same = join(base, 'same-id')
    mkdirSync(same, { recursive: true })
    const recs = [...Array.from({ length: 40 }, (_, i) => ({ id: 'dup', sources: [{ type: 'file', channels: [0], source: `a${i}.flac` }], duration: 5 })),
      ...Array.from({ length: 10 }, (_, i) => ({ id: `r${i}`, sources: [{ type: 'file', channels: [0], source: `r${i}.flac` }], duration: 5 }))]
    writeFileSync(join(same, 'x_recordings_train.jsonl'), recs.map((r) => JSON.stringify(r)).join('\n') + '\n')
    writeFileSync(join(same, 'x_supervisions_train.jsonl'), ['dup', 'r3', 'dup', 'r9', 'nowhere'].map((id, i) => JSON.stringify({ id: `s${i}`, recording_id: id, start: 0, duration: 5, text: `t${i}`, language: 'en' })).join('\n') + '\n')
    const sameInput = await listInput(await createFsSource(same))
    const run = async (budget: PlanBudget) => {
      const rows: string[] = []
      const { joins } = await readLhotse(sameInput, ['x_recordings_train.jsonl', 'x_supervisions_train.jsonl'], { add: async (r) => { rows.push(JSON.stringify(r)) } }, undefined, {}, budget)
      return { rows, join: joins[0] }
    }
    const dupMemory = await run({})
    expect(dupMemory.rows[0]).toContain('a39.flac')
    const dupTiny = tinyBudget(2, 1 << 20)
    const dupSplit = await run(dupTiny.budget)
    expect(dupSplit.rows).toEqual(dupMemory.rows)
    expect(dupSplit.join.largestPartition).toBeGreaterThanOrEqual(40)
    expect(readdirSync(dupTiny.folder)).toEqual([])
  })

  it('splits the recordings into partitions within the budget, in a spill file removed after, also on abort', async () => {
    const input = await listInput(await createFsSource(dir))
    const names = ['gen_recordings_train.jsonl.gz', 'gen_supervisions_train.jsonl.gz']
    const tiny = tinyBudget(200, 1 << 20)
    let rows = 0
    const { joins } = await readLhotse(input, names, { add: async () => { rows++ } }, undefined, {}, tiny.budget)
    expect(joins).toHaveLength(1)
    const [j] = joins
    expect(j.recordings).toBe(3060)
    // 3,000 distinct ids in 256 buckets of ~12 grouped under 200: about 16 partitions, none over 200 unless one bucket is
    expect(j.partitions).toBeGreaterThanOrEqual(Math.ceil(j.recordings / 200))
    expect(j.largestPartition).toBeLessThanOrEqual(200)
    expect(j.spilledBytes).toBeGreaterThan(j.recordings * 50)
    expect(rows).toBeGreaterThan(6000)
    expect(tiny.closed()).toBe(tiny.opened())
    expect(readdirSync(tiny.folder)).toEqual([])
    // in memory under a budget it does not reach: one partition, nothing spilled
    const roomy = tinyBudget(4000)
    const inMemory = await readLhotse(input, names, { add: async () => {} }, undefined, {}, { ...roomy.budget, bytes: undefined })
    expect(inMemory.joins[0]).toMatchObject({ partitions: 1, largestPartition: 3060, spilledBytes: 0 })
    // aborted while the partitions' rows are merged: the spill file is removed all the same
    const aborted = tinyBudget(200)
    const controller = new AbortController()
    let added = 0
    const sink = { add: async () => { if (++added === 5000) controller.abort(new Error('stop here')) } }
    await expect(readLhotse(input, names, sink, controller.signal, {}, aborted.budget)).rejects.toThrow('stop here')
    expect(aborted.opened()).toBeGreaterThan(0)
    expect(aborted.closed()).toBe(aborted.opened())
    expect(readdirSync(aborted.folder)).toEqual([])
  })
})
