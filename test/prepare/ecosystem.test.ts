/**
 * `prepare` on the inputs of the speech ecosystem, laid out as the projects that define them lay them out, with audio
 * written by sox and libsndfile (python3-soundfile), and the written audio compared with the reference's own audio
 * path (test/prepare/reference-audio.ts: libsndfile → channel mean → torchaudio resample → PCM_16):
 * - NeMo's an4 test manifests (NVIDIA/NeMo tests/collections/asr/decoding/conftest.py describes them: `asr/an4_val.json`
 *   with `"audio_filepath": "tests/data/asr/test/an4/wav/an440-mjgm-b.wav"`, relative to the repository root NeMo's
 *   tests run in), a `.jsonl.gz` manifest, `audio_filename`, segments (`offset` + `duration`);
 * - every raw-sample container libsndfile reads, through the whole dataprep.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { normalizeText } from '../../src/engine/text/normalize.ts'
import type { PrepareReport } from '../../src/engine/prepare/types.ts'
import { runCli } from '../helpers/run-cli.ts'
import { runPython } from './python.ts'
import { compareWithReference, type ReferenceClip } from './reference-audio.ts'

const base = mkdtempSync(join(tmpdir(), 'mixscope-ecosystem-'))

/** A tone by sox: `seconds` at `rate` Hz, `channels` channels, 16-bit. */
function tone(path: string, seconds: number, rate: number, channels = 1, freq = 440): void {
  mkdirSync(join(path, '..'), { recursive: true })
  execFileSync('sox', ['-n', '-r', String(rate), '-c', String(channels), '-b', '16', path, 'synth', String(seconds), 'sine', String(freq), 'vol', '0.5'])
}

const prepare = (...args: string[]) => runCli(['prepare', ...args, '--jobs', '0', '--json'])

/** Runs `fn` with the working directory at `dir` (NeMo resolves manifest paths from it). */
async function inDir<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const was = process.cwd()
  process.chdir(dir)
  try { return await fn() } finally { process.chdir(was) }
}

/** Every clip within one 16-bit step of the reference's own audio path, with its length. */
function expectReference(results: Awaited<ReturnType<typeof compareWithReference>>): void {
  for (const r of results) {
    expect(r.frames, `${r.text}: length`).toBe(r.refFrames)
    expect(r.maxDiff, `${r.text}: largest difference in 16-bit steps`).toBeLessThanOrEqual(1)
  }
}

describe('NeMo', () => {
  it('resolves an4-style paths relative to the working directory, as NeMo does (all rows found)', async () => {
    const repo = join(base, 'nemo-repo')
    const names = ['an440-mjgm-b', 'an441-mjgm-b', 'cen3-fjlp-b']
    const lines = names.map((n, i) => {
      tone(join(repo, 'tests', 'data', 'asr', 'test', 'an4', 'wav', `${n}.wav`), 0.4 + i * 0.1, 16000, 1, 300 + 100 * i)
      return JSON.stringify({ audio_filepath: `tests/data/asr/test/an4/wav/${n}.wav`, duration: 0.4 + i * 0.1, text: `an four clip ${['one', 'two', 'three'][i]}` })
    })
    writeFileSync(join(repo, 'tests', 'data', 'asr', 'an4_val.json'), lines.join('\n') + '\n')
    const manifest = join(repo, 'tests', 'data', 'asr', 'an4_val.json')
    const r = await inDir(repo, () => prepare(manifest, '--out', join(base, 'out-an4'), '--corpus', 'an4', '--language', 'en'))
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as PrepareReport
    expect(report.rows_written).toBe(3)
    expect(Object.values(report.skipped).reduce((a, b) => a + b, 0)).toBe(0)
    expect(report.files.map((f) => f.path)).toEqual(['version=0/corpus=an4/split=dev/language=eng_Latn/part-0.parquet']) // an4_val → dev
    // from another working directory the same manifest's paths do not exist: reported missing, not guessed
    const elsewhere = await inDir(base, () => prepare(manifest, '--out', join(base, 'out-an4-elsewhere'), '--corpus', 'an4', '--language', 'en'))
    expect(elsewhere.code).toBe(1)
    expect((JSON.parse(elsewhere.stdout) as PrepareReport).skipped['missing-audio']).toBe(3)
  })

  it('reads a gzip-compressed .jsonl.gz manifest, audio_filename, and offset + duration segments', async () => {
    const dir = join(base, 'nemo-gz')
    tone(join(dir, 'long.wav'), 3, 22050, 2, 330)
    tone(join(dir, 'short.wav'), 0.5, 8000, 1, 500)
    const rows = [
      { audio_filepath: 'long.wav', offset: 0.5, duration: 1.25, text: 'the first segment', lang: 'de', split: 'train' },
      { audio_filepath: 'long.wav', offset: 2.2, duration: 5, text: 'the last segment, cut at the end', lang: 'de', split: 'train' },
      { audio_filename: 'short.wav', duration: 0.5, text: 'a whole file', lang: 'de', split: 'train' },
    ]
    writeFileSync(join(dir, 'train_manifest.jsonl'), rows.map((x) => JSON.stringify(x)).join('\n') + '\n')
    execFileSync('gzip', [join(dir, 'train_manifest.jsonl')])
    const r = await prepare(dir, '--out', join(base, 'out-gz'), '--corpus', 'gz')
    expect(r.code, r.stderr).toBe(0)
    expect((JSON.parse(r.stdout) as PrepareReport).rows_written).toBe(3)
    const clips: ReferenceClip[] = [
      { path: join(dir, 'long.wav'), text: rows[0].text, offset: 0.5, duration: 1.25 },
      { path: join(dir, 'long.wav'), text: rows[1].text, offset: 2.2, duration: 5 },
      { path: join(dir, 'short.wav'), text: rows[2].text },
    ]
    const results = await compareWithReference(join(base, 'out-gz', 'version=0'), clips, (t) => normalizeText(t))
    expectReference(results)
    expect(results[0].frames).toBe(Math.ceil(Math.floor(1.25 * 22050) * 16000 / 22050))
  })
})

describe('every raw-sample container libsndfile reads, through the dataprep', () => {
  it('writes each within one 16-bit step of the reference\'s audio path', async () => {
    const dir = join(base, 'containers')
    mkdirSync(dir, { recursive: true })
    const kinds: [string, string, string, number][] = [
      ['a.wav', 'WAV', 'ULAW', 8000], ['b.wav', 'WAV', 'ALAW', 8000], ['c.rf64', 'RF64', 'PCM_16', 44100], ['d.w64', 'W64', 'PCM_24', 48000],
      ['e.aiff', 'AIFF', 'PCM_16', 22050], ['f.aifc', 'AIFF', 'FLOAT', 32000], ['g.caf', 'CAF', 'PCM_16', 24000], ['h.caf', 'CAF', 'ALAW', 16000],
      ['i.sph', 'NIST', 'PCM_16', 16000], ['j.sph', 'NIST', 'ULAW', 8000],
    ]
    runPython(`
import sys, json, numpy as np, soundfile as sf
d, kinds = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(3)
for name, fmt, sub, rate in kinds:
    t = np.arange(int(0.6 * rate)) / rate
    x = np.stack([0.6 * np.sin(2 * np.pi * 330 * t), 0.3 * np.sin(2 * np.pi * 1200 * t)], axis=1) + rng.normal(0, 0.02, (len(t), 2))
    sf.write(f'{d}/{name}', x, rate, format=fmt, subtype=sub)
`, [dir, JSON.stringify(kinds)])
    const texts = kinds.map(([name, , sub]) => `clip ${name.replace('.', ' ')} ${sub.toLowerCase().replace('_', ' ')}`)
    writeFileSync(join(dir, 'train.json'), kinds.map(([name], i) => JSON.stringify({ audio_filepath: name, text: texts[i], lang: 'en' })).join('\n') + '\n')
    const r = await prepare(dir, '--out', join(base, 'out-containers'), '--corpus', 'formats')
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as PrepareReport
    expect(report.rows_written).toBe(kinds.length)
    expectReference(await compareWithReference(join(base, 'out-containers', 'version=0'), kinds.map(([name], i) => ({ path: join(dir, name), text: texts[i] })), (t) => normalizeText(t)))
  })
})

describe('Hugging Face audiofolder', () => {
  it('reads metadata.parquet (written by DuckDB) and an audio_file_name column', async () => {
    const dir = join(base, 'af-parquet')
    tone(join(dir, 'train', 'clips', 'a.wav'), 0.4, 16000)
    tone(join(dir, 'test', 'b.wav'), 0.5, 44100, 2)
    const { writeParquet } = await import('../helpers/duckdb.ts')
    await writeParquet(join(dir, 'train', 'metadata.parquet'), `SELECT 'clips/a.wav' AS audio_file_name, 'The first clip.' AS sentence, 'commonvoice' AS corpus, 'de' AS locale`)
    await writeParquet(join(dir, 'test', 'metadata.parquet'), `SELECT 'b.wav' AS audio_file_name, 'The second clip.' AS sentence, 'commonvoice' AS corpus, 'de' AS locale`)
    const r = await prepare(dir, '--out', join(base, 'out-af-parquet'))
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as PrepareReport
    expect(report.format).toBe('audiofolder')
    expect(report.files.map((f) => f.path)).toEqual([
      'version=0/corpus=commonvoice/split=test/language=deu_Latn/part-0.parquet', 'version=0/corpus=commonvoice/split=train/language=deu_Latn/part-0.parquet',
    ])
    expectReference(await compareWithReference(join(base, 'out-af-parquet', 'version=0'), [
      { path: join(dir, 'train', 'clips', 'a.wav'), text: 'The first clip.' }, { path: join(dir, 'test', 'b.wav'), text: 'The second clip.' },
    ], (t) => normalizeText(t)))
  })

  it('reads FLEURS\' columns: raw_transcription (the reference\'s) over transcription, language names', async () => {
    const dir = join(base, 'fleurs')
    tone(join(dir, 'validation', '1.wav'), 0.3, 16000)
    writeFileSync(join(dir, 'validation', 'metadata.jsonl'), JSON.stringify({
      file_name: '1.wav', id: 1, raw_transcription: 'Hello, World (Gen 1:1)!', transcription: 'hello world gen one', language: 'English', corpus: 'fleurs',
    }) + '\n')
    const r = await prepare(dir, '--out', join(base, 'out-fleurs'))
    expect(r.code, r.stderr).toBe(0)
    const { query } = await import('../helpers/duckdb.ts')
    const rows = await query(`SELECT text, split, language FROM read_parquet('${join(base, 'out-fleurs')}/version=0/**/*.parquet', hive_partitioning=true)`)
    expect(rows).toEqual([{ text: normalizeText('Hello, World (Gen 1:1)!'), split: 'dev', language: 'eng_Latn' }])
    expect(rows[0].text).toBe('hello world')
  })
})

describe('Lhotse', () => {
  const fixtures = join(import.meta.dirname, '..', 'fixtures', 'lhotse')

  it('reads Lhotse\'s own ljspeech cuts.json (paths from its repository root), language names mapped', async () => {
    // Lhotse's tests run in its repository root: test/fixtures/ljspeech/{cuts.json, storage/*.wav}
    const repo = join(base, 'lhotse-repo')
    const { cpSync } = await import('node:fs')
    cpSync(join(fixtures, 'ljspeech'), join(repo, 'test', 'fixtures', 'ljspeech'), { recursive: true })
    const cuts = join(repo, 'test', 'fixtures', 'ljspeech', 'cuts.json')
    const r = await inDir(repo, () => prepare(cuts, '--out', join(base, 'out-lj'), '--corpus', 'ljspeech', '--split', 'train', '--input-format', 'lhotse'))
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as PrepareReport
    expect(report.rows_written).toBe(2)
    expect(report.languages.map((l) => [l.input, l.output])).toEqual([['English', 'eng_Latn']])
    const storage = join(repo, 'test', 'fixtures', 'ljspeech', 'storage')
    expectReference(await compareWithReference(join(base, 'out-lj', 'version=0'), [
      { path: join(storage, 'LJ002-0020.wav'), text: 'IN EIGHTEEN THIRTEEN' }, { path: join(storage, 'LJ002-0035.wav'), text: 'EIGHT THE PRESS YARD' },
    ], (t) => normalizeText(t)))
  })

  it('pairs recordings.jsonl.gz with supervisions.jsonl.gz, and says why sox-command sources are not read', async () => {
    const r = await prepare(join(fixtures, 'mini_librispeech'), '--out', join(base, 'out-mini'), '--corpus', 'mini', '--split', 'train', '--language', 'en', '--dry-run')
    expect(r.code, r.stderr).toBe(0)
    const plan = (JSON.parse(r.stdout) as { plan: { format: string; input_rows: number; skipped: Record<string, number>; skipped_rows: { message: string }[] } }).plan
    expect(plan.format).toBe('lhotse')
    expect(plan.input_rows).toBe(38)
    expect(plan.skipped['bad-input-row']).toBe(38)
    expect(plan.skipped_rows[0].message).toMatch(/^supervisions\.jsonl\.gz:1: recording lbi-1272-135031-0000 has a "command" source: only "file" sources are read$/)
  })

  it('writes each supervision\'s stretch of its recording (recordings + supervisions with file sources)', async () => {
    const dir = join(base, 'lhotse-sups')
    tone(join(dir, 'audio', 'rec1.flac'), 2, 16000, 1, 250)
    tone(join(dir, 'audio', 'rec2.wav'), 1.5, 48000, 2, 700)
    const recs = [
      { id: 'rec1', sources: [{ type: 'file', channels: [0], source: 'audio/rec1.flac' }], sampling_rate: 16000, num_samples: 32000, duration: 2 },
      { id: 'rec2', sources: [{ type: 'file', channels: [0, 1], source: 'audio/rec2.wav' }], sampling_rate: 48000, num_samples: 72000, duration: 1.5 },
    ]
    const sups = [
      { id: 's1', recording_id: 'rec1', start: 0.25, duration: 0.8, channel: 0, text: 'first half', language: 'de', custom: { corpus: 'mine' } },
      { id: 's2', recording_id: 'rec1', start: 1.1, duration: 0.9, channel: 0, text: 'second half', language: 'de', custom: { corpus: 'mine' } },
      { id: 's3', recording_id: 'rec2', start: 0, duration: 1.5, channel: 0, text: 'all of it', language: 'de', custom: { corpus: 'mine' } },
      { id: 's4', recording_id: 'nowhere', start: 0, duration: 1, channel: 0, text: 'lost', language: 'de', custom: { corpus: 'mine' } },
    ]
    writeFileSync(join(dir, 'mine_recordings_train.jsonl'), recs.map((x) => JSON.stringify(x)).join('\n') + '\n')
    writeFileSync(join(dir, 'mine_supervisions_train.jsonl'), sups.map((x) => JSON.stringify(x)).join('\n') + '\n')
    execFileSync('gzip', [join(dir, 'mine_recordings_train.jsonl'), join(dir, 'mine_supervisions_train.jsonl')])
    const r = await prepare(dir, '--out', join(base, 'out-sups'))
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as PrepareReport
    expect(report.format).toBe('lhotse')
    expect(report.files.map((f) => f.path)).toEqual(['version=0/corpus=mine/split=train/language=deu_Latn/part-0.parquet'])
    expect(report.rows_written).toBe(3)
    expect(report.skipped['bad-input-row']).toBe(1)
    expectReference(await compareWithReference(join(base, 'out-sups', 'version=0'), [
      { path: join(dir, 'audio', 'rec1.flac'), text: 'first half', offset: 0.25, duration: 0.8 },
      { path: join(dir, 'audio', 'rec1.flac'), text: 'second half', offset: 1.1, duration: 0.9 },
      { path: join(dir, 'audio', 'rec2.wav'), text: 'all of it' },
    ], (t) => normalizeText(t)))
  })
})

describe('webdataset', () => {
  it('groups tar members into samples by key (GNU tar, pax and GNU long names), audio + txt or json', async () => {
    const dir = join(base, 'wds')
    const src = join(dir, 'src')
    const long = `${'very-long-folder-name-'.repeat(6)}x/utt-3`
    tone(join(src, 'utt-1.flac'), 0.4, 16000, 1, 300)
    writeFileSync(join(src, 'utt-1.txt'), 'Bonjour, le monde !\n')
    tone(join(src, 'utt-2.wav'), 0.5, 22050, 2, 500)
    writeFileSync(join(src, 'utt-2.json'), JSON.stringify({ text: 'Deuxième phrase.', language: 'fr' }))
    tone(join(src, `${long}.wav`), 0.3, 8000, 1, 800)
    writeFileSync(join(src, `${long}.txt`), 'Troisième.')
    writeFileSync(join(src, 'utt-4.txt'), 'no audio here')
    const members = ['utt-1.flac', 'utt-1.txt', 'utt-2.wav', 'utt-2.json', `${long}.wav`, `${long}.txt`, 'utt-4.txt']
    execFileSync('tar', ['--format=gnu', '-cf', join(dir, 'train-000000.tar'), '-C', src, ...members])
    execFileSync('tar', ['--format=pax', '-cf', join(dir, 'dev-000000.tar'), '-C', src, 'utt-2.wav', 'utt-2.json', `${long}.wav`, `${long}.txt`])
    const { rmSync } = await import('node:fs')
    rmSync(src, { recursive: true })
    writeFileSync(join(dir, 'test-000000.tar'), 'not a tar file, but one bad shard loses only itself'.repeat(20))
    const r = await prepare(dir, '--out', join(base, 'out-wds'), '--corpus', 'wds', '--language', 'fr')
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as PrepareReport
    expect(report.format).toBe('webdataset')
    expect(report.rows_written).toBe(5)
    expect(report.skipped['missing-audio']).toBe(1) // utt-4: a transcript without audio
    expect(report.notes).toContain('webdataset: test-000000.tar: not a tar file (bad header checksum at byte 0); its samples are not read')
    expect(report.files.map((f) => [f.path, f.rows])).toEqual([
      ['version=0/corpus=wds/split=dev/language=fra_Latn/part-0.parquet', 2], ['version=0/corpus=wds/split=train/language=fra_Latn/part-0.parquet', 3],
    ])
    // the members' bytes, as tar extracts them, against the reference's audio path
    const out = join(dir, 'x')
    mkdirSync(out)
    execFileSync('tar', ['-xf', join(dir, 'train-000000.tar'), '-C', out])
    expectReference(await compareWithReference(join(base, 'out-wds', 'version=0', 'corpus=wds', 'split=train'), [
      { path: join(out, 'utt-1.flac'), text: 'Bonjour, le monde !' }, { path: join(out, 'utt-2.wav'), text: 'Deuxième phrase.' }, { path: join(out, `${long}.wav`), text: 'Troisième.' },
    ], (t) => normalizeText(t)))
  })
})

describe('NeMo tarred', () => {
  it('reads tarred_audio_manifest.json + audio_N.tar as NeMo\'s converter writes them (shard_id, -sub names, offsets)', async () => {
    const dir = join(base, 'nemo-tarred')
    const src = join(base, 'nemo-tarred-src')
    tone(join(src, 'a.wav'), 0.6, 16000, 1, 300)
    tone(join(src, 'b.wav'), 2, 24000, 1, 600)
    // what convert_to_tarred_audio_dataset.py's _create_shard does: tarfile.open(mode='w'), tar.add(arcname=squashed name)
    runPython(`
import sys, tarfile, json
src, d = sys.argv[1], sys.argv[2]
with tarfile.open(f'{d}/audio_0.tar', mode='w', dereference=True) as t: t.add(f'{src}/a.wav', arcname='a.wav')
with tarfile.open(f'{d}/audio_1.tar', mode='w', dereference=True) as t: t.add(f'{src}/b.wav', arcname='b.wav')
rows = [
  {'audio_filepath': 'a.wav', 'duration': 0.6, 'text': 'clip a', 'shard_id': 0},
  {'audio_filepath': 'b.wav', 'duration': 0.5, 'offset': 0.75, 'text': 'a piece of b', 'shard_id': 1},
  {'audio_filepath': 'b-sub1.wav', 'duration': 0.4, 'offset': 1.5, 'text': 'another piece of b', 'shard_id': 1},
  {'audio_filepath': 'c.wav', 'duration': 1.0, 'text': 'not in the tar', 'shard_id': 0},
]
open(f'{d}/tarred_audio_manifest.json', 'w').write(''.join(json.dumps(r) + '\\n' for r in rows))
`, [src, (mkdirSync(dir, { recursive: true }), dir)])
    const r = await prepare(dir, '--out', join(base, 'out-nemo-tarred'), '--corpus', 'nt', '--split', 'train', '--language', 'en')
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as PrepareReport
    expect(report.format).toBe('nemo-tarred')
    expect(report.rows_written).toBe(3)
    expect(report.skipped['missing-audio']).toBe(1)
    expectReference(await compareWithReference(join(base, 'out-nemo-tarred', 'version=0'), [
      { path: join(src, 'a.wav'), text: 'clip a' },
      { path: join(src, 'b.wav'), text: 'a piece of b', offset: 0.75, duration: 0.5 },
      { path: join(src, 'b.wav'), text: 'another piece of b', offset: 1.5, duration: 0.4 },
    ], (t) => normalizeText(t)))
  })
})
