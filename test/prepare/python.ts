/** Runs Debian's /usr/bin/python3 (numpy, torch, torchaudio, soundfile from apt: see .ci/run) for reference values. */
import { spawnSync } from 'node:child_process'

/** Runs `script` with `args`; returns stdout. @throws Error with stderr when python fails */
export function runPython(script: string, args: string[] = [], input?: string): string {
  const r = spawnSync('/usr/bin/python3', ['-c', script, ...args], { encoding: 'utf8', input, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, PYTHONWARNINGS: 'ignore' } })
  if (r.status !== 0) throw new Error(`python3 failed (${r.status}): ${r.stderr || r.error?.message}`)
  return r.stdout
}
