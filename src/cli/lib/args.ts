/**
 * How a command declares and reads its arguments: its options as `node:util` `parseArgs` declares them (`-h/--help`
 * added), its positional arguments by count, and checked values. Every mistake is a `UsageError` naming the command,
 * the flag and the bad value; `main` prints it with a pointer to the command's help and exits 2 (docs/conventions.md
 * "Findings and exit codes").
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { CliIo } from './io.ts'

/** A usage error: printed with the command's help hint, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/** A command's options, as `parseArgs` declares them. */
export type OptionSpecs = NonNullable<ParseArgsConfig['options']>

/** The positional arguments a command takes: exactly `count` (or at least `min`), described as `what`. */
export type PositionalSpec = { count: 1; what: string } | { min: 1; what: string }

/** A command's arguments: name, help text, options and positionals. */
export interface CommandSpec<O extends OptionSpecs> {
  /** The command's name (`audit`), the prefix of its usage errors. */
  name: string
  /** What `--help` prints. */
  help: string
  options: O
  positionals: PositionalSpec
}

type WithHelp<O extends OptionSpecs> = O & { help: { type: 'boolean'; short: 'h' } }
type Parsed<O extends OptionSpecs> = ReturnType<typeof parseArgs<{ args: string[]; options: WithHelp<O>; allowPositionals: true; strict: true }>>

/** Parsed arguments: the options' values and the positionals. */
export interface CommandArgs<O extends OptionSpecs> {
  values: Parsed<O>['values']
  positionals: string[]
}

/** Declares a command's arguments (typed, so `values` knows each option). */
export function defineCommand<O extends OptionSpecs>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec
}

/**
 * Parses `argv` for `spec`. With `-h`/`--help` prints the help to stdout and returns `null` (exit 0).
 * @throws UsageError for an unknown option, a missing option value, or the wrong number of positionals
 */
export function parseCommand<O extends OptionSpecs>(spec: CommandSpec<O>, argv: string[], io: CliIo): CommandArgs<O> | null {
  const options = { ...spec.options, help: { type: 'boolean', short: 'h' } } as WithHelp<O>
  let parsed: Parsed<O>
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  } catch (error) {
    const e = error as Error & { code?: string }
    if (e.code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError(`${spec.name}: ${e.message}`)
    throw error
  }
  if ((parsed.values as { help?: boolean }).help) {
    io.stdout(spec.help)
    return null
  }
  const given = parsed.positionals.length
  const p = spec.positionals
  if ('count' in p ? given !== p.count : given < p.min) {
    throw new UsageError(`${spec.name}: expected ${p.what}, got ${given}`)
  }
  return { values: parsed.values, positionals: parsed.positionals }
}

/** The usage error for `flag`'s `value`: `<command>: <flag> must be <expected> (got "<value>")`. */
export function badValue(command: string, flag: string, value: string, expected: string): UsageError {
  return new UsageError(`${command}: ${flag} must be ${expected} (got ${JSON.stringify(value)})`)
}

/**
 * An integer option in `[min, max]`, or `undefined` when not given. Only digits (and a leading `-`) count: `1e3`,
 * `0x10`, `2.0` and `` are refused.
 * @throws UsageError naming the flag and the value
 */
export function integerOption(command: string, flag: string, value: string | undefined, range: { min?: number; max?: number; expected?: string } = {}): number | undefined {
  if (value === undefined) return undefined
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range
  const n = Number(value)
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    const expected = range.expected ?? (max === Number.MAX_SAFE_INTEGER
      ? (min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer of at least ${min}`)
      : `an integer from ${min} to ${max}`)
    throw badValue(command, flag, value, expected)
  }
  return n
}

/**
 * A finite number option for which `accept` holds, or `undefined` when not given.
 * @throws UsageError naming the flag, the value and `expected`
 */
export function numberOption(command: string, flag: string, value: string | undefined, expected: string, accept: (n: number) => boolean = () => true): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || !accept(n)) throw badValue(command, flag, value, expected)
  return n
}

/**
 * One of `choices`, or `undefined` when not given.
 * @throws UsageError naming the flag, the value and the choices
 */
export function choiceOption<C extends string>(command: string, flag: string, value: string | undefined, choices: readonly C[]): C | undefined {
  if (value === undefined) return undefined
  if (!(choices as readonly string[]).includes(value)) throw badValue(command, flag, value, `one of ${choices.join(', ')}`)
  return value as C
}

/**
 * A value matching `pattern` (a file name's extension, a folder-safe name), or `undefined` when not given.
 * @throws UsageError naming the flag, the value and `expected`
 */
export function matchOption(command: string, flag: string, value: string | undefined, pattern: RegExp, expected: string): string | undefined {
  if (value === undefined) return undefined
  if (!pattern.test(value)) throw badValue(command, flag, value, expected)
  return value
}
