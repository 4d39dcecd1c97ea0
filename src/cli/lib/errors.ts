/**
 * What a command's error becomes (docs/conventions.md "Findings and exit codes"): a usage error, printed with a
 * pointer to the command's help, exits 2; a `MixscopeError` exits 2 (usage, I/O) or 1 (data); a reader of standard
 * output that went away (`| head`) ends the command quietly, exit 0; anything else is a bug, printed with its message
 * (its stack only with `MIXSCOPE_DEBUG=1`: never from hostile input), exit 1.
 */
import { MixscopeError } from '../../engine/node.ts'
import { UsageError } from './args.ts'
import { exitCodes, type CliIo } from './io.ts'
import { OutputClosedError } from './output.ts'

/** `mixscope <command>: <message>`, without repeating the command when the message already starts with it. */
function line(command: string, message: string): string {
  return `mixscope ${message.startsWith(`${command}: `) ? message : `${command}: ${message}`}\n`
}

/**
 * Prints `error` for `command` and returns its exit code, or `null` for an error that is neither a usage error nor a
 * `MixscopeError` (printed by nothing: the caller decides).
 */
export function reportKnownError(command: string, error: unknown, io: CliIo): number | null {
  const e = error as Error & { code?: string }
  if (error instanceof UsageError || e.code?.startsWith('ERR_PARSE_ARGS')) {
    io.stderr(`${line(command, e.message)}Run "mixscope ${command} --help" for usage.\n`)
    return exitCodes.usage
  }
  if (error instanceof MixscopeError) {
    io.stderr(line(command, e.message))
    return error.exitClass === 'data' ? exitCodes.findings : exitCodes.usage
  }
  return null
}

/** Runs a command and turns what it throws into an exit code (a bug: its stack on stderr, exit 1). */
export async function runCommand(command: string, io: CliIo, run: () => Promise<number>): Promise<number> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof OutputClosedError) return exitCodes.ok // the reader has what it wanted
    const code = reportKnownError(command, error, io)
    if (code !== null) return code
    const e = error as Error
    io.stderr(`mixscope ${command}: ${process.env.MIXSCOPE_DEBUG ? e.stack ?? e.message : `internal error: ${e.message} (MIXSCOPE_DEBUG=1 shows where)`}\n`)
    return exitCodes.findings
  }
}
