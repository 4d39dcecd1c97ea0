/**
 * `mixscope serve` as a command: it prints where the data and the explorer are, serves until SIGTERM or SIGINT and
 * then exits 0; mistakes in its arguments are usage errors (exit 2) naming the value.
 */
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCli } from '../helpers/run-cli.ts'

const bin = resolve(import.meta.dirname, '../../bin/mixscope.js')
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-serve-cli-'))
  await mkdir(join(dir, 'version=0', 'corpus=a'), { recursive: true })
  await writeFile(join(dir, 'version=0', 'corpus=a', 'x.parquet'), 'twelve bytes')
})
afterAll(async () => rm(dir, { recursive: true, force: true }))

/** Starts `mixscope serve` and resolves with the child and its first lines once it has printed the dataset URL. */
function startServe(args: string[]) {
  const child = spawn(process.execPath, [bin, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString() })
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)))
  const ready = new Promise<string>((ok, fail) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString()
      if (/\n {2}dataset: \S+\n/.test(stdout)) ok(stdout)
    })
    void exited.then((code) => fail(new Error(`serve exited ${code}: ${stderr}`)))
  })
  return { child, ready, exited, stderr: () => stderr }
}

describe('mixscope serve', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)('prints the URLs, serves, and stops on %s with exit 0', async (signal) => {
    const run = startServe([join(dir, 'version=0'), '--port', '0'])
    try {
      const out = await run.ready
      const dataUrl = /\n {2}dataset: (\S+)\n/.exec(out)![1]
      expect(dataUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/data\/version=0\/$/)
      expect(out).toMatch(/\(1 file\) on http:/)
      const file = await fetch(`${dataUrl}corpus=a/x.parquet`, { headers: { Range: 'bytes=-5' } })
      expect(file.status).toBe(206)
      expect(await file.text()).toBe('bytes')
      expect(run.stderr()).toContain('Press Ctrl+C to stop.')
      run.child.kill(signal)
      expect(await run.exited).toBe(0)
      await expect(fetch(dataUrl)).rejects.toThrow() // nothing listens any more
    } finally {
      run.child.kill('SIGKILL')
    }
  }, 60_000)

  test.each([
    [['--port', '70000'], /--port must be an integer from 0 to 65535 \(got "70000"\)/],
    [['--port', 'http'], /--port must be an integer from 0 to 65535 \(got "http"\)/],
    [['--bind', 'x'], /serve: Unknown option '--bind'/],
  ])('%j is a usage error', async (extra, message) => {
    const { code, stderr } = await runCli(['serve', join(dir, 'version=0'), ...extra])
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
  })

  test('a missing folder or a file is an I/O error naming it (exit 2)', async () => {
    const missing = await runCli(['serve', join(dir, 'nope'), '--port', '0'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/serve: cannot open ".*nope" \(ENOENT\)/)
    const file = await runCli(['serve', join(dir, 'version=0', 'corpus=a', 'x.parquet'), '--port', '0'])
    expect(file.code).toBe(2)
    expect(file.stderr).toMatch(/serve: ".*x\.parquet" is not a folder/)
  })

  test('a port in use is an I/O error naming the address (exit 2)', async () => {
    const { createServer } = await import('node:net')
    const taken = createServer()
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok))
    const port = (taken.address() as import('node:net').AddressInfo).port
    try {
      const { code, stderr } = await runCli(['serve', join(dir, 'version=0'), '--port', String(port)])
      expect(code).toBe(2)
      expect(stderr).toContain(`serve: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`)
    } finally {
      taken.close()
    }
  })

  test('the command list and its help name it', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(/\n {2}serve {6}serve a dataset folder/)
    const help = await runCli(['serve', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/--host ADDRESS/)
  })
})
