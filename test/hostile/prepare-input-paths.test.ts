/**
 * Audio paths in a corpus' manifests come from the data: `prepare` reads audio only under the input folder. A path
 * climbing out of it (`..`, in `/` or `\` form), an absolute path or `file:` URL with no tail in the folder, or a URL
 * is skipped as `audio-outside-input` naming the row and the path; `%2e%2e` is a file name (never percent-decoded).
 * A real WAV waits beside the input folder at every one of those paths: had any been read, a row would be written.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/run-cli.ts'
import { tempDir } from './helpers.ts'

const sine = (path: string, hz: number) =>
  execFileSync('sox', ['-n', '-r', '16000', '-b', '16', '-c', '1', path, 'synth', '1', 'sine', String(hz)])

interface Skipped { where: string; reason: string; message: string }

/** A folder `<tmp>/in` with `in/audio/a.wav`, and `<tmp>/outside.wav` beside it. */
function layout(): { top: string; input: string; outside: string } {
  const top = tempDir()
  const input = join(top, 'in')
  mkdirSync(join(input, 'audio'), { recursive: true })
  sine(join(input, 'audio/a.wav'), 440)
  sine(join(top, 'outside.wav'), 330)
  return { top, input, outside: join(top, 'outside.wav') }
}

async function prepare(input: string, extra: string[] = []) {
  const out = join(tempDir(), 'out')
  const run = await runCli(['prepare', input, '--out', out, '--json', ...extra])
  expect(run.code, run.stderr).toBe(0)
  const report = JSON.parse(run.stdout) as { rows_written: number; skipped: Record<string, number> }
  const skipped = readFileSync(join(out, '_prepare_skipped.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Skipped)
  return { report, skipped }
}

describe('prepare: audio paths from the input stay under the input folder', () => {
  test('NeMo manifest: .., backslashes, file:, absolute and URL paths are refused by name; only the inside row is written', async () => {
    const { input, outside } = layout()
    const paths = ['audio/a.wav', '../outside.wav', '..\\outside.wav', 'audio/../../outside.wav', `file://${outside}`, outside,
      'http://127.0.0.1:9/outside.wav', '%2e%2e/outside.wav']
    writeFileSync(join(input, 'manifest.jsonl'), paths.map((audio_filepath) =>
      JSON.stringify({ audio_filepath, text: 'hello there', lang: 'en', split: 'train', corpus: 'c' }) + '\n').join(''))
    const { report, skipped } = await prepare(input)
    expect(report.rows_written).toBe(1)
    expect(report.skipped['audio-outside-input']).toBe(6)
    expect(report.skipped['missing-audio']).toBe(1)
    const byLine = new Map(skipped.map((s) => [s.where, s]))
    for (const line of [2, 3, 4]) expect(byLine.get(`manifest.jsonl:${line}`)!.message).toMatch(/"\.\.\/outside\.wav" leads outside the input folder/)
    expect(byLine.get('manifest.jsonl:5')!.message).toContain(`"file://${outside}" is not in the input folder`)
    expect(byLine.get('manifest.jsonl:6')!.message).toContain(`"${outside}" is not in the input folder`)
    expect(byLine.get('manifest.jsonl:7')!.message).toMatch(/"http:\/\/127\.0\.0\.1:9\/outside\.wav" is a URL/)
    expect(byLine.get('manifest.jsonl:8')).toMatchObject({ reason: 'missing-audio', message: expect.stringContaining('%2e%2e/outside.wav not found') })
  }, 120_000)

  test('Common Voice: a clip path climbing out of clips/ and the folder is refused', async () => {
    const { input } = layout()
    mkdirSync(join(input, 'clips'))
    sine(join(input, 'clips/x.wav'), 500)
    writeFileSync(join(input, 'train.tsv'), 'client_id\tpath\tsentence\tlocale\n' +
      'a\tx.wav\thello there\ten\nb\t../../outside.wav\thello there\ten\nc\t../audio/a.wav\thello there\ten\n')
    const { report, skipped } = await prepare(input, ['--input-format', 'commonvoice', '--corpus', 'cv'])
    expect(report.rows_written).toBe(2) // clips/x.wav, and ../audio/a.wav which stays inside the folder
    expect(skipped).toHaveLength(1)
    expect(skipped[0]).toMatchObject({ where: 'train.tsv:3', reason: 'audio-outside-input' })
    expect(skipped[0].message).toMatch(/"\.\.\/outside\.wav" leads outside the input folder/)
  }, 120_000)

  test('audiofolder metadata.csv: a file_name climbing out is refused', async () => {
    const { input } = layout()
    mkdirSync(join(input, 'train'))
    sine(join(input, 'train/y.wav'), 600)
    writeFileSync(join(input, 'train/metadata.csv'), 'file_name,transcription,language\ny.wav,hello there,en\n../../outside.wav,hello there,en\n')
    const { report, skipped } = await prepare(input, ['--input-format', 'audiofolder', '--corpus', 'af'])
    expect(report.rows_written).toBe(1)
    expect(skipped.map((s) => s.reason)).toEqual(['audio-outside-input'])
    expect(skipped[0].message).toMatch(/train\/metadata\.csv:3.*"\.\.\/outside\.wav" leads outside/)
  }, 120_000)
})
