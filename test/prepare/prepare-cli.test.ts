/**
 * `mixscope prepare` end to end, one generated corpus per input layout (test/prepare/make-inputs.ts), checked with
 * independent tools: `validate --deep` and `audit` of the output, DuckDB reading it with hive partitioning (schema,
 * rows, Σ audio_size against the TSV), libsndfile (python3-soundfile) decoding the FLAC, torchaudio for the
 * reference's own audio path (load → channel mean → torchaudio.functional.resample → torchaudio.save's PCM_16).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.ts'
import type { PrepareReport } from '../../src/engine/prepare/types.ts'
import { query } from '../helpers/duckdb.ts'
import { makeAudiofolder, makeCommonVoice, makeHfParquet, makeNemo } from './make-inputs.ts'
import { runPython } from './python.ts'

const base = mkdtempSync(join(tmpdir(), 'mixscope-prepare-'))
const layouts = {
  nemo: { dir: join(base, 'in', 'nemo'), good: 0 },
  commonvoice: { dir: join(base, 'in', 'cv', 'de'), good: 0 },
  audiofolder: { dir: join(base, 'in', 'audiofolder'), good: 0 },
  'hf-parquet': { dir: join(base, 'in', 'hf', 'corpus'), good: 0 },
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await main(argv, { stdout: (t) => { out += t }, stderr: (t) => { err += t } })
  return { code, out, err }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort()
}

const outOf = (name: string, suffix = '') => join(base, 'out' + suffix, name)
const reports = new Map<string, PrepareReport>()

beforeAll(async () => {
  for (const l of Object.values(layouts)) mkdirSync(l.dir, { recursive: true })
  layouts.nemo.good = makeNemo(layouts.nemo.dir)
  layouts.commonvoice.good = makeCommonVoice(layouts.commonvoice.dir)
  layouts.audiofolder.good = makeAudiofolder(layouts.audiofolder.dir)
  layouts['hf-parquet'].good = await makeHfParquet(layouts['hf-parquet'].dir)
  for (const [name, l] of Object.entries(layouts)) {
    // the worker-thread pool for one layout, in-thread for the others (two shared cores)
    const r = await cli('prepare', l.dir, '--out', outOf(name), '--corpus', name, '--json', '--jobs', name === 'nemo' ? '2' : '0')
    expect(r.code, r.err).toBe(0)
    reports.set(name, JSON.parse(r.out) as PrepareReport)
  }
}, 240_000)

describe.each(Object.keys(layouts))('prepare %s', (name) => {
  const layout = layouts[name as keyof typeof layouts]
  it('guesses the layout, writes every good row and skips the bad ones with their reason', () => {
    const report = reports.get(name)!
    expect(report.format).toBe(name)
    expect(report.rows_written).toBe(layout.good)
    const skipped = readFileSync(join(outOf(name), '_prepare_skipped.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { reason: string })
    const expected: Record<string, string[]> = {
      nemo: ['missing-audio', 'unreadable-audio', 'empty-text', 'unknown-language', 'bad-input-row'],
      commonvoice: ['missing-audio'],
      audiofolder: ['missing-audio'],
      'hf-parquet': ['empty-text'],
    }
    expect(skipped.map((s) => s.reason).sort()).toEqual(expected[name].sort())
    expect(Object.values(report.skipped).reduce((a, b) => a + b, 0)).toBe(skipped.length)
  })

  it('passes validate --deep with no errors', async () => {
    const r = await cli('validate', join(outOf(name), 'version=0'), '--deep', '--json')
    const findings = (JSON.parse(r.out) as { findings: { severity: string; kind: string }[] }).findings
    expect(findings.filter((f) => f.severity === 'error')).toEqual([])
    expect(r.code).toBe(0)
  })

  it('is read by DuckDB with hive partitioning, with the reference schema, and the TSV matches its sums', async () => {
    const glob = join(outOf(name), 'version=0', '**', '*.parquet')
    const columns = await query(`DESCRIBE SELECT * FROM read_parquet('${glob}', hive_partitioning=true)`)
    expect(Object.fromEntries(columns.map((c) => [c.column_name, c.column_type]))).toEqual({
      text: 'VARCHAR', audio_bytes: 'TINYINT[]', audio_size: 'BIGINT', corpus: 'VARCHAR', split: 'VARCHAR', language: 'VARCHAR',
      version: 'BIGINT', // the version=0 folder above, a key too
    })
    const [{ n }] = await query(`SELECT count(*) AS n FROM read_parquet('${glob}', hive_partitioning=true)`)
    expect(n).toBe(layout.good)
    const sums = await query(`SELECT corpus, language, sum(audio_size) / 3600 / 16000 AS hours FROM read_parquet('${glob}', hive_partitioning=true) GROUP BY ALL ORDER BY ALL`)
    const tsv = readFileSync(join(outOf(name), 'language_distribution_0.tsv'), 'utf8').trim().split('\n')
    expect(tsv[0]).toBe('corpus\tlanguage\thours')
    const rows = tsv.slice(1).map((l) => l.split('\t'))
    expect(rows.map(([c, l]) => `${c}/${l}`)).toEqual(sums.map((s) => `${s.corpus}/${s.language}`))
    rows.forEach(([, , h], i) => expect(Number(h)).toBeCloseTo(sums[i].hours as number, 15))
    // row groups of at most 100 rows (the reference's row_group_size)
    const groups = await query(`SELECT max(row_group_num_rows) AS m FROM parquet_metadata('${glob}')`)
    expect(groups[0].m).toBeLessThanOrEqual(100)
  })

  it('audits clean except for what the input has (splits it lacks, held-out hours)', async () => {
    const r = await cli('audit', join(outOf(name), 'version=0'), '--deep', '--json')
    const findings = (JSON.parse(r.out) as { findings: { severity: string; kind: string; message: string }[] }).findings
    const allowed = new Set(['missing-split', 'tsv-held-out-hours', 'tsv-hours-all-splits', 'single-split-language'])
    expect(findings.filter((f) => !allowed.has(f.kind)).map((f) => `${f.kind}: ${f.message}`)).toEqual([])
  })
})

describe('prepare nemo: audio', () => {
  it('maps the manifest\'s codes and splits as the reference names them', async () => {
    const folders = filesUnder(join(outOf('nemo'), 'version=0')).map((f) => f.replace(/\/part-\d+\.parquet$/, ''))
    expect([...new Set(folders)]).toEqual([
      'corpus=nemo/split=dev/language=eng_Latn', 'corpus=nemo/split=dev/language=hin_Deva',
      'corpus=nemo/split=train/language=cmn_Hans', 'corpus=nemo/split=train/language=deu_Latn', 'corpus=nemo/split=train/language=eng_Latn',
    ])
  })

  it('writes 16-bit FLAC that libsndfile decodes to the reference\'s PCM (torchaudio resample + soundfile PCM_16)', async () => {
    const glob = join(outOf('nemo'), 'version=0', '**', '*.parquet')
    const rows = await query(`SELECT text, audio_size, audio_bytes FROM read_parquet('${glob}', hive_partitioning=true)`)
    const manifest = readFileSync(join(layouts.nemo.dir, 'manifest.jsonl'), 'utf8').trim().split('\n').slice(0, layouts.nemo.good).map((l) => JSON.parse(l) as { audio_filepath: string; text: string })
    const dir = mkdtempSync(join(tmpdir(), 'mixscope-prepare-audio-'))
    const { writeFileSync } = await import('node:fs')
    const { normalizeText } = await import('../../src/engine/text/normalize.ts')
    const pairs = manifest.map((m, i) => {
      const row = rows.find((r) => r.text === normalizeText(m.text))!
      expect(row, m.text).toBeDefined()
      const items = (row.audio_bytes as { items?: number[] }).items ?? (row.audio_bytes as number[])
      writeFileSync(join(dir, `${i}.flac`), Uint8Array.from(items, (b) => b & 0xff))
      return { input: join(layouts.nemo.dir, m.audio_filepath.replace(/^\/somewhere\/else\//, '')), audioSize: row.audio_size as number }
    })
    // what mixscope meant to store: its own 16 kHz waveform through libsndfile's float → PCM_16 rule
    const { clipWaveform } = await import('../../src/engine/prepare/clip.ts')
    const { toPcm16 } = await import('../../src/engine/prepare/encode/pcm16.ts')
    for (const [i, p] of pairs.entries()) {
      const wave = await clipWaveform(new Uint8Array(readFileSync(p.input)), p.input)
      writeFileSync(join(dir, `${i}.i16`), Int16Array.from(toPcm16(wave.samples)))
    }
    const result = JSON.parse(runPython(`
import sys, json, io, numpy as np, soundfile as sf, torch, torchaudio
d, inputs = sys.argv[1], json.loads(sys.argv[2])
out = []
for i, path in enumerate(inputs):
    ours, rate = sf.read(f'{d}/{i}.flac', dtype='int16')
    meant = np.fromfile(f'{d}/{i}.i16', dtype=np.int16)
    info = sf.info(f'{d}/{i}.flac')
    wav, sr = sf.read(path, dtype='float32', always_2d=True)            # libsndfile, as fairseq2's AudioDecoder
    x = torch.from_numpy(wav).mean(dim=1, keepdim=True).reshape(1, -1)  # [frames, channels] → mean over channels
    if sr != 16000:
        x = torchaudio.functional.resample(x, sr, 16000)
    b = io.BytesIO(); sf.write(b, x[0].numpy(), 16000, format='FLAC', subtype='PCM_16'); b.seek(0)   # torchaudio.save(backend="soundfile")
    ref, _ = sf.read(b, dtype='int16')
    diff = np.abs(ours.astype(np.int32) - ref.astype(np.int32)) if len(ours) == len(ref) else None
    out.append({'exact': bool(np.array_equal(ours, meant)), 'rate': rate, 'subtype': info.subtype, 'frames': len(ours), 'ref_frames': len(ref),
                'max_diff': int(diff.max()) if diff is not None else None, 'diffs': int((diff > 0).sum()) if diff is not None else None})
print(json.dumps(out))
`, [dir, JSON.stringify(pairs.map((p) => p.input))])) as { exact: boolean; rate: number; subtype: string; frames: number; ref_frames: number; max_diff: number; diffs: number }[]
    result.forEach((r, i) => {
      expect(r.exact, `clip ${i}: libsndfile's decode of the FLAC = the PCM mixscope encoded`).toBe(true)
      expect(r.rate).toBe(16000)
      expect(r.subtype).toBe('PCM_16')
      expect(r.frames, `clip ${i}: audio_size`).toBe(pairs[i].audioSize)
      expect(r.frames, `clip ${i}: length vs torchaudio`).toBe(r.ref_frames)
      // float32 sums in another order: a sample on a rounding boundary may land one step away
      expect(r.max_diff, `clip ${i}`).toBeLessThanOrEqual(1)
      expect(r.diffs / r.frames, `clip ${i}: share of samples off by one`).toBeLessThan(0.002)
    })
  })

  it('gives the same bytes for the same input and options', async () => {
    const again = outOf('nemo', '-again')
    const r = await cli('prepare', layouts.nemo.dir, '--out', again, '--corpus', 'nemo', '--json', '--jobs', '0')
    expect(r.code).toBe(0)
    const a = filesUnder(outOf('nemo'))
    expect(filesUnder(again)).toEqual(a)
    for (const f of a) expect(readFileSync(join(again, f)).equals(readFileSync(join(outOf('nemo'), f))), f).toBe(true)
  })

  it('writes Ogg Vorbis that libsndfile decodes to audio_size samples', async () => {
    const out = outOf('nemo', '-ogg')
    const r = await cli('prepare', layouts.nemo.dir, '--out', out, '--corpus', 'nemo', '--audio-format', 'ogg', '--json', '--jobs', '0')
    expect(r.code, r.err).toBe(0)
    const glob = join(out, 'version=0', '**', '*.parquet')
    const rows = await query(`SELECT audio_size, audio_bytes FROM read_parquet('${glob}')`)
    const dir = mkdtempSync(join(tmpdir(), 'mixscope-prepare-ogg-'))
    const { writeFileSync } = await import('node:fs')
    rows.forEach((row, i) => {
      const items = (row.audio_bytes as { items?: number[] }).items ?? (row.audio_bytes as number[])
      writeFileSync(join(dir, `${i}.ogg`), Uint8Array.from(items, (b) => b & 0xff))
    })
    const info = JSON.parse(runPython(`
import sys, json, soundfile as sf
print(json.dumps([[sf.info(f'{sys.argv[1]}/{i}.ogg').subtype, sf.info(f'{sys.argv[1]}/{i}.ogg').frames, sf.info(f'{sys.argv[1]}/{i}.ogg').samplerate] for i in range(int(sys.argv[2]))]))
`, [dir, String(rows.length)])) as [string, number, number][]
    info.forEach(([subtype, frames, rate], i) => {
      expect(subtype).toBe('VORBIS')
      expect(rate).toBe(16000)
      expect(frames).toBe(rows[i].audio_size)
    })
    expect(statSync(join(out, 'language_distribution_0.tsv')).size).toBeGreaterThan(0)
  })
})

describe('prepare: usage', () => {
  it('asks for a --language decision on ambiguous codes, and takes it', async () => {
    const dir = join(base, 'in', 'mn')
    mkdirSync(join(dir, 'audio'), { recursive: true })
    const { copyFileSync, writeFileSync } = await import('node:fs')
    copyFileSync(join(layouts.nemo.dir, 'audio', 'clip-0.wav'), join(dir, 'audio', 'a.wav'))
    writeFileSync(join(dir, 'm.jsonl'), JSON.stringify({ audio_filepath: 'audio/a.wav', text: 'сайн байна уу', lang: 'mn', corpus: 'mn', split: 'train' }) + '\n')
    const refused = await cli('prepare', dir, '--out', join(base, 'out', 'mn'))
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('--language mn=mon_Cyrl')
    const decided = await cli('prepare', join(dir, 'm.jsonl'), '--out', join(base, 'out', 'mn'), '--language', 'mn=khk_Cyrl', '--jobs', '0', '--json')
    expect(decided.code, decided.err).toBe(0)
    expect(filesUnder(join(base, 'out', 'mn', 'version=0'))).toEqual(['corpus=mn/split=train/language=khk_Cyrl/part-0.parquet'])
  })

  it('refuses bad options with exit code 2', async () => {
    expect((await cli('prepare', layouts.nemo.dir)).code).toBe(2)
    expect((await cli('prepare', layouts.nemo.dir, '--out', join(base, 'x'), '--audio-format', 'mp3')).code).toBe(2)
    expect((await cli('prepare', layouts.nemo.dir, '--out', join(base, 'x'), '--input-format', 'kaldi')).code).toBe(2)
    expect((await cli('prepare', join(base, 'nowhere'), '--out', join(base, 'x'))).code).toBe(2)
  })
})
