/**
 * Hostile-input test helpers: `runIsolated` runs `mixscope <args>` in a child process with a wall-clock limit and
 * reports its peak resident memory (so a bomb or a hang fails the test instead of taking the test runner down), and
 * small writers for crafted datasets.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('../..', import.meta.url))

/** What one isolated run did. */
export interface IsolatedRun {
  code: number | null
  stdout: string
  stderr: string
  /** True when the run was killed at the time limit. */
  timedOut: boolean
  /** Peak resident set size of the child, MB (from `process.resourceUsage().maxRSS`), or NaN when it was killed. */
  peakMb: number
  /** Wall time, ms. */
  ms: number
}

/**
 * Runs `mixscope <args>` in a fresh Node process (heap capped so a runaway JS heap fails fast), kills it after
 * `limitMs`. `stdin` is written to its standard input when given.
 */
export function runIsolated(args: string[], limitMs = 30_000, options: { stdin?: string; env?: Record<string, string> } = {}): Promise<IsolatedRun> {
  const script = `
    const { main } = await import(${JSON.stringify(join(repo, 'src/cli/main.ts'))})
    const code = await main(JSON.parse(process.env.MIXSCOPE_ARGS))
    process.stderr.write('\\n@@peak ' + process.resourceUsage().maxRSS + '\\n')
    process.exitCode = code`
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--max-old-space-size=1024', '--import', join(repo, 'bin/register.js'), '--input-type=module', '-e', script], {
      cwd: repo,
      env: { ...process.env, ...options.env, MIXSCOPE_ARGS: JSON.stringify(args) },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    child.stdin.end(options.stdin ?? '')
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL') }, limitMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      const m = /\n@@peak (\d+)\n/.exec(stderr)
      resolve({ code, stdout, stderr: stderr.replace(/\n@@peak \d+\n/, ''), timedOut, peakMb: m ? Number(m[1]) / 1024 : NaN, ms: performance.now() - started })
    })
  })
}

/** A fresh temporary folder. */
export function tempDir(prefix = 'mixscope-hostile-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}
