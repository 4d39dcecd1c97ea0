/**
 * The merge's dispatch in the engine (src/engine/merge/merge.ts, `readPartSet`): parts read from their bytes (JSON or
 * binary), merged by their kind into what the kind's own merge gives, parts of two kinds refused by name, and a
 * dataprep's parts refused without an output folder. `mixscope merge` only names files and writes outputs
 * (test/shard/*-merge.test.ts pin its outputs byte for byte).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readPartSet, type PartBytes } from '../../src/engine/node.ts'
import { auditFixture } from '../audit/helpers.ts'
import { runCli } from '../helpers/run-cli.ts'

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'mixscope-merge-dispatch-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

/** A part file as the engine reads it. */
async function partBytes(path: string): Promise<PartBytes> {
  const bytes = new Uint8Array(await readFile(path))
  return { name: path, size: bytes.length, read: async (offset, length) => bytes.slice(offset, offset + length) }
}

describe('readPartSet', () => {
  it('merges index parts into the index `mixscope index` writes, and audit parts into the audit report', async () => {
    const root = auditFixture('meta')
    const whole = join(dir, 'whole.parquet')
    expect((await runCli(['index', root, '--full', '--out', whole])).code).toBeLessThanOrEqual(1)
    for (const i of [0, 1]) expect((await runCli(['index', root, '--shard', `${i}/2`, '--out', join(dir, `index-${i}.json`)])).code).toBe(0)
    const index = await readPartSet([await partBytes(join(dir, 'index-1.json')), await partBytes(join(dir, 'index-0.json'))])
    expect([index.kind, index.count]).toEqual(['index', 2])
    const merged = await index.merge()
    if (merged.kind !== 'index') throw new Error('expected an index outcome')
    expect(Buffer.compare(Buffer.from(merged.index.bytes), await readFile(whole))).toBe(0)
    expect(merged.shardSeconds).toHaveLength(2)

    const audited = await runCli(['audit', root, '--json'])
    expect((await runCli(['audit', root, '--out', join(dir, 'audit-0.json')])).code).toBe(0)
    const audit = await readPartSet([await partBytes(join(dir, 'audit-0.json'))])
    const report = await audit.merge()
    if (report.kind !== 'audit') throw new Error('expected an audit outcome')
    expect(JSON.parse(JSON.stringify(report.report))).toEqual(JSON.parse(audited.stdout))
  })

  it('refuses parts of two kinds, naming both files', async () => {
    const files = [await partBytes(join(dir, 'index-0.json')), await partBytes(join(dir, 'audit-0.json'))]
    await expect(readPartSet(files)).rejects.toThrow(`merge: parts of different kinds: ${join(dir, 'index-0.json')} is index, but ${join(dir, 'audit-0.json')} is audit`)
    await expect(readPartSet([])).rejects.toThrow('merge: no part files given')
  })

  it('refuses a file that is not a part', async () => {
    const junk: PartBytes = { name: 'junk.bin', size: 3, read: async () => new Uint8Array([1, 2, 3]) }
    await expect(readPartSet([junk])).rejects.toThrow('junk.bin')
  })
})
