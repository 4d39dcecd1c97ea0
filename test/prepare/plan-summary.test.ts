/**
 * The dataprep plan's summary is one engine function (`preparePlanSummary`): `prepare --dry-run --json` prints it and
 * the Prepare view's `prepare-scan` returns it (its skipped rows capped at 200), on the same input.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { PrepareScanResult } from '../../src/engine/worker/protocol/prepare.ts'

/** A NeMo manifest: two good rows (one with a duration), one missing file, one empty transcript, one bad line. */
function makeInput(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mixscope-plan-summary-'))
  mkdirSync(join(dir, 'audio'))
  for (const name of ['a.wav', 'b.wav', 'c.wav']) writeFileSync(join(dir, 'audio', name), 'RIFF not decoded by the plan')
  writeFileSync(join(dir, 'manifest.jsonl'), [
    { audio_filepath: 'audio/a.wav', text: 'hello there', duration: 1.5, lang: 'en', split: 'train' },
    { audio_filepath: 'audio/b.wav', text: 'guten tag', lang: 'de', split: 'validation' },
    { audio_filepath: 'audio/gone.wav', text: 'missing file', lang: 'en' },
    { audio_filepath: 'audio/c.wav', text: '!!!', lang: 'en' },
  ].map((r) => JSON.stringify(r)).join('\n') + '\n{"audio_filepath": broken\n')
  return dir
}

describe('prepare plan summary', () => {
  it('prepare --dry-run --json and the worker\'s prepare-scan give the same summary', async () => {
    const dir = makeInput()
    let out = ''
    const code = await main(['prepare', dir, '--dry-run', '--json', '--corpus', 'demo'], { stdout: (t) => { out += t }, stderr: () => {} })
    expect(code).toBe(0)
    const cli = (JSON.parse(out) as { plan: Record<string, unknown> }).plan

    const source = await createFsSource(dir)
    const handle = createRequestHandler({ makeSource: () => source })
    const { job, ...scan } = await handle({ kind: 'prepare-scan', id: 1, source: { type: 'url', url: 'unused' }, options: { corpus: 'demo' } }, {}) as PrepareScanResult
    expect(job).toBeGreaterThan(0)
    expect(JSON.parse(JSON.stringify(scan))).toEqual(cli)

    // what the summary holds: partitions with rows and declared seconds, every reason counted, the skipped rows
    expect(scan.input_rows).toBe(5)
    expect(scan.partitions.map((p) => [p.split, p.language, p.rows, p.declared_seconds])).toEqual(expect.arrayContaining([
      ['train', 'eng_Latn', 1, 1.5], ['dev', 'deu_Latn', 1, null],
    ]))
    expect(Object.values(scan.skipped).reduce((a, b) => a + b, 0)).toBe(3)
    expect(scan.skipped_rows.map((s) => s.reason).sort()).toEqual(Object.entries(scan.skipped).flatMap(([r, n]) => Array<string>(n).fill(r)).sort())
  })
})
