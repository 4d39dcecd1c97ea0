/**
 * `--max-findings-per-kind N` and `--findings FILE` (and `--flagged FILE`, which needs every finding too), shared by
 * `audit`, `validate` and `merge`: the `--json` document holds at most N findings of a kind (`finding_counts` counts
 * them all), and every finding streams to the files as the report is assembled (docs/conventions.md "Findings and
 * exit codes"). The files are written whole or not at all through the engine's atomic writer: a temporary beside the
 * target, renamed over it when the command is done, so a link at the name is replaced, never written through.
 */
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { defaultMaxFindingsPerKind, FlaggedRowsStream, openAtomic, type AtomicFile, type FindingCount, type FinishOptions } from '../../engine/node.ts'
import { integerOption } from './args.ts'

/** The options every command that prints findings declares. */
export const findingsOptions = {
  findings: { type: 'string' },
  'max-findings-per-kind': { type: 'string' },
} as const

/** The help lines of `findingsOptions` (`pad`: the column the descriptions start at). */
export function findingsHelp(pad: number): string {
  const indent = ' '.repeat(pad)
  return [
    `  ${'--findings FILE'.padEnd(pad - 2)}write every finding to FILE as JSONL (one a line, in --json's order)`,
    '  --max-findings-per-kind N',
    `${indent}findings of one kind that --json and --report list (default ${defaultMaxFindingsPerKind.toLocaleString('en-US')};`,
    `${indent}0: every one); "finding_counts" counts them all, exit codes too`,
  ].join('\n')
}

/** `--max-findings-per-kind` as the engine takes it: `Infinity` for 0, the default when not given. */
export function maxFindingsPerKind(command: string, value: string | undefined): number {
  const n = integerOption(command, '--max-findings-per-kind', value, { min: 0 }) ?? defaultMaxFindingsPerKind
  return n === 0 ? Infinity : n
}

/** The files that take every finding while the report is assembled. */
export interface FindingOutputs {
  /** Pass to the engine; undefined when no file wants the findings. */
  onFindings: FinishOptions['onFindings'] | undefined
  /** Renames the files over their targets once the report is made. */
  commit(): Promise<void>
  /** Removes the temporaries (the command failed); the targets are left as they were. */
  abort(): Promise<void>
}

/** Opens `--findings FILE` (every finding as JSONL) and `--flagged FILE` (every flagged row as JSONL) for writing. */
export async function openFindingOutputs(paths: { findings?: string; flagged?: string }): Promise<FindingOutputs> {
  const open = async (path: string | undefined): Promise<AtomicFile | null> => {
    if (path === undefined) return null
    await mkdir(dirname(path), { recursive: true })
    return openAtomic(path)
  }
  const findings = await open(paths.findings)
  let flaggedFile: AtomicFile | null
  try {
    flaggedFile = await open(paths.flagged)
  } catch (error) {
    await findings?.abort()
    throw error
  }
  const flagged = flaggedFile ? new FlaggedRowsStream() : null
  return {
    onFindings: findings || flaggedFile ? async (batch) => {
      if (findings) {
        // about 1 MiB of lines a write
        let text = ''
        for (const f of batch) {
          text += JSON.stringify(f) + '\n'
          if (text.length >= 1 << 20) { await findings.write(text); text = '' }
        }
        if (text) await findings.write(text)
      }
      if (flagged) {
        const text = flagged.push(batch)
        if (text) await flaggedFile!.write(text)
      }
    } : undefined,
    async commit() {
      if (flagged) {
        const last = flagged.end()
        if (last) await flaggedFile!.write(last)
      }
      await findings?.commit()
      await flaggedFile?.commit()
    },
    async abort() {
      await findings?.abort()
      await flaggedFile?.abort()
    },
  }
}

/**
 * The lines saying what `--json` left out: `… and 1,234,567 more fast-speech findings (see --findings)`, one per kind
 * with findings left out, in the counts' order.
 */
export function omittedLines(counts: Record<string, FindingCount>, findingsFile: string | undefined): string[] {
  const where = findingsFile ? `in ${findingsFile}` : 'see --findings'
  return Object.entries(counts).filter(([, c]) => c.total > c.shown)
    .map(([kind, c]) => `… and ${(c.total - c.shown).toLocaleString('en-US')} more ${kind} findings (${where})`)
}
