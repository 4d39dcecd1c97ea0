/**
 * Output that behaves like a Unix tool: `mixscope batches --jsonl | head -c 100` stops once the reader is gone
 * (EPIPE), and into a pipe nobody reads the command waits instead of buffering its output in memory.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { tempDir } from './helpers.ts'

const repo = fileURLToPath(new URL('../..', import.meta.url))

function dataset(): string {
  const root = tempDir()
  const fixture = join(repo, 'test/fixtures/parquet/dataprep')
  const file = (readdirSync(fixture, { recursive: true }) as string[]).find((f) => f.endsWith('.parquet'))!
  mkdirSync(join(root, 'corpus=c/split=train/language=eng_Latn'), { recursive: true })
  cpSync(join(fixture, file), join(root, 'corpus=c/split=train/language=eng_Latn/part-0.parquet'))
  return root
}

/** `mixscope batches --jsonl` over an endless train stream, up to 10⁶ batches. */
function endlessBatches(): ChildProcess {
  return spawn(process.execPath, [join(repo, 'bin/mixscope.js'), 'batches', dataset(), '--split', 'train', '--set', 'example_shuffle_window=100',
    '--jsonl', '--max-batches', '1000000'], { stdio: ['ignore', 'pipe', 'pipe'] })
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const exited = (child: ChildProcess, ms: number) => new Promise<number | null | 'running'>((resolve) => {
  const timer = setTimeout(() => resolve('running'), ms)
  child.once('exit', (code) => { clearTimeout(timer); resolve(code) })
})

describe('standard output', () => {
  test('stops with exit 0 soon after the reader closes the pipe (| head -c 100)', async () => {
    const child = endlessBatches()
    let got = 0
    await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => {
      got += d.length
      if (got >= 100) { child.stdout!.destroy(); resolve() }
    }))
    const code = await exited(child, 15_000)
    if (code === 'running') child.kill('SIGKILL')
    expect(code).toBe(0)
  }, 60_000)

  test('into a pipe nobody reads, it waits: memory stays flat while the reader sleeps', async () => {
    const child = endlessBatches()
    child.stdout!.pause()
    let stderr = ''
    child.stderr!.on('data', (d) => { stderr += d })
    await sleep(12_000) // started and blocked on the full pipe, even on a loaded machine
    const before = rssMb(child.pid!)
    await sleep(6000)
    const after = rssMb(child.pid!)
    child.kill('SIGKILL')
    console.log(`rss while the reader sleeps: ${before.toFixed(0)} MB, 6 s later ${after.toFixed(0)} MB`)
    expect(stderr).toMatch(/summary TSV/) // it did start
    expect(after - before).toBeLessThan(20)
  }, 60_000)
})
