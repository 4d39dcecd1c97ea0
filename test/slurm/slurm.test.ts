/**
 * The shipped Slurm scripts on a real Slurm (Debian slurm-wlm + munge): a single-node cluster (started here when
 * none answers), `scripts/slurm/submit.sh -n 4 audit <demo ×2> <out> -- --deep` (a 4-task array, then the merge
 * with --dependency=afterok), and the merged audit compared with the unsharded run, byte for byte apart from
 * "timing". In CI (`CI` set) a cluster that cannot start fails the test; elsewhere the test is skipped.
 */
import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sh, startSlurm, type SlurmCluster } from './cluster.ts'

const repo = join(import.meta.dirname, '..', '..')
const demo = join(repo, 'public', 'demo')
const copies = 2
const tasks = 4

let cluster: SlurmCluster | null = null
let why: Error | null = null
let dir: string
let data: string

/** The demo's corpora twice over (corpus=<name>-<k>), with its TSV rows for each copy. */
async function demoCopies(to: string): Promise<string> {
  const root = join(to, 'version=0')
  const corpora = (await readdir(join(demo, 'version=0'))).filter((d) => d.startsWith('corpus='))
  for (let k = 0; k < copies; k++) {
    for (const c of corpora) await cp(join(demo, 'version=0', c), join(root, `${c}-${k}`), { recursive: true })
  }
  const [head, ...rows] = (await readFile(join(demo, 'language_distribution_0.tsv'), 'utf8')).trim().split('\n')
  const copied = Array.from({ length: copies }, (_, k) => rows.map((r) => r.replace(/^([^\t]+)/, `$1-${k}`))).flat()
  await writeFile(join(to, 'language_distribution_0.tsv'), [head, ...copied].join('\n') + '\n')
  return root
}

function mixscope(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', [join(repo, 'bin', 'mixscope.js'), ...args], { cwd: repo, timeout: 120_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr }))
  })
}

/** Job state from scontrol (`PENDING`, `RUNNING`, `COMPLETED`, `FAILED`, …). */
async function jobStates(id: string, env: Record<string, string>): Promise<string[]> {
  const r = await sh('scontrol', ['show', 'job', id, '-o'], env)
  return [...r.stdout.matchAll(/JobState=(\S+)/g)].map((m) => m[1])
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-slurm-test-'))
  data = await demoCopies(join(dir, 'data'))
  try {
    cluster = await startSlurm()
  } catch (error) {
    why = error as Error
  }
}, 90_000)

afterAll(async () => {
  await cluster?.stop()
  await rm(dir, { recursive: true, force: true })
}, 60_000)

describe('Slurm: the shipped array + merge scripts', () => {
  it('a 4-task deep audit array and its afterok merge give the unsharded audit', async ({ skip }) => {
    if (!cluster) {
      if (process.env.CI) throw new Error(`Slurm did not start, and CI needs this test: ${why?.message}`)
      skip(`no Slurm: ${why?.message}`)
      return
    }
    const env = cluster.env
    const out = join(dir, 'out')
    await mkdir(out)
    const started = Date.now()
    const submit = await sh(join(repo, 'scripts', 'slurm', 'submit.sh'), ['-n', String(tasks), '-c', '1', 'audit', data, out, '--', '--deep'], env)
    expect(submit.code, submit.stderr).toBe(0)
    const [, array, merge] = /array (\d+) \(4 tasks\), merge (\d+)/.exec(submit.stdout) ?? []
    expect(array, submit.stdout).toBeDefined()
    // the merge waits on the array
    expect((await sh('scontrol', ['show', 'job', merge, '-o'], env)).stdout).toMatch(new RegExp(`Dependency=afterok:${array}`))

    const reference = mixscope(['audit', data, '--deep', '--json', '--report', join(dir, 'whole.html'), '--flagged', join(dir, 'whole.jsonl')])
    let state: string[] = []
    const deadline = Date.now() + 100_000
    while (Date.now() < deadline) {
      state = await jobStates(merge, env)
      if (state.length > 0 && !state.some((s) => /PENDING|RUNNING|CONFIGURING|COMPLETING/.test(s))) break
      await new Promise((r) => setTimeout(r, 1000))
    }
    const logs = join(out, 'logs')
    const logText = async () => (await Promise.all((await readdir(logs)).sort().map(async (f) => `== ${f}\n${await readFile(join(logs, f), 'utf8')}`))).join('\n')
    expect(state, `merge job: ${state.join(',')}\n${await logText()}\n${await cluster.logs()}`).toEqual(['COMPLETED'])
    expect((await jobStates(array, env)).every((s) => s === 'COMPLETED')).toBe(true)
    const seconds = (Date.now() - started) / 1000

    // each task took its shard from the array
    const taskLogs = (await readdir(logs)).filter((f) => f.startsWith(`mixscope-audit-${array}_`)).sort()
    expect(taskLogs).toHaveLength(tasks)
    for (let i = 0; i < tasks; i++) expect(await readFile(join(logs, `mixscope-audit-${array}_${i}.out`), 'utf8')).toContain(`shard ${i}/${tasks} (from the Slurm array)`)
    expect((await readdir(join(out, 'parts'))).sort()).toEqual(Array.from({ length: tasks }, (_, i) => `audit-0000${i}.json`))

    const whole = await reference
    expect(whole.code).toBe(1) // the demo has undecodable rows
    const merged = await readFile(join(out, 'audit.json'), 'utf8')
    expect(merged.replace(/,\n {2}"timing": \{[\s\S]*\}\n\}\n$/, '\n}\n')).toBe(whole.stdout)
    expect(JSON.parse(merged).timing.shards).toBe(tasks)
    expect(await readFile(join(out, 'audit.html'), 'utf8')).toBe(await readFile(join(dir, 'whole.html'), 'utf8'))
    expect(await readFile(join(out, 'flagged.jsonl'), 'utf8')).toBe(await readFile(join(dir, 'whole.jsonl'), 'utf8'))
    console.log(`slurm: array of ${tasks} + merge done in ${seconds.toFixed(1)} s (cluster ${cluster.started ? 'started by the test' : 'already running'})`)
  }, 150_000)
})
