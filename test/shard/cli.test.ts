/**
 * `mixscope audit --shard i/N --out FILE` and `mixscope merge`: the merged document, report and flagged rows are the
 * unsharded command's (bytes, apart from the top-level "timing"); the shard comes from the flag or the batch
 * engine's environment; missing, repeated and mismatched parts are refused by name. One run spawns the real bin
 * (worker pool, exit codes); the rest call the CLI in this process.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditFixture } from '../audit/helpers.ts'
import { makeShardedDataset } from './make-sharded-dataset.ts'
import { runCli } from '../helpers/run-cli.ts'
import { spawnMixscope, type CliRun } from '../helpers/spawn-cli.ts'

function spawnCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return spawnMixscope(args, { env, timeoutMs: 120_000 })
}

const run = runCli

/** The merged document without its top-level "timing" (the last key), as text. */
function withoutTiming(text: string): string {
  const out = text.replace(/,\n {2}"timing": \{[\s\S]*\}\n\}\n$/, '\n}\n')
  expect(out).not.toBe(text)
  return out
}

const partText = async (path: string) => JSON.stringify({ ...JSON.parse(await readFile(path, 'utf8')), timing: null })

let dir: string
let root: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-shard-cli-'))
  root = await makeShardedDataset(join(dir, 'data'))
})
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

describe('mixscope audit --shard / mixscope merge', () => {
  it('three deep shards through the real bin merge into the unsharded --json, --report and --flagged', async () => {
    const parts = join(dir, 'deep')
    await mkdir(parts)
    const shards = await Promise.all([0, 1, 2].map((i) => spawnCli(['audit', root, '--deep', '--workers', '1', '--out', join(parts, `audit-${i}.json`)],
      { SLURM_ARRAY_TASK_ID: String(10 + i), SLURM_ARRAY_TASK_MIN: '10', SLURM_ARRAY_TASK_COUNT: '3' })))
    for (const [i, s] of shards.entries()) {
      expect(s.code, s.stderr).toBe(0) // a shard exits 0 even though its rows have error findings
      expect(s.stderr).toContain(`shard ${i}/3 (from the Slurm array)`)
    }
    const merged = await spawnCli(['merge', parts, '--out', join(dir, 'merged.json'), '--report', join(dir, 'merged.html'), '--flagged', join(dir, 'merged.jsonl')])
    const whole = await spawnCli(['audit', root, '--deep', '--workers', '1', '--json', '--report', join(dir, 'whole.html'), '--flagged', join(dir, 'whole.jsonl')])
    expect(whole.code).toBe(1)
    expect(merged.code, merged.stderr).toBe(whole.code)
    expect(withoutTiming(await readFile(join(dir, 'merged.json'), 'utf8'))).toBe(whole.stdout)
    expect(await readFile(join(dir, 'merged.html'), 'utf8')).toBe(await readFile(join(dir, 'whole.html'), 'utf8'))
    expect(await readFile(join(dir, 'merged.jsonl'), 'utf8')).toBe(await readFile(join(dir, 'whole.jsonl'), 'utf8'))
    const timing = JSON.parse(await readFile(join(dir, 'merged.json'), 'utf8')).timing
    expect(timing).toMatchObject({ shards: 3 })
    expect(timing.shard_seconds).toHaveLength(3)
  }, 240_000)

  it('takes the shard from --shard, the Slurm array, MIXSCOPE_SHARD and the Kubernetes Indexed Job alike', async () => {
    const out = (name: string) => join(dir, `env-${name}.json`)
    expect((await run(['audit', root, '--shard', '2/4', '--out', out('flag')])).code).toBe(0)
    expect((await run(['audit', root, '--out', out('slurm')], { SLURM_ARRAY_TASK_ID: '7', SLURM_ARRAY_TASK_MIN: '5', SLURM_ARRAY_TASK_COUNT: '4', MIXSCOPE_SHARD: '0/4' })).code).toBe(0)
    expect((await run(['audit', root, '--out', out('own')], { MIXSCOPE_SHARD: '2/4', JOB_COMPLETION_INDEX: '0', MIXSCOPE_SHARDS: '4' })).code).toBe(0)
    expect((await run(['audit', root, '--out', out('k8s')], { JOB_COMPLETION_INDEX: '2', MIXSCOPE_SHARDS: '4' })).code).toBe(0)
    const flag = await partText(out('flag'))
    expect(JSON.parse(flag).shard).toEqual({ index: 2, count: 4 })
    for (const name of ['slurm', 'own', 'k8s']) expect(await partText(out(name)), name).toBe(flag)
    // --out alone: the whole dataset as part 0/1, which merges into the unsharded document
    expect((await run(['audit', root, '--out', out('whole')])).code).toBe(0)
    const merged = await run(['merge', out('whole'), '--out', join(dir, 'whole-merged.json'), '--json'])
    expect(withoutTiming(merged.stdout)).toBe((await run(['audit', root, '--json'])).stdout)
  })

  it('the default audit (the cheap audio check of every row) and --no-audio-check: merged = unsharded, and the two never mix', async () => {
    for (const flags of [[], ['--no-audio-check']]) {
      const p = join(dir, `quick${flags.length}`)
      for (const i of [2, 0, 1]) expect((await run(['audit', root, ...flags, '--shard', `${i}/3`, '--out', join(p, `a-${i}.json`)])).code).toBe(0)
      const merged = await run(['merge', p, '--out', join(dir, `quick${flags.length}.json`), '--json'])
      const whole = await run(['audit', root, ...flags, '--json'])
      expect(JSON.parse(whole.stdout).options.quick).toBe(flags.length === 0)
      expect(merged.code).toBe(whole.code)
      expect(withoutTiming(merged.stdout)).toBe(whole.stdout)
    }
    const r = await run(['merge', join(dir, 'quick0', 'a-0.json'), join(dir, 'quick1', 'a-1.json'), join(dir, 'quick0', 'a-2.json'), '--out', join(dir, 'mixed.json')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/a-1\.json \(metadata only, .*\) was run with other settings than .*a-0\.json/)
  })

  it('refuses shard runs without --out or with whole-dataset outputs, and bad shard values', async () => {
    let r = await run(['audit', root, '--shard', '1/3'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('give --out FILE')
    r = await run(['audit', root, '--out', join(dir, 'x.json'), '--report', join(dir, 'x.html')], { MIXSCOPE_SHARD: '1/3' })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/shard 1\/3 \(from MIXSCOPE_SHARD\) writes a part, not a report: --report/)
    r = await run(['audit', root, '--shard', '3/3', '--out', join(dir, 'x.json')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('shard 3 does not exist')
  })

  it('names missing, repeated and mismatched parts', async () => {
    const p = join(dir, 'set')
    await mkdir(p)
    for (const i of [0, 1, 2]) expect((await run(['audit', root, '--shard', `${i}/3`, '--out', join(p, `a-${i}.json`)])).code).toBe(0)
    const a = (i: number) => join(p, `a-${i}.json`)
    const merge = (...files: string[]) => run(['merge', ...files, '--out', join(dir, 'm.json')])

    let r = await merge(a(0), a(2))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('missing part: shard 1 of 3 (2 of 3 parts given)')

    await copyFile(a(1), join(dir, 'copy-of-1.json'))
    r = await merge(a(0), a(1), a(2), join(dir, 'copy-of-1.json'))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`repeated parts: ${a(1)}, ${join(dir, 'copy-of-1.json')} are all shard 1/3`)

    expect((await run(['audit', auditFixture('clean'), '--shard', '1/3', '--out', join(dir, 'other-dataset.json')])).code).toBe(0)
    r = await merge(a(0), join(dir, 'other-dataset.json'), a(2))
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(new RegExp(`${join(dir, 'other-dataset.json')} \\(root .*clean.*\\) is from another dataset than ${a(0)}`))

    expect((await run(['audit', root, '--preset', 'ctc-finetune', '--shard', '1/3', '--out', join(dir, 'other-config.json')])).code).toBe(0)
    r = await merge(a(0), join(dir, 'other-config.json'), a(2))
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(new RegExp(`${join(dir, 'other-config.json')} \\(metadata and the cheap audio check, split train, min_audio_len 32000.*\\) was run with other settings than ${a(0)}`))

    expect((await run(['audit', root, '--shard', '1/4', '--out', join(dir, 'other-count.json')])).code).toBe(0)
    r = await merge(a(0), join(dir, 'other-count.json'), a(2))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${join(dir, 'other-count.json')} is 1/4`)

    r = await merge(join(dir, 'whole.html'))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('is not a mixscope part file')
    // the complete set still merges
    expect((await merge(a(2), a(0), a(1))).code).toBe((await run(['audit', root])).code)
  })
})
