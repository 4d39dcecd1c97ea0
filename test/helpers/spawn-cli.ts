/**
 * Runs the `mixscope` bin (bin/mixscope.js: tsx, no build step) as a child process, the way a user's shell runs it,
 * without `npx`'s own start-up (about 0.7 s a run on the 2-core CI machine). test/cli.test.ts runs `npx mixscope`
 * once to prove the package's bin mapping.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'

/** The repository root (the tests' working directory for the CLI). */
export const repoRoot = join(import.meta.dirname, '..', '..')

/** Exit code (99 when killed or not started) and captured output of one run. */
export interface CliRun { code: number; stdout: string; stderr: string }

/** Runs `mixscope <args>` in `cwd` (default the repository root), with `env` added to the process environment. */
export function spawnMixscope(args: string[], options: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(repoRoot, 'bin', 'mixscope.js'), ...args], {
      cwd: options.cwd ?? repoRoot,
      timeout: options.timeoutMs ?? 90_000,
      maxBuffer: 64 << 20,
      env: { ...process.env, ...options.env },
    }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr })
    })
  })
}
