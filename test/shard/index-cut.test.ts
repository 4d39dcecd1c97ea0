/**
 * A shard cuts its range from the dataset index when the root has a fresh one (docs/conventions.md "Dataset index",
 * "Sharded jobs"): it then reads the footers and rows of its own files only, and the merged document is the one a
 * run without the index gives, and the unsharded audit's, byte for byte. A file the index no longer matches is read
 * again (a `stale-index` warning on stderr, none in the document).
 */
import { mkdir, mkdtemp, readFile, readdir, rm, stat, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditShard, shardCutFromIndex } from '../../src/engine/audit/partial/shard.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { indexFileName } from '../../src/engine/dataset/index-format.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { balancedRanges, rowGroupUnits } from '../../src/engine/shard/balance.ts'
import type { DatasetSource } from '../../src/engine/source/source.ts'
import { runCli } from '../helpers/run-cli.ts'
import { makeShardedDataset } from './make-sharded-dataset.ts'

let dir: string
let root: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-index-cut-'))
  root = await makeShardedDataset(join(dir, 'data'))
})
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

const withoutTiming = (text: string) => text.replace(/,\n {2}"timing": \{[\s\S]*\}\n\}\n$/, '\n}\n')
const partText = async (path: string) => JSON.stringify({ ...JSON.parse(await readFile(path, 'utf8')), timing: null })

/** Runs `count` shards into `out/`, merges them; @returns the merged document without "timing", and each shard's stderr */
async function shardedRun(out: string, count: number): Promise<{ merged: string; stderr: string[] }> {
  await mkdir(out, { recursive: true })
  const stderr: string[] = []
  for (let i = 0; i < count; i++) {
    const r = await runCli(['audit', root, '--shard', `${i}/${count}`, '--out', join(out, `audit-${i}.json`)])
    expect(r.code, r.stderr).toBe(0)
    stderr.push(r.stderr)
  }
  const merged = join(dir, `${out.split('/').pop()}.json`)
  const m = await runCli(['merge', out, '--out', merged])
  expect(m.code, m.stderr).toBeLessThanOrEqual(1)
  return { merged: withoutTiming(await readFile(merged, 'utf8')), stderr }
}

/** The fs source, recording the path of every read. */
async function recordingSource(): Promise<{ source: DatasetSource; paths: Set<string> }> {
  const source = await createFsSource(root)
  const paths = new Set<string>()
  return {
    paths,
    source: {
      ...source,
      read: (path, start, end, options) => { paths.add(path); return source.read(path, start, end, options) },
      readOptional: source.readOptional && ((path, options) => { paths.add(path); return source.readOptional!(path, options) }),
    },
  }
}

describe('shards cut from the dataset index', () => {
  it('a sharded run with a fresh index, and with a stale one, merges into the document of a run without it, and the unsharded one', async () => {
    const whole = await runCli(['audit', root, '--json'])
    expect(whole.code).toBeLessThanOrEqual(1)
    const without = await shardedRun(join(dir, 'without'), 3)
    expect(without.merged).toBe(whole.stdout)
    for (const s of without.stderr) expect(s).not.toContain('cut from')

    const index = await runCli(['index', root])
    expect(index.code, index.stderr).toBeLessThanOrEqual(1)
    const fresh = await shardedRun(join(dir, 'fresh'), 3)
    for (const s of fresh.stderr) expect(s).toContain(`cut from ${indexFileName} (0 footers read)`)
    expect(fresh.merged).toBe(without.merged)
    // the parts themselves are the same (the cut, the fingerprint, shard 0's dataset-wide findings)
    for (let i = 0; i < 3; i++) expect(await partText(join(dir, 'fresh', `audit-${i}.json`))).toBe(await partText(join(dir, 'without', `audit-${i}.json`)))

    // one file touched after the index was written: read again, a warning on stderr, the same document
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.parquet') && !f.startsWith('_')).sort()
    const touched = join(root, files[1])
    const later = new Date((await stat(touched)).mtimeMs + 5000)
    await utimes(touched, later, later)
    const stale = await shardedRun(join(dir, 'stale'), 3)
    for (const s of stale.stderr) {
      expect(s).toContain(`warning: stale-index: ${indexFileName} describes ${files[1]}`)
      expect(s).toContain(`cut from ${indexFileName} (1 footers read)`)
    }
    expect(stale.merged).toBe(without.merged)
  }, 180_000)

  it('a shard with an index reads its own files only; without one, every file', async () => {
    const count = 4
    // the index of the previous test may be stale by now: write it again
    expect((await runCli(['index', root])).code).toBeLessThanOrEqual(1)
    for (let i = 0; i < count; i++) {
      const { source, paths } = await recordingSource()
      const cut = shardCutFromIndex(await openDataset(source))
      expect(cut).not.toBeNull()
      const dataset = cut!.dataset
      expect(dataset.described.fromIndex).toBe(dataset.files.length)
      const units = rowGroupUnits(dataset)
      const range = balancedRanges(units.map((u) => u.bytes), count)[i]
      const own = new Set(units.slice(range.first, range.end).map((u) => dataset.files[u.file].path))
      await auditShard(dataset, { index: i, count })
      const parquetRead = [...paths].filter((p) => p.endsWith('.parquet') && p !== indexFileName).sort()
      expect(parquetRead, `shard ${i}/${count}`).toEqual([...own].sort())
      expect(own.size).toBeLessThan(dataset.files.length)
    }
    // the reference: the same shard without the index reads every file's footer
    const { source, paths } = await recordingSource()
    const dataset = await openDataset(source, { useIndex: false })
    await auditShard(dataset, { index: 0, count })
    expect([...paths].filter((p) => p.endsWith('.parquet')).length).toBe(dataset.files.length)
  }, 120_000)
})
