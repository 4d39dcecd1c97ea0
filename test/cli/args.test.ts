/**
 * The CLI's argument parsing (src/cli/lib/args.ts): options declared once per command, `--help`, positional counts and
 * checked values, every mistake a usage error naming the command, the flag and the bad value, which `main` turns into
 * exit 2 with a pointer to the command's help.
 */
import { describe, expect, it } from 'vitest'
import { badValue, choiceOption, defineCommand, integerOption, matchOption, numberOption, parseCommand, UsageError } from '../../src/cli/lib/args.ts'
import type { CliIo } from '../../src/cli/lib/io.ts'
import { runCli } from '../helpers/run-cli.ts'

function collect(): { io: CliIo; out: { stdout: string; stderr: string } } {
  const out = { stdout: '', stderr: '' }
  return { out, io: { stdout: (t) => { out.stdout += t }, stderr: (t) => { out.stderr += t } } }
}

const spec = defineCommand({
  name: 'demo', help: 'Usage: mixscope demo <x>\n', positionals: { count: 1, what: 'one dataset argument' },
  options: { json: { type: 'boolean' }, out: { type: 'string' }, set: { type: 'string', multiple: true } },
})

describe('parseCommand', () => {
  it('gives typed values and the positionals', () => {
    const { io } = collect()
    const parsed = parseCommand(spec, ['root', '--json', '--out', 'o.json', '--set', 'a=1', '--set', 'b=2'], io)
    expect(parsed).toEqual({ values: { json: true, out: 'o.json', set: ['a=1', 'b=2'] }, positionals: ['root'] })
  })

  it('prints the help for -h and --help and gives null', () => {
    for (const flag of ['-h', '--help']) {
      const { io, out } = collect()
      expect(parseCommand(spec, [flag], io)).toBeNull()
      expect(out.stdout).toBe('Usage: mixscope demo <x>\n')
    }
  })

  it('refuses a wrong positional count, naming the command and the count', () => {
    const { io } = collect()
    expect(() => parseCommand(spec, [], io)).toThrow(new UsageError('demo: expected one dataset argument, got 0'))
    expect(() => parseCommand(spec, ['a', 'b'], io)).toThrow('demo: expected one dataset argument, got 2')
    const many = defineCommand({ name: 'merge', help: '', positionals: { min: 1, what: 'the part files' }, options: {} })
    expect(() => parseCommand(many, [], io)).toThrow('merge: expected the part files, got 0')
    expect(parseCommand(many, ['a', 'b', 'c'], io)?.positionals).toEqual(['a', 'b', 'c'])
  })

  it('turns unknown options and missing values into usage errors naming the flag', () => {
    const { io } = collect()
    expect(() => parseCommand(spec, ['root', '--bogus'], io)).toThrow(UsageError)
    expect(() => parseCommand(spec, ['root', '--bogus'], io)).toThrow(/^demo: Unknown option '--bogus'/)
    expect(() => parseCommand(spec, ['root', '--out'], io)).toThrow(/^demo: Option '--out <value>' argument missing/)
  })
})

describe('checked values', () => {
  it('integers: digits only, within the range, the flag and value named', () => {
    expect(integerOption('c', '--n', undefined)).toBeUndefined()
    expect(integerOption('c', '--n', '12', { min: 0 })).toBe(12)
    expect(integerOption('c', '--n', '-3')).toBe(-3)
    expect(() => integerOption('c', '--n', '1e3', { min: 0 })).toThrow('c: --n must be a non-negative integer (got "1e3")')
    expect(() => integerOption('c', '--n', '2.5', { min: 0 })).toThrow('(got "2.5")')
    expect(() => integerOption('c', '--n', '', { min: 0 })).toThrow('(got "")')
    expect(() => integerOption('c', '--n', '0', { min: 1 })).toThrow('c: --n must be a positive integer (got "0")')
    expect(() => integerOption('c', '--jobs', '300', { min: 0, max: 256 })).toThrow('c: --jobs must be an integer from 0 to 256 (got "300")')
    expect(() => integerOption('c', '--n', '99999999999999999999')).toThrow('(got "99999999999999999999")')
  })

  it('numbers, choices and patterns', () => {
    expect(numberOption('c', '--beta', '0.5', 'a number')).toBe(0.5)
    expect(() => numberOption('c', '--beta', 'x', 'a number')).toThrow('c: --beta must be a number (got "x")')
    expect(() => numberOption('c', '--beta', ' ', 'a number')).toThrow('(got " ")')
    expect(() => numberOption('c', '--sample', '2', 'a fraction in (0, 1]', (f) => f > 0 && f <= 1)).toThrow('c: --sample must be a fraction in (0, 1] (got "2")')
    expect(choiceOption('c', '--device', 'gpu', ['cpu', 'gpu'])).toBe('gpu')
    expect(() => choiceOption('c', '--device', 'tpu', ['cpu', 'gpu'])).toThrow('c: --device must be one of cpu, gpu (got "tpu")')
    expect(matchOption('c', '--out', 'a.npy', /\.npy$/, 'a .npy file')).toBe('a.npy')
    expect(() => matchOption('c', '--out', 'a.mp3', /\.npy$/, 'a .npy file')).toThrow('c: --out must be a .npy file (got "a.mp3")')
    expect(badValue('c', '--x', 'v', 'w')).toBeInstanceOf(UsageError)
  })
})

describe('usage errors through main: exit 2, the flag and value, the help hint', () => {
  const cases: [string[], RegExp][] = [
    [['stats', '/nowhere', '--bogus'], /^mixscope stats: Unknown option '--bogus'/],
    [['stats'], /^mixscope stats: expected one dataset argument, got 0\n/],
    [['audit', '/nowhere', '--sample', '2'], /^mixscope audit: --sample must be a fraction in \(0, 1\] \(got "2"\)\n/],
    [['audit', '/nowhere', '--workers=-1'], /^mixscope audit: --workers must be a non-negative integer \(got "-1"\)\n/],
    [['audit', '/nowhere', '--report', 'r.pdf'], /^mixscope audit: --report must be a file name ending in \.html or \.md \(got "r\.pdf"\)\n/],
    [['batches', '/nowhere', '--split', 'train', '--world-size', '0'], /^mixscope batches: --world-size must be a positive integer \(got "0"\)\n/],
    [['weights', '/nowhere', '--beta-corpus', 'x'], /^mixscope weights: --beta-corpus must be a number \(got "x"\)\n/],
    [['prepare', '/nowhere', '--out', '/tmp/x', '--audio-format', 'mp3'], /^mixscope prepare: --audio-format must be one of flac, ogg \(got "mp3"\)\n/],
    [['prepare', '/nowhere', '--out', '/tmp/x', '--jobs', '300'], /^mixscope prepare: --jobs must be an integer from 0 to 256 \(got "300"\)\n/],
    [['fbank', '/nowhere.flac', '--device', 'tpu'], /^mixscope fbank: --device must be one of cpu, gpu \(got "tpu"\)\n/],
    [['decode', '/nowhere.flac', '--rate', 'fast'], /^mixscope decode: --rate must be an integer number of Hz from 1 to 768000 \(got "fast"\)\n/],
    [['merge', '--out', 'x.json'], /^mixscope merge: expected the part files \(or folders of them\), got 0\n/],
  ]
  it.each(cases)('%j', async (argv, message) => {
    const run = await runCli(argv)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(run.stderr).toContain(`Run "mixscope ${argv[0]} --help" for usage.`)
  })
})
