/**
 * A sharded audit merged is the unsharded audit, byte for byte (docs/conventions.md "Sharded jobs"): for 1 to 5
 * shards, over the demo, the test fixtures and a generated dataset whose defects span shards, metadata, the cheap
 * audio check and deep, with a sample and with a tokenizer. Parts go through their JSON encoding on the way.
 */
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatJson } from '../../src/cli/lib/io.ts'
import { auditDataset, type AuditOptions } from '../../src/engine/audit/audit.ts'
import { mergeAuditParts } from '../../src/engine/audit/partial/merge.ts'
import { auditShard } from '../../src/engine/audit/partial/shard.ts'
import type { AuditPart } from '../../src/engine/audit/partial/types.ts'
import { contentHash } from '../../src/engine/core/content-hash.ts'
import { loadSpmTokenizer } from '../../src/engine/text/spm-tokenizer.ts'
import { balancedRanges, rowGroupUnits } from '../../src/engine/shard/balance.ts'
import { parsePart, stringifyPart, type NamedPart } from '../../src/engine/shard/part.ts'
import type { Finding } from '../../src/engine/core/findings.ts'
import { auditFixture, demoRoot, openFixture } from '../audit/helpers.ts'
import { makeShardedDataset } from './make-sharded-dataset.ts'

const fixture = (p: string) => join(import.meta.dirname, '..', 'fixtures', p)

let dir: string
let generated: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-shard-'))
  generated = await makeShardedDataset(dir)
})
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

async function shardParts(root: string, count: number, options: AuditOptions): Promise<NamedPart<AuditPart>[]> {
  const parts: NamedPart<AuditPart>[] = []
  // shards in reverse order, each on its own open of the dataset, as separate jobs would
  for (let i = count - 1; i >= 0; i--) {
    const part = await auditShard(await openFixture(root), { index: i, count }, options)
    parts.push({ name: `part-${i}.json`, header: parsePart(`part-${i}.json`, stringifyPart(part)) as AuditPart })
  }
  return parts
}

async function expectSameForShards(root: string, options: AuditOptions, counts = [1, 2, 3, 4, 5]): Promise<string> {
  const whole = formatJson(await auditDataset(await openFixture(root), options))
  for (const n of counts) {
    const merged = formatJson(await mergeAuditParts(await shardParts(root, n, options)))
    expect(merged, `${root} in ${n} shards`).toBe(whole)
  }
  return whole
}

/** Shard (of `count`) of the row group a finding is about. */
async function shardOf(root: string, count: number): Promise<(path: string, rowGroup: number) => number> {
  const dataset = await openFixture(root)
  const units = rowGroupUnits(dataset)
  const ranges = balancedRanges(units.map((u) => u.bytes), count)
  return (path, rowGroup) => {
    const i = units.findIndex((u) => dataset.files[u.file].path === path && u.rowGroup === rowGroup)
    return ranges.findIndex((r) => i >= r.first && i < r.end)
  }
}

const rowOfId = (id: string) => { const at = id.lastIndexOf(':'); return { path: id.slice(0, at), row: Number(id.slice(at + 1)) } }

describe('sharded audit = unsharded audit', () => {
  it('the generated dataset, metadata: its leakage, speaking rates and mixture span shards', async () => {
    const whole = JSON.parse(await expectSameForShards(generated, {}))
    const findings = whole.findings as Finding[]
    const where = await shardOf(generated, 3)
    const dataset = await openFixture(generated)
    const groupOf = (path: string, row: number) => dataset.files.find((f) => f.path === path)!.rowGroups.find((g) => row >= g.firstRow && row < g.firstRow + g.rows)!.index
    // a held-out row whose train copy another shard read
    const leaks = findings.filter((f) => f.kind === 'transcript-leakage')
    expect(leaks.length).toBeGreaterThan(3)
    expect(leaks.some((f) => {
      const train = rowOfId(/train row (\S+)/.exec(f.message)![1])
      return where(f.path, f.row_group!) !== where(train.path, groupOf(train.path, train.row))
    })).toBe(true)
    // outliers against a median no shard alone sees
    expect(findings.filter((f) => f.kind === 'speaking-rate-outlier').length).toBeGreaterThan(2)
    for (const kind of ['tsv-hours-mismatch', 'missing-from-tsv', 'tsv-row-without-data', 'missing-split', 'unknown-script-code', 'foreign-script', 'empty-text', 'below-min-audio-len', 'above-max-audio-len']) {
      expect(whole.summary[kind], kind).toBeDefined()
    }
  })

  it('the generated dataset, deep: duplicates across shards, undecodable rows', async () => {
    const whole = JSON.parse(await expectSameForShards(generated, { deep: true }))
    const findings = whole.findings as Finding[]
    const where = await shardOf(generated, 3)
    const dataset = await openFixture(generated)
    const groupOf = (path: string, row: number) => dataset.files.find((f) => f.path === path)!.rowGroups.find((g) => row >= g.firstRow && row < g.firstRow + g.rows)!.index
    const dups = findings.filter((f) => f.kind.startsWith('duplicate-audio'))
    expect(dups.some((f) => /identical decoded samples/.test(f.message))).toBe(true)
    expect(dups.some((f) => {
      const original = rowOfId(/same audio as (\S+)/.exec(f.message)![1])
      return where(f.path, f.row_group!) !== where(original.path, groupOf(original.path, original.row))
    })).toBe(true)
    expect(whole.summary['undecodable-audio'].count).toBeGreaterThan(1)
    expect(whole.totals.rows_decoded).toBe(whole.totals.rows)
  })

  it('the generated dataset: a seeded sample, and the token check with a SentencePiece model', async () => {
    await expectSameForShards(generated, { sample: 0.3, seed: 5 }, [1, 2, 4])
    const tokenizer = await loadSpmTokenizer(new Uint8Array(readFileSync(fixture('spm/tiny.model'))))
    try {
      const whole = JSON.parse(await expectSameForShards(generated, { tokenizer }, [1, 3, 5]))
      expect(whole.summary['unknown-tokens'].count).toBeGreaterThan(0)
    } finally {
      tokenizer.dispose()
    }
  })

  it('the generated dataset, the cheap audio check (the CLI default): undecodable rows and its census across shards', async () => {
    const whole = JSON.parse(await expectSameForShards(generated, { quick: true }))
    expect(whole.options.quick).toBe(true)
    expect(whole.totals.rows_audio_checked).toBe(whole.totals.rows)
    expect(whole.summary['undecodable-audio'].count).toBeGreaterThan(1)
    expect(whole.tables.audio_check.length).toBeGreaterThan(1)
    // with a sample the cheap check gives way to the decode, in shards as whole
    await expectSameForShards(generated, { quick: true, sample: 0.3, seed: 5 }, [2])
  })

  it('the demo, metadata, the cheap audio check and deep', async () => {
    await expectSameForShards(demoRoot, {})
    await expectSameForShards(demoRoot, { quick: true }, [1, 4])
    await expectSameForShards(demoRoot, { deep: true }, [3])
  }, 120_000)

  it('the test fixtures, metadata and deep (unreadable files and row groups, stray files, key problems)', async () => {
    for (const name of ['meta', 'audio', 'clean'] as const) {
      await expectSameForShards(auditFixture(name), { deep: name !== 'meta' })
      await expectSameForShards(auditFixture(name), { quick: true })
    }
    for (const root of ['parquet/broken/version=0', 'parquet/key-order', 'parquet/versions', 'parquet/dataprep/version=0', 'parquet/large-list/version=0']) {
      await expectSameForShards(fixture(root), { deep: true })
      await expectSameForShards(fixture(root), { quick: true }, [1, 3])
    }
  }, 120_000)

  it('parts carry hashes and counts, not transcripts or audio', async () => {
    const [part] = await shardParts(generated, 1, { deep: true })
    const text = stringifyPart(part.header)
    const dataset = await openFixture(generated)
    const file = dataset.files[0]
    const cells = await dataset.parquet.readColumns(file, 0, ['text'])
    const sample = String(Array.from(cells.text).find((t) => typeof t === 'string' && t.trim().length > 8))
    expect(sample.length).toBeGreaterThan(8)
    expect(text).not.toContain(sample)
    expect(text).not.toContain('RIFF')
    expect(part.header.rows.transcript).toContain(contentHash(new TextEncoder().encode(sample.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim())))
  })
})
