/**
 * The Kubernetes example (examples/k8s) as written: the Indexed Job's container arguments, run once per completion
 * index with the environment Kubernetes gives its pods (JOB_COMPLETION_INDEX, the manifest's env, `$(VAR)` expanded
 * in args), then the merge Job's script, give the unsharded audit. /data is a temporary folder here, the image's
 * /opt/mixscope this repository, and `--workers` 0 (decoding in the test's thread: the same measures, without eight
 * worker pools starting on a shared machine).
 */
import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { main } from '../../src/cli/main.ts'
import { makeShardedDataset } from './make-sharded-dataset.ts'

const repo = join(import.meta.dirname, '..', '..')
const manifest = async (name: string) => parse(await readFile(join(repo, 'examples', 'k8s', name), 'utf8'))

interface Container { args: string[]; command?: string[]; env?: { name: string; value: string }[] }

let data: string
beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'mixscope-k8s-'))
  const root = await makeShardedDataset(join(data, 'gen'))
  await cp(join(root, '..'), join(data, 'corpus'), { recursive: true })
})
afterAll(async () => { await rm(data, { recursive: true, force: true }) })

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const saved = { ...process.env }
  Object.assign(process.env, env)
  try {
    return { code: await main(args, { stdout: (t) => { stdout += t }, stderr: (t) => { stderr += t } }), stdout, stderr }
  } finally {
    process.env = saved
  }
}

describe('examples/k8s', () => {
  it('the Indexed Job and the merge Job give the unsharded audit', async () => {
    const job = await manifest('audit-indexed-job.yaml')
    expect(job.spec.completionMode).toBe('Indexed')
    const n = job.spec.completions as number
    const container = job.spec.template.spec.containers[0] as Container
    const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value]))
    expect(env.MIXSCOPE_SHARDS).toBe(String(n)) // the shard count must be the completions
    const local = (s: string) => s.replaceAll('/data/', `${data}/`)
    for (let index = 0; index < n; index++) {
      const podEnv: Record<string, string> = { ...env, JOB_COMPLETION_INDEX: String(index) }
      const args = container.args.map((a) => local(a.replace(/\$\((\w+)\)/g, (_, v: string) => podEnv[v] ?? `$(${v})`)))
      const workers = args.indexOf('--workers')
      expect(workers).toBeGreaterThan(0)
      args[workers + 1] = '0'
      const r = await cli(args, podEnv)
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain(`shard ${index}/${n} (from the Kubernetes Indexed Job)`)
    }
    const merge = (await manifest('merge-job.yaml')).spec.template.spec.containers[0] as Container
    expect(merge.command).toEqual(['sh', '-c'])
    const script = local(merge.args[0]).replaceAll('/opt/mixscope/', `${repo}/`)
    const merged = await new Promise<{ code: number; stdout: string }>((resolve) => execFile('sh', ['-c', script], { timeout: 120_000, maxBuffer: 64 << 20 },
      (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout })))
    expect(merged.code).toBe(0)
    const deep = container.args.includes('--deep') ? ['--deep'] : []
    const whole = await cli(['audit', `${data}/corpus/version=0`, ...deep, '--workers', '0', '--json', '--report', join(data, 'whole.html')], {})
    expect(whole.code).toBe(1) // error findings: the merge Job still succeeds
    expect(merged.stdout).toContain('the dataset has error findings')
    const document = await readFile(join(data, 'out', 'audit.json'), 'utf8')
    expect(document.replace(/,\n {2}"timing": \{[\s\S]*\}\n\}\n$/, '\n}\n')).toBe(whole.stdout)
    expect(await readFile(join(data, 'out', 'audit.html'), 'utf8')).toBe(await readFile(join(data, 'whole.html'), 'utf8'))
  }, 180_000)
})
