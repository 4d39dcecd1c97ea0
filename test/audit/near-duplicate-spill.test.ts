/**
 * The near-duplicate search with its fingerprints spilled (src/engine/audit/fingerprint-spill.ts): under a tiny
 * memory budget (many slices, one bucket's fingerprints read back at a time, on disk) it finds what the search with
 * every fingerprint in memory finds — on synthetic fingerprints against an independent brute force over the
 * candidate pairs, and on the planted speech set through the audit and the merge of shard parts.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryBuckets, type RandomAccessBuckets } from '../../src/engine/core/byte-buckets.ts'
import { createFileSpill } from '../../src/engine/node/file-spill.ts'
import { checkNearDuplicates, findNearDuplicates, nearDuplicateMaxBucket, type MeasuredRow } from '../../src/engine/audit/checks/near-duplicates.ts'
import { checkNearDuplicatesSpilled, FingerprintSpill, searchNearDuplicatesSpilled, splitFingerprints } from '../../src/engine/audit/fingerprint-spill.ts'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import { auditShard } from '../../src/engine/audit/partial/shard.ts'
import { mergeAuditParts } from '../../src/engine/audit/partial/merge.ts'
import { measureAudioTask } from '../../src/engine/audit/measure.ts'
import { compareFingerprints, type Fingerprint } from '../../src/engine/features/dsp/fingerprint.ts'
import type { AuditRow } from '../../src/engine/audit/rows/types.ts'
import { formatJson } from '../../src/cli/lib/io.ts'
import { openFixture } from './helpers.ts'
import { plantedSet, type PlantedSet } from './near-duplicates/planted.ts'
import { syntheticFingerprints } from './near-duplicates/synthetic.ts'

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'mixscope-near-spill-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

/** A file spill in `dir` that counts what goes through it. */
async function countingSpill(counts: { reads: number; taken: Set<number>; bytesRead: number }): Promise<RandomAccessBuckets> {
  const inner = await createFileSpill(dir, { maxOpen: 3 })
  return {
    append: (b, bytes) => inner.append(b, bytes),
    take: (b) => { counts.taken.add(b); return inner.take(b) },
    read: async (b, offset, length) => { counts.reads++; counts.bytesRead += length; return inner.read(b, offset, length) },
    close: () => inner.close(),
  }
}

const splitOf = (i: number) => ['train', 'dev', 'test'][(i * 2654435761 >>> 0) % 3]

describe('random access buckets', () => {
  it('reads ranges across appends, in memory and on disk, and refuses a range past the end', async () => {
    for (const buckets of [memoryBuckets(), await createFileSpill(dir, { maxOpen: 1 })]) {
      await buckets.append(3, Uint8Array.of(1, 2, 3))
      void buckets.append(3, Uint8Array.of(4, 5))
      await buckets.append(4, Uint8Array.of(9))
      // the second append of bucket 3 is pending: a read waits for it
      expect([...await buckets.read(3, 1, 4)]).toEqual([2, 3, 4, 5])
      expect([...await buckets.read(3, 3, 1)]).toEqual([4])
      expect([...await buckets.read(4, 0, 1)]).toEqual([9])
      await expect(buckets.read(3, 4, 2)).rejects.toThrow(/past the end of bucket 3/)
      // reading leaves the bucket as it was
      expect([...await buckets.take(3)]).toEqual([1, 2, 3, 4, 5])
      await buckets.close()
    }
  })
})

describe('the spilled search on synthetic fingerprints', () => {
  // 3,000 rows of 40 steps, band hashes from 600 values: thousands of candidate buckets of a few rows
  const set = syntheticFingerprints(3000, { steps: 40, bandSpace: 600, groups: 30 })
  const fps = Array.from({ length: set.count }, (_, i) => set.fingerprint(i))
  const none = new Uint32Array(0)
  // a few rows are exact copies of another (not compared: duplicate-audio reports them)
  const exactPairs = new Set([`${set.groups[2][0]} ${set.groups[2][1]}`, '10 11'])
  const exact = (a: number, b: number) => exactPairs.has(`${Math.min(a, b)} ${Math.max(a, b)}`)
  const inMemory = (options = {}) => findNearDuplicates(set.count, (i) => fps[i]?.bands ?? none, (i) => fps[i], exact, splitOf, options)
  const spilled = async (buckets: RandomAccessBuckets, options: object, chunk = 7) => {
    const spill = new FingerprintSpill(buckets)
    // written in chunks out of row order (as row groups finish), placed in row order
    const chunks: { from: number; to: number }[] = []
    for (let from = 0; from < set.count; from += chunk) chunks.push({ from, to: Math.min(set.count, from + chunk) })
    const order = chunks.map((_, k) => k).sort((a, b) => ((a * 7919) % chunks.length) - ((b * 7919) % chunks.length))
    const written = new Map<number, Awaited<ReturnType<FingerprintSpill['write']>>>()
    for (const k of order) written.set(k, await spill.write(Array.from({ length: chunks[k].to - chunks[k].from }, (_, i) => set.record(chunks[k].from + i))))
    for (let k = 0; k < chunks.length; k++) spill.place(written.get(k)!)
    try {
      return await searchNearDuplicatesSpilled(spill, exact, splitOf, options)
    } finally {
      await spill.close()
    }
  }

  /** Clusters of the brute force: components of the pairs sharing a bucket of ≤ 256 rows with a bit error rate ≤ 0.3. */
  function bruteForce(): number[][] {
    const buckets = new Map<string, number[]>()
    fps.forEach((f, i) => f?.bands.forEach((h, j) => {
      const key = `${j}:${h}`
      const list = buckets.get(key)
      if (list) list.push(i)
      else buckets.set(key, [i])
    }))
    const adjacent = new Map<number, Set<number>>()
    const link = (a: number, b: number) => {
      if (!adjacent.has(a)) adjacent.set(a, new Set())
      adjacent.get(a)!.add(b)
    }
    const seen = new Set<string>()
    for (const rows of buckets.values()) {
      if (rows.length > nearDuplicateMaxBucket) continue
      for (let x = 0; x < rows.length; x++) for (let y = x + 1; y < rows.length; y++) {
        const key = `${rows[x]} ${rows[y]}`
        if (seen.has(key)) continue
        seen.add(key)
        if (exact(rows[x], rows[y])) continue
        const m = compareFingerprints(fps[rows[x]] as Fingerprint, fps[rows[y]] as Fingerprint)
        if (m && m.ber <= 0.3) { link(rows[x], rows[y]); link(rows[y], rows[x]) }
      }
    }
    const done = new Set<number>()
    const out: number[][] = []
    for (const start of [...adjacent.keys()].sort((a, b) => a - b)) {
      if (done.has(start)) continue
      const component = [start]
      done.add(start)
      for (let k = 0; k < component.length; k++) for (const n of adjacent.get(component[k])!) if (!done.has(n)) { done.add(n); component.push(n) }
      out.push(component.sort((a, b) => a - b))
    }
    return out
  }
  const clustersOf = (cluster: Int32Array) => {
    const map = new Map<number, number[]>()
    cluster.forEach((root, i) => { if (root >= 0) map.set(root, [...map.get(root) ?? [], i]) })
    return [...map.values()]
  }

  it('finds exactly the planted groups, as a brute force over the candidate pairs does', () => {
    const expected = bruteForce()
    // the planted groups but the third, whose two rows are exact copies (left to duplicate-audio)
    expect(expected).toEqual(set.groups.filter((_, k) => k !== 2))
    expect(clustersOf(inMemory().cluster)).toEqual(expected)
  })

  it('gives what the search in memory gives, bucket for bucket, with one bucket\'s fingerprints at a time on disk', async () => {
    for (const partitions of [1, 5]) {
      const expected = inMemory({ partitions })
      expect(expected.compared).toBeGreaterThan(10_000)
      const counts = { reads: 0, taken: new Set<number>(), bytesRead: 0 }
      const found = await spilled(await countingSpill(counts), { partitions, fingerprintBytes: 1 })
      expect(found).toEqual(expected)
      // every slice taken from its bucket; fingerprints read back (bands once, then the candidates' again and again)
      expect(counts.taken.size).toBe(partitions)
      expect(counts.reads).toBeGreaterThan(set.count)
      expect(await readdir(dir)).toEqual([])
    }
  }, 60_000)

  it('gives the same clusters in 300 slices with a 2 kB budget as one slice in memory', async () => {
    const one = inMemory()
    expect(one.partitions).toBe(1)
    const counts = { reads: 0, taken: new Set<number>(), bytesRead: 0 }
    const many = await spilled(await countingSpill(counts), { sliceEntries: 320, fingerprintBytes: 2048 }, 50)
    const entries = fps.reduce((n, f) => n + (f?.bands.length ?? 0), 0)
    expect(many.partitions).toBe(Math.ceil(entries / 320))
    expect(many.partitions).toBeGreaterThanOrEqual(290)
    // a slice holds whole (band, hash) keys: a fiftieth of the entries at most here (600 hash values: keys pile up)
    expect(many.peakEntries).toBeLessThan(entries / 50)
    expect(Array.from(many.cluster)).toEqual(Array.from(one.cluster))
    expect(clustersOf(many.cluster)).toEqual(bruteForce())
    expect(counts.taken.size).toBe(many.partitions)
  }, 60_000)

  it('keeps the fingerprints in memory buckets as well (the browser\'s worker)', async () => {
    expect(await spilled(memoryBuckets(), { fingerprintBytes: 4096 }, 1000)).toEqual(inMemory())
  })
})

describe('the spilled search on the planted speech set', () => {
  let planted: PlantedSet
  let measured: MeasuredRow[]
  beforeAll(async () => {
    planted = await plantedSet()
    const measures = await Promise.all(planted.clips.map(async (c, i) => ({ ...(await measureAudioTask({ path: 'x', rowGroup: 0, rows: [{ row: i, bytes: new Uint8Array(readFileSync(c.file)) }] }))[0] })))
    measured = measures.map((measure, i) => ({
      measure, row: { file: 0, path: `clip-${i}.parquet`, row: i, rowGroup: 0, corpus: 'c', language: 'eng', split: planted.clips[i].split, audioSize: null, text: null } satisfies AuditRow,
    }))
  }, 240_000)

  const spilledCheck = async (options: object) => {
    const counts = { reads: 0, taken: new Set<number>(), bytesRead: 0 }
    const spill = new FingerprintSpill(await countingSpill(counts))
    try {
      const { records, measures } = splitFingerprints(measured.map((m) => m.measure))
      spill.place(await spill.write(records))
      expect(measures.every((m) => !('fingerprint' in m))).toBe(true)
      const stripped = measured.map((m, i) => ({ row: m.row, measure: measures[i] }))
      return { result: await checkNearDuplicatesSpilled(stripped, spill, options), counts }
    } finally {
      await spill.close()
    }
  }

  it('gives the findings and clusters of the check with every fingerprint in memory', async () => {
    const expected = checkNearDuplicates(measured)
    expect(expected.tables.near_duplicates.length).toBeGreaterThan(5)
    const { result, counts } = await spilledCheck({ fingerprintBytes: 1 })
    expect(result).toEqual(expected)
    expect(counts.reads).toBeGreaterThan(measured.length)
    // many slices: the same clusters (members, sizes, splits; which member a row names may differ)
    const many = await spilledCheck({ sliceEntries: 16, fingerprintBytes: 1 })
    expect(many.counts.taken.size).toBeGreaterThanOrEqual(measured.length * 32 / 16)
    const shape = (r: typeof expected) => r.tables.near_duplicates.map(({ rows, splits, members }) => ({ rows, splits, members }))
    expect(shape(many.result)).toEqual(shape(expected))
    expect(many.result.items.map((i) => i.finding.row).sort()).toEqual(expected.items.map((i) => i.finding.row).sort())
  }, 60_000)

  it('an audit and a merge with their fingerprints on disk under a tiny budget give the document of the audit in memory', async () => {
    const whole = formatJson(await auditDataset(await openFixture(planted.root), { deep: true }))
    const bounded = formatJson(await auditDataset(await openFixture(planted.root), { deep: true, spill: () => createFileSpill(dir), nearDuplicates: { fingerprintBytes: 1 } }))
    expect(bounded).toBe(whole)
    expect(JSON.parse(whole).tables.near_duplicates.length).toBeGreaterThan(5)
    const parts = await Promise.all([0, 1, 2].map(async (i) => ({ name: `p${i}`, header: await auditShard(await openFixture(planted.root), { index: i, count: 3 }, { deep: true }) })))
    const merged = await mergeAuditParts([parts[2], parts[0], parts[1]], { spill: () => createFileSpill(dir), nearDuplicates: { fingerprintBytes: 1 } })
    expect(merged.tables.near_duplicates).toEqual(JSON.parse(whole).tables.near_duplicates)
    expect(formatJson(merged.findings.filter((f) => f.kind.startsWith('near-')))).toBe(formatJson(JSON.parse(whole).findings.filter((f: { kind: string }) => f.kind.startsWith('near-'))))
    expect(await readdir(dir)).toEqual([])
  }, 240_000)
})
