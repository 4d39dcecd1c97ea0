/**
 * The engine as a package: a project that installs mixscope imports it by name (`mixscope/node`, with
 * `node --import mixscope/register`) and gets the numbers the `mixscope` command prints for the same dataset; deep
 * imports past `package.json` `exports` are refused; the README shows the example script as it is.
 */
import { execFile } from 'node:child_process'
import { copyFile, mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/run-cli.ts'

const run = promisify(execFile)
const repo = join(import.meta.dirname, '..', '..')
const demo = join(repo, 'public/demo/version=0')
const script = join(repo, 'examples/library/hours-and-batches.ts')
let project = ''

beforeAll(async () => {
  // a consumer project as `npm install ../mixscope` leaves it: node_modules/mixscope links to the checkout
  project = await mkdtemp(join(tmpdir(), 'mixscope-consumer-'))
  await mkdir(join(project, 'node_modules'))
  await symlink(repo, join(project, 'node_modules', 'mixscope'), 'dir')
  await writeFile(join(project, 'package.json'), JSON.stringify({ type: 'module', dependencies: { mixscope: 'file:../mixscope' } }))
  await copyFile(script, join(project, 'hours-and-batches.ts'))
})
afterAll(() => rm(project, { recursive: true, force: true }))

const node = (args: string[]) => run(process.execPath, args, { cwd: project, maxBuffer: 16 << 20 })

describe('import mixscope by its package name', () => {
  it('the README example prints the hours and the batches that `mixscope stats` and `mixscope batches` print', async () => {
    const { stdout } = await node(['--import', 'mixscope/register', 'hours-and-batches.ts', demo])
    const lines = stdout.trim().split('\n')

    const stats = JSON.parse((await runCli(['stats', demo, '--json'])).stdout) as { totals: { hours: number; rows: number }; partitions: unknown[] }
    expect(lines[0]).toBe(`${stats.totals.hours.toFixed(3)} h in ${stats.totals.rows} rows, ${stats.partitions.length} partitions`)

    const cli = await runCli(['batches', demo, '--split', 'train', '--preset', 'ctc-finetune', '--max-batches', '3', '--jsonl'])
    const batches = cli.stdout.trim().split('\n').map((l) => JSON.parse(l) as { batch: number; examples: { file: string; row: number }[] })
    expect(batches).toHaveLength(3)
    expect(lines.slice(1)).toEqual(batches.map((b) => `batch ${b.batch}: ${b.examples.map((e) => `${e.file}:${e.row}`).join(' ')}`))
  }, 60_000)

  it('exports `mixscope` and `mixscope/node` and nothing past them', async () => {
    const probe = `const api = await import('mixscope'); const node = await import('mixscope/node');
      console.log(JSON.stringify([typeof api.openDataset, typeof api.planBatches, typeof api.createFsSource, typeof node.createFsSource, typeof node.openDataset]))
      try { await import('mixscope/src/engine/dataset/open.ts'); console.log('deep import allowed') } catch (e) { console.log(e.code) }`
    await writeFile(join(project, 'probe.ts'), probe)
    const { stdout } = await node(['--import', 'mixscope/register', 'probe.ts'])
    expect(stdout.trim().split('\n')).toEqual([JSON.stringify(['function', 'function', 'undefined', 'function', 'function']), 'ERR_PACKAGE_PATH_NOT_EXPORTED'])
  }, 60_000)

  it('the README shows the example script exactly', async () => {
    const readme = await readFile(join(repo, 'README.md'), 'utf8')
    expect(readme).toContain('```ts\n' + (await readFile(script, 'utf8')) + '```')
  })
})
