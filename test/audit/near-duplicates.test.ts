/**
 * Near-duplicate audio in the deep audit, on the planted set (test/audit/near-duplicates/planted.ts: espeak-ng speech
 * re-encoded, resampled, gain-changed, trimmed and noised by opusenc, lame and sox), against Chromaprint's fpcalc on
 * the same files: recall at least fpcalc's, and precision ≥ 0.99 (no cluster joins two different utterances).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import { auditShard } from '../../src/engine/audit/partial/shard.ts'
import { mergeAuditParts } from '../../src/engine/audit/partial/merge.ts'
import { findNearDuplicates, measureFingerprint } from '../../src/engine/audit/checks/near-duplicates.ts'
import { measureAudioTask } from '../../src/engine/audit/measure.ts'
import { nearDuplicateMembers } from '../../src/engine/audit/near-duplicate-members.ts'
import {
  compareFingerprints, decodeFingerprint, encodeFingerprint, fromBase64, lshBandCount, speechFingerprint, toBase64,
} from '../../src/engine/features/dsp/fingerprint.ts'
import type { AuditReport } from '../../src/engine/audit/rows/types.ts'
import { openFixture, where } from './helpers.ts'
import { plantedSet, type PlantedSet } from './near-duplicates/planted.ts'

let planted: PlantedSet
let report: AuditReport

/** Chromaprint's raw fingerprints of the planted clips (fpcalc, cached beside the set). */
function chromaprints(set: PlantedSet): number[][] {
  const cache = join(set.root, '..', 'fpcalc.json')
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8')) as number[][]
  // -ignore-errors: fpcalc stops with "Error decoding audio frame (End of file)" at the end of some FLAC files
  const fps = set.clips.map((c) => (JSON.parse(execFileSync('fpcalc', ['-raw', '-json', '-ignore-errors', '-length', '120', c.file], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()) as { fingerprint: number[] }).fingerprint.map((x) => x >>> 0))
  writeFileSync(cache, JSON.stringify(fps))
  return fps
}

/** Chromaprint's best-aligned bit error rate (offsets ±10 items, overlap ≥ half the shorter and ≥ 4 items). */
function chromaprintBer(a: number[], b: number[]): number {
  const pop = (x: number) => { let n = 0; for (; x; n++) x &= x - 1; return n }
  let best = 1
  for (let d = -10; d <= 10; d++) {
    let errors = 0, overlap = 0
    for (let i = Math.max(0, -d); i < Math.min(a.length, b.length - d); i++) { errors += pop((a[i] ^ b[i + d]) >>> 0); overlap++ }
    if (overlap >= Math.max(4, 0.5 * Math.min(a.length, b.length))) best = Math.min(best, errors / 32 / overlap)
  }
  return best
}

/** Pairs of planted clips that are one utterance. */
function truePairs(set: PlantedSet): [number, number][] {
  const out: [number, number][] = []
  set.clips.forEach((a, i) => set.clips.forEach((b, j) => { if (i < j && a.utterance === b.utterance) out.push([i, j]) }))
  return out
}

beforeAll(async () => {
  planted = await plantedSet()
  report = await auditDataset(await openFixture(planted.root), { deep: true })
}, 240_000)

describe('near-duplicate audio on the planted set', () => {
  it('finds every variant pair (recall at least Chromaprint\'s with its best threshold) and joins no two utterances', () => {
    const clusterOf = new Map<string, number>()
    for (const c of report.tables.near_duplicates) for (const id of c.members as string[]) clusterOf.set(id, c.cluster as number)
    const utterance = new Map(planted.clips.map((c) => [c.id, c.utterance]))
    // precision: every cluster is one utterance
    for (const c of report.tables.near_duplicates) expect(new Set((c.members as string[]).map((id) => utterance.get(id))).size, JSON.stringify(c.members)).toBe(1)
    const pairs = truePairs(planted)
    const found = pairs.filter(([i, j]) => clusterOf.has(planted.clips[i].id) && clusterOf.get(planted.clips[i].id) === clusterOf.get(planted.clips[j].id))
    const recall = found.length / pairs.length
    // Chromaprint, with the threshold an oracle would pick: the lowest bit error rate of two different utterances
    const fps = chromaprints(planted)
    let falseBest = 1
    planted.clips.forEach((a, i) => planted.clips.forEach((b, j) => { if (i < j && a.utterance !== b.utterance) falseBest = Math.min(falseBest, chromaprintBer(fps[i], fps[j])) }))
    const chromaprintRecall = pairs.filter(([i, j]) => chromaprintBer(fps[i], fps[j]) < falseBest).length / pairs.length
    console.log(`near-duplicates: recall ${recall.toFixed(3)} (${found.length}/${pairs.length}), Chromaprint ${chromaprintRecall.toFixed(3)}; ${report.tables.near_duplicates.length} clusters`)
    expect(pairs.length).toBe(72)
    expect(recall).toBeGreaterThanOrEqual(chromaprintRecall)
    expect(recall).toBe(1)
  })

  it('flags each row of a cluster, across splits when its match is in another split, naming the match', () => {
    const byId = new Map(planted.clips.map((c) => [c.id, c]))
    const flagged = [...where(report.findings, 'near-duplicate-audio'), ...where(report.findings, 'near-duplicate-audio-across-splits')]
    const expected = planted.clips.filter((c) => c.kind !== 'respoken').map((c) => c.id).sort()
    expect(flagged.sort()).toEqual(expected)
    for (const f of report.findings.filter((x) => x.kind.startsWith('near-duplicate-audio'))) {
      expect(f.severity).toBe('warning')
      const self = byId.get(`${f.path}:${f.row}`)!
      const named = [...f.message.matchAll(/(corpus=[^ ]+\.parquet:\d+)/g)].map((m) => m[1])
      expect(named[0]).toBe(self.id)
      const other = byId.get(named[1])!
      expect(other.utterance).toBe(self.utterance)
      // across splits exactly when a variant of the same utterance lies in another split
      const elsewhere = planted.clips.some((c) => c.utterance === self.utterance && c.split !== self.split)
      expect(f.kind).toBe(elsewhere ? 'near-duplicate-audio-across-splits' : 'near-duplicate-audio')
      if (f.kind === 'near-duplicate-audio-across-splits') expect(other.split).not.toBe(self.split)
    }
    expect(report.summary['near-duplicate-audio'].count).toBeGreaterThan(0)
  })

  it('keeps exact duplicates as they were: no near-duplicate finding on a byte-identical copy pair alone', async () => {
    expect(where(report.findings, 'duplicate-audio')).toEqual([])
    expect(where(report.findings, 'duplicate-audio-across-splits')).toEqual([])
  })

  it('a sharded audit merges to the same clusters and findings', async () => {
    const parts = await Promise.all([0, 1, 2].map(async (i) => ({ name: `p${i}`, header: await auditShard(await openFixture(planted.root), { index: i, count: 3 }, { deep: true }) })))
    const merged = await mergeAuditParts(parts)
    expect(merged.tables.near_duplicates).toEqual(report.tables.near_duplicates)
    expect(merged.findings.filter((f) => f.kind.startsWith('near-'))).toEqual(report.findings.filter((f) => f.kind.startsWith('near-')))
  }, 120_000)
})

describe('a cluster side by side (the Audit view)', () => {
  it('decodes each member, aligns its fingerprint to the first (a 150 ms trim: shifted ≈ 5 steps) and keeps a bad id apart', async () => {
    const trimmed = planted.clips.find((c) => c.kind === 'trim-start-150ms')!
    const original = planted.clips.find((c) => c.kind === 'original' && c.utterance === trimmed.utterance)!
    const dataset = await openFixture(planted.root)
    const [a, b, bad] = await nearDuplicateMembers(dataset, [original.id, trimmed.id, 'nowhere.parquet:0'])
    expect(a).toMatchObject({ id: original.id, offset: 0, ber: null, error: null })
    // the trimmed clip starts 150 ms (4.7 steps of 32 ms) later in the recording: drawn 4–6 steps to the right
    expect(b.offset).toBeGreaterThanOrEqual(4)
    expect(b.offset).toBeLessThanOrEqual(6)
    expect(b.ber!).toBeLessThan(0.3)
    expect(b.seconds).toBeCloseTo(a.seconds - 0.15, 2)
    // the WAV to play: RIFF, 16 kHz, the clip's samples
    expect(new TextDecoder().decode(b.wav.subarray(0, 4))).toBe('RIFF')
    expect(new DataView(b.wav.buffer, b.wav.byteOffset).getUint32(24, true)).toBe(16000)
    expect(bad.error).toMatch(/nowhere\.parquet/)
  }, 60_000)
})

describe('the partitioned search', () => {
  it('gives the same clusters in 1 or 7 slices, each slice holding about a seventh of the band entries', async () => {
    const clips = await Promise.all(planted.clips.map(async (c) => (await measureAudioTask({ path: 'x', rowGroup: 0, rows: [{ row: 0, bytes: new Uint8Array(readFileSync(c.file)) }] }))[0]))
    const fps = clips.map((m) => measureFingerprint(m))
    const none = new Uint32Array(0)
    const run = (partitions: number) => findNearDuplicates(fps.length, (i) => fps[i]?.bands ?? none, (i) => fps[i], () => false, (i) => planted.clips[i].split, { partitions })
    const one = run(1), seven = run(7)
    expect(Array.from(seven.cluster)).toEqual(Array.from(one.cluster))
    const entries = fps.reduce((n, f) => n + (f?.bands.length ?? 0), 0)
    expect(one.peakEntries).toBe(entries)
    expect(entries).toBe(planted.clips.length * lshBandCount)
    // the slices are hash ranges: each within a generous binomial margin of entries / 7
    expect(seven.peakEntries).toBeLessThanOrEqual(Math.ceil(entries / 7 * 1.5))
    // a bucket cap of 1 expands nothing
    const capped = findNearDuplicates(fps.length, (i) => fps[i]?.bands ?? none, (i) => fps[i], () => false, () => 's', { maxBucket: 1 })
    expect(capped.compared).toBe(0)
    expect(capped.skippedBuckets).toBeGreaterThan(0)
  }, 120_000)
})

describe('the speech fingerprint', () => {
  const speech = () => {
    const out = execFileSync('sox', [planted.clips[0].file, '-t', 'f32', '-r', '16000', '-c', '1', '-'], { maxBuffer: 1 << 26 })
    return new Float32Array(out.buffer, out.byteOffset, out.byteLength / 4).slice()
  }

  it('does not change with gain (bits are signs of log-energy differences)', () => {
    const x = speech()
    const quieter = x.map((v) => v * 0.5)
    const a = speechFingerprint(x)!, b = speechFingerprint(quieter)!
    const m = compareFingerprints(a, b)!
    expect(m.offset).toBe(0)
    expect(m.ber).toBeLessThan(0.01)
  })

  it('tells unrelated speech apart (bit error rate near 0.5)', () => {
    const x = speech()
    const other = execFileSync('sox', [planted.clips.find((c) => c.utterance !== planted.clips[0].utterance && c.kind === 'original')!.file, '-t', 'f32', '-r', '16000', '-c', '1', '-'], { maxBuffer: 1 << 26 })
    const m = compareFingerprints(speechFingerprint(x)!, speechFingerprint(new Float32Array(other.buffer, other.byteOffset, other.byteLength / 4).slice())!)
    expect(m === null || m.ber > 0.35).toBe(true)
  })

  it('round-trips through bytes and base64 (base64 as Node\'s Buffer writes it)', () => {
    const fp = speechFingerprint(speech())!
    const bytes = encodeFingerprint(fp)
    expect(bytes.length).toBe(3 + 4 * fp.bands.length + 4 * fp.words.length + Math.ceil(fp.words.length / 8))
    const text = toBase64(bytes)
    expect(text).toBe(Buffer.from(bytes).toString('base64'))
    for (const n of [0, 1, 2, 3, 4, 5]) expect(toBase64(bytes.subarray(0, n))).toBe(Buffer.from(bytes.subarray(0, n)).toString('base64'))
    expect(decodeFingerprint(fromBase64(text))).toEqual(fp)
    expect(() => decodeFingerprint(bytes.subarray(1))).toThrow(/not a fingerprint/)
    expect(() => fromBase64('ab!d')).toThrow(/not base64/)
  })

  it('has no fingerprint for silence or a clip under 0.2 s', () => {
    expect(speechFingerprint(new Float32Array(16000))).toBeNull()
    expect(speechFingerprint(speech().subarray(0, 2000))).toBeNull()
  })
})
