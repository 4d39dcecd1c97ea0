/** What every CLI command writes to; tests pass collectors, `main` passes process streams. */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

/** Exit codes (docs/conventions.md "Findings and exit codes"). */
export const exitCodes = { ok: 0, findings: 1, usage: 2 } as const

/** Serializes a `--json` document: NaN/±Infinity become `null` (their findings say why), two-space indent. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : typeof v === 'bigint' ? Number(v) : v), 2) + '\n'
}

/** A usage error: printed with the command's help hint, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}
