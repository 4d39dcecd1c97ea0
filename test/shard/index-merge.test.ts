/**
 * `mixscope index --shard i/N --out part` and `mixscope merge parts… --out <root>/_mixscope_index.parquet`: the merged
 * index is the file `mixscope index` writes, byte for byte, for 1 to 5 shards over the demo, the generated sharded
 * dataset and fixtures with unreadable files, stray files and several versions; DuckDB reads the merged file and its
 * per-language rows and Σ audio_size agree with DuckDB's own read of the data; stats over the merged index are the
 * stats of a full read; the shipped Slurm scripts run it; missing and mismatched parts are refused by name.
 */
import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoRoot, openFixture } from '../audit/helpers.ts'
import { query } from '../helpers/duckdb.ts'
import { makeShardedDataset } from './make-sharded-dataset.ts'
import { runCli } from '../helpers/run-cli.ts'

const fixture = (p: string) => join(import.meta.dirname, '..', 'fixtures', p)

const run = runCli

let dir: string
let generated: string
let demo: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-index-shard-'))
  generated = await makeShardedDataset(join(dir, 'generated'))
  // a copy: the test writes the merged index into the root
  demo = join(dir, 'demo', 'version=0')
  await cp(demoRoot, demo, { recursive: true })
})
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

/** Shards 0…n−1 (in reverse order) into `parts/`, merged into `out`; returns the merge's run. */
async function shardAndMerge(root: string, n: number, parts: string, out: string) {
  for (let i = n - 1; i >= 0; i--) {
    const r = await run(['index', root, '--shard', `${i}/${n}`, '--out', join(parts, `index-${i}.json`)])
    expect(r.code, r.stderr).toBe(0)
  }
  return run(['merge', parts, '--out', out, '--json'])
}

describe('sharded index = unsharded index', () => {
  it('byte for byte, for 1 to 5 shards, on the demo, a generated dataset and the fixtures', async () => {
    const roots = [demo, generated, fixture('parquet/broken/version=0'), fixture('parquet/versions'), fixture('parquet/key-order'), fixture('audit/meta')]
    for (const [r, root] of roots.entries()) {
      const wholePath = join(dir, `whole-${r}.parquet`)
      const whole = await run(['index', root, '--full', '--out', wholePath, '--json'])
      expect(whole.code).toBeLessThanOrEqual(1)
      const bytes = await readFile(wholePath)
      for (const n of [1, 2, 3, 5]) {
        const out = join(dir, `merged-${r}-${n}.parquet`)
        const merged = await shardAndMerge(root, n, join(dir, `parts-${r}-${n}`), out)
        expect(merged.code, merged.stderr).toBe(whole.code)
        expect(Buffer.compare(await readFile(out), bytes), `${root} in ${n} shards`).toBe(0)
        const { timing, ...document } = JSON.parse(merged.stdout)
        expect(timing.shards).toBe(n)
        expect(document).toEqual({ ...JSON.parse(whole.stdout), index: out })
      }
    }
  }, 300_000)

  it('the merged index beside the data: DuckDB reads it as the data, and stats use it', async () => {
    const before = await run(['stats', demo, '--json'])
    const out = join(demo, '_mixscope_index.parquet')
    const merged = await shardAndMerge(demo, 4, join(dir, 'parts-demo-root'), out)
    expect(merged.code, merged.stderr).toBe(0)
    const sql = (s: string) => s.replaceAll("'", "''")
    const fromIndex = await query(`SELECT language, sum(rows) AS rows, sum(audio_size_sum) AS samples FROM read_parquet('${sql(out)}') WHERE row_group IS NOT NULL GROUP BY language ORDER BY language`)
    const fromData = await query(`SELECT language, count(*) AS rows, sum(audio_size) AS samples FROM read_parquet('${sql(demo)}/corpus=*/**/*.parquet', hive_partitioning = true) GROUP BY language ORDER BY language`)
    expect(fromIndex.length).toBeGreaterThan(1)
    expect(fromIndex).toEqual(fromData)
    // the open describes every file from the merged index (no footer read), and stats give what a full read gave
    const opened = await openFixture(demo)
    expect(opened.described).toMatchObject({ fromIndex: opened.files.length, read: 0 })
    const withIndex = await run(['stats', demo, '--json'])
    expect(withIndex.code).toBe(0)
    expect(withIndex.stdout).toBe(before.stdout)
  }, 120_000)

  it('the shipped Slurm scripts run it: shard.sbatch per array task (the environment Slurm gives), then merge.sbatch', async () => {
    const repo = join(import.meta.dirname, '..', '..')
    const sh = (script: string, args: string[], env: Record<string, string>) => new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile('bash', [join(repo, 'scripts', 'slurm', script), ...args], { cwd: repo, timeout: 120_000, env: { ...process.env, MIXSCOPE_BIN: `node ${join(repo, 'bin', 'mixscope.js')}`, ...env } },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 99) : 0, stderr }))
    })
    const out = join(dir, 'slurm-index')
    for (const task of [0, 1, 2]) {
      const r = await sh('shard.sbatch', ['index', generated, join(out, 'parts')], { SLURM_ARRAY_TASK_ID: String(task + 4), SLURM_ARRAY_TASK_MIN: '4', SLURM_ARRAY_TASK_COUNT: '3' })
      expect(r.code, r.stderr).toBe(0)
    }
    const merged = await sh('merge.sbatch', ['index', join(out, 'parts'), out], {})
    expect(merged.code, merged.stderr).toBe(0)
    expect((await run(['index', generated, '--full', '--out', join(dir, 'slurm-whole.parquet')])).code).toBeLessThanOrEqual(1)
    expect(Buffer.compare(await readFile(join(out, '_mixscope_index.parquet')), await readFile(join(dir, 'slurm-whole.parquet')))).toBe(0)
  }, 240_000)

  it('refuses missing parts, parts of another dataset and shard runs without --out', async () => {
    const parts = join(dir, 'refused')
    for (const i of [0, 1, 2]) expect((await run(['index', generated, '--out', join(parts, `i-${i}.json`)], { JOB_COMPLETION_INDEX: String(i), MIXSCOPE_SHARDS: '3' })).code).toBe(0)
    let r = await run(['merge', join(parts, 'i-0.json'), join(parts, 'i-2.json'), '--out', join(dir, 'x.parquet')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('missing part: shard 1 of 3')
    expect((await run(['index', demo, '--shard', '1/3', '--out', join(dir, 'other.json')])).code).toBe(0)
    r = await run(['merge', join(parts, 'i-0.json'), join(dir, 'other.json'), join(parts, 'i-2.json'), '--out', join(dir, 'x.parquet')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/other\.json \(root .*demo.*\) is from another dataset than/)
    r = await run(['index', generated, '--shard', '0/2'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('give --out FILE')
  })
})
