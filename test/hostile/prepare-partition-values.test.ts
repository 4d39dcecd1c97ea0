/**
 * Partition values written by `prepare` come from the input: a corpus value with a TAB and a newline must not forge a
 * row of `language_distribution_0.tsv`, and a 300-character corpus name must not end in `ENAMETOOLONG`. Values are
 * sanitized (no `/`, `\`, `=`, control characters, leading `.`/`_`, at most 100 characters) and each change is a note.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/run-cli.ts'
import { tempDir } from './helpers.ts'

function nemo(corpora: string[]): string {
  const dir = tempDir()
  mkdirSync(join(dir, 'audio'))
  // a 1 s 16 kHz sine made by sox
  execFileSync('sox', ['-n', '-r', '16000', '-b', '16', '-c', '1', join(dir, 'audio/a.wav'), 'synth', '1', 'sine', '440'])
  writeFileSync(join(dir, 'manifest.jsonl'), corpora.map((corpus) => JSON.stringify({ audio_filepath: 'audio/a.wav', text: 'hello there', lang: 'en', split: 'train', corpus })).join('\n') + '\n')
  return dir
}

describe('prepare: partition values from the input', () => {
  test('a corpus with TAB and newline cannot add a row to the stats TSV, and the change is a note', async () => {
    const input = nemo(['good', 'evil\tfra_Latn\t999.0\nforged'])
    const out = join(tempDir(), 'out')
    const run = await runCli(['prepare', input, '--out', out, '--json'])
    expect(run.code, run.stderr).toBe(0)
    const tsv = readFileSync(join(out, 'language_distribution_0.tsv'), 'utf8')
    const lines = tsv.trimEnd().split('\n')
    expect(lines).toHaveLength(3) // header + two partitions
    for (const line of lines) expect(line.split('\t')).toHaveLength(3)
    expect(tsv).not.toMatch(/^forged/m)
    expect(readdirSync(join(out, 'version=0')).sort()).toEqual(['corpus=evil_fra_Latn_999.0_forged', 'corpus=good'])
    const strings: string[] = []
    const collect = (v: unknown): void => { if (typeof v === 'string') strings.push(v); else if (v && typeof v === 'object') Object.values(v).forEach(collect) }
    collect(JSON.parse(run.stdout))
    expect(strings.join('\n')).toMatch(/corpus "evil\\tfra_Latn\\t999\.0\\nforged" is written as "evil_fra_Latn_999\.0_forged"/)
  }, 120_000)

  test('a 300-character corpus name and names that would hide (".x" and "_x") are sanitized, not a stack trace; ".." is no corpus', async () => {
    const climb = await runCli(['prepare', nemo(['..']), '--out', join(tempDir(), 'out'), '--json'])
    expect(climb.code).toBe(2)
    expect(climb.stderr).toMatch(/1 of 1 input rows declare no corpus .*manifest\.jsonl:1.*--corpus/)
    const long = 'k'.repeat(300)
    const input = nemo([long, '.dot', '_hidden'])
    const out = join(tempDir(), 'out')
    const run = await runCli(['prepare', input, '--out', out, '--json'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toMatch(/ENAMETOOLONG|\n\s+at /)
    const folders = readdirSync(join(out, 'version=0'))
    expect(folders.every((f) => Buffer.byteLength(f) <= 255 && !/^corpus=[._]/.test(f))).toBe(true)
    expect(folders).toHaveLength(3)
  }, 120_000)
})
