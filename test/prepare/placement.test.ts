/**
 * Where prepared data lands, on the layouts real corpora have: audiofolder `training/` + `testing/` folders (the
 * layout of `datasets`' own audiofolder tests), MLS's `9_hours`/`1_hours` parquet splits beside `train`, rows that
 * declare no corpus, two inputs prepared into one output (the TSV is the dataset's, checked with DuckDB over every
 * file), a second run into a locked output, and an hf-parquet cell without bytes. Audio by sox, parquet by DuckDB.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFsSink } from '../../src/engine/node/fs-sink.ts'
import type { PrepareReport } from '../../src/engine/prepare/types.ts'
import { query, writeParquet } from '../helpers/duckdb.ts'
import { runCli } from '../helpers/run-cli.ts'

const base = mkdtempSync(join(tmpdir(), 'mixscope-placement-'))

/** A short tone by sox (`seconds` at `rate` Hz, 16-bit). */
function tone(path: string, seconds = 0.3, rate = 16000, freq = 440): void {
  mkdirSync(join(path, '..'), { recursive: true })
  execFileSync('sox', ['-n', '-r', String(rate), '-c', '1', '-b', '16', path, 'synth', String(seconds), 'sine', String(freq), 'vol', '0.5'])
}

const prepare = (...args: string[]) => runCli(['prepare', ...args, '--jobs', '0'])
const folders = (out: string) => execFileSync('find', [join(out, 'version=0'), '-name', '*.parquet'], { encoding: 'utf8' })
  .trim().split('\n').filter(Boolean).map((p) => p.slice(join(out, 'version=0').length + 1).replace(/\/part-\d+\.parquet$/, '')).sort()
const skippedOf = (out: string) => readFileSync(join(out, '_prepare_skipped.jsonl'), 'utf8').trim().split('\n').filter(Boolean)
  .map((l) => JSON.parse(l) as { reason: string; message: string })

describe('splits', () => {
  it('reads audiofolder training/ and testing/ as train and test (the test clip never lands in train)', async () => {
    const dir = join(base, 'af')
    for (const [split, name] of [['training', 'a'], ['testing', 'b']]) {
      tone(join(dir, split, `${name}.wav`))
      writeFileSync(join(dir, split, 'metadata.csv'), `file_name,transcription\n${name}.wav,clip ${name}\n`)
    }
    const out = join(base, 'out-af')
    const r = await prepare(dir, '--out', out, '--corpus', 'af', '--language', 'en')
    expect(r.code, r.stderr).toBe(0)
    expect(folders(out)).toEqual(['corpus=af/split=test/language=eng_Latn', 'corpus=af/split=train/language=eng_Latn'])
    const rows = await query(`SELECT split, text FROM read_parquet('${out}/version=0/**/*.parquet', hive_partitioning=true) ORDER BY split`)
    expect(rows).toEqual([{ split: 'test', text: 'clip b' }, { split: 'train', text: 'clip a' }])
  })

  it('skips MLS\'s 9_hours and 1_hours splits (subsets of train) unless --split-map says where they go', async () => {
    const dir = join(base, 'mls', 'german')
    const clip = join(base, 'mls-audio', 'u1.wav')
    tone(clip)
    const q = (v: string) => `'${v.replaceAll("'", "''")}'`
    // the same utterance in train, 9_hours and 1_hours, as MLS ships its limited-supervision subsets
    for (const split of ['train', '9_hours', '1_hours', 'dev']) {
      await writeParquet(join(dir, `${split}-00000-of-00001.parquet`),
        `SELECT {'bytes': content, 'path': 'u1.wav'} AS audio, 'ein satz' AS transcript, 'mls' AS corpus FROM read_blob(${q(clip)})`)
    }
    const out = join(base, 'out-mls')
    const r = await prepare(dir, '--out', out, '--language', 'german', '--json')
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as PrepareReport
    expect(folders(out)).toEqual(['corpus=mls/split=dev/language=deu_Latn', 'corpus=mls/split=train/language=deu_Latn'])
    expect(report.rows_written).toBe(2) // the utterance once in train, once in dev
    expect(report.skipped['unknown-split']).toBe(2)
    expect(report.notes.join('\n')).toContain('--split-map 9_hours=train')
    const skipped = skippedOf(out)
    expect(skipped.map((s) => s.message).sort()).toEqual([
      '1_hours-00000-of-00001.parquet:0: split "1_hours" is not train, dev or test; pass --split-map 1_hours=train (or dev, test) to write it',
      '9_hours-00000-of-00001.parquet:0: split "9_hours" is not train, dev or test; pass --split-map 9_hours=train (or dev, test) to write it',
    ])
    const mapped = await prepare(dir, '--out', join(base, 'out-mls-mapped'), '--language', 'german', '--split-map', '9_hours=test', '--json')
    expect(mapped.code, mapped.stderr).toBe(0)
    expect(folders(join(base, 'out-mls-mapped'))).toEqual(['corpus=mls/split=dev/language=deu_Latn', 'corpus=mls/split=test/language=deu_Latn', 'corpus=mls/split=train/language=deu_Latn'])
  })

  it('skips rows that name no split, and refuses a --split or --split-map that is not train, dev or test', async () => {
    const dir = join(base, 'nosplit')
    tone(join(dir, 'a.wav'))
    writeFileSync(join(dir, 'manifest.jsonl'), JSON.stringify({ audio_filepath: 'a.wav', text: 'hello', lang: 'en' }) + '\n')
    const r = await prepare(dir, '--out', join(base, 'out-nosplit'), '--corpus', 'c', '--json')
    expect(r.code).toBe(1) // nothing written
    expect(skippedOf(join(base, 'out-nosplit')).map((s) => s.message)).toEqual(['manifest.jsonl:1: the input names no split for this row; pass --split train (or dev, test)'])
    const bad = await prepare(dir, '--out', join(base, 'out-nosplit'), '--corpus', 'c', '--split', '9_hours')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--split "9_hours" is not train, dev or test')
    expect((await prepare(dir, '--out', join(base, 'x'), '--corpus', 'c', '--split-map', '9_hours=extra')).code).toBe(2)
    expect((await prepare(dir, '--out', join(base, 'out-nosplit'), '--corpus', 'c', '--split', 'training')).code).toBe(0)
  })
})

describe('corpus', () => {
  it('is required when the input declares none, naming --corpus (exit 2)', async () => {
    const dir = join(base, 'nocorpus')
    tone(join(dir, 'a.wav'))
    writeFileSync(join(dir, 'train.jsonl'), JSON.stringify({ audio_filepath: 'a.wav', text: 'hello', lang: 'en' }) + '\n')
    const r = await prepare(dir, '--out', join(base, 'out-nocorpus'))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('1 of 1 input rows declare no corpus')
    expect(r.stderr).toContain('pass --corpus NAME')
  })
})

describe('one dataset from several inputs', () => {
  it('writes the stats TSV over everything under version=<V>, as the reference computes it', async () => {
    const out = join(base, 'out-many')
    for (const [locale, corpus, seconds] of [['en', 'cv', 0.5], ['zh-HK', 'cv', 0.7], ['sv-SE', 'other', 0.9]] as const) {
      const dir = join(base, 'many', locale)
      tone(join(dir, 'clips', 'x.wav'), seconds, 48000)
      writeFileSync(join(dir, 'train.tsv'), `client_id\tpath\tsentence\tlocale\nc\tx.wav\thello there\t${locale}\n`)
      const r = await prepare(dir, '--out', out, '--corpus', corpus)
      expect(r.code, r.stderr).toBe(0)
    }
    expect(folders(out)).toEqual(['corpus=cv/split=train/language=eng_Latn', 'corpus=cv/split=train/language=yue_Hant', 'corpus=other/split=train/language=swe_Latn'])
    const tsv = readFileSync(join(out, 'language_distribution_0.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'))
    const sums = await query(`SELECT corpus, language, sum(audio_size) / 3600 / 16000 AS hours FROM read_parquet('${out}/version=0/**/*.parquet', hive_partitioning=true) GROUP BY ALL ORDER BY ALL`)
    expect(tsv.map(([c, l]) => `${c}/${l}`)).toEqual(sums.map((s) => `${s.corpus}/${s.language}`))
    tsv.forEach(([, , h], i) => expect(Number(h)).toBeCloseTo(sums[i].hours as number, 15))
    expect(tsv.length).toBe(3)
  })

  it('refuses a second run into an output a live run holds, and takes over a lock its dead run left', async () => {
    const out = join(base, 'out-locked')
    const dir = join(base, 'nosplit')
    const release = await createFsSink(out).lock('the test')
    const r = await prepare(dir, '--out', out, '--corpus', 'c', '--split', 'train')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(new RegExp(`is being written by another prepare run \\(pid ${process.pid} on .*\\); wait for it to finish, or remove .*_prepare\\.lock if that run is gone`))
    await release()
    // a lock whose process is gone
    const dead = execFileSync('sh', ['-c', 'sh -c "echo $$" && true'], { encoding: 'utf8' }).trim()
    const { hostname } = await import('node:os')
    writeFileSync(join(out, '_prepare.lock'), JSON.stringify({ pid: Number(dead), host: hostname(), since: 'then', owner: 'gone' }))
    const again = await prepare(dir, '--out', out, '--corpus', 'c', '--split', 'train')
    expect(again.code, again.stderr).toBe(0)
    expect(() => readFileSync(join(out, '_prepare.lock'))).toThrow() // released
  })
})

describe('missing vs unreadable', () => {
  it('reports an hf-parquet cell without bytes as missing when its path is not there, and reads the path when it is', async () => {
    const dir = join(base, 'hf-null')
    tone(join(dir, 'data', 'here.wav'))
    writeFileSync(join(dir, 'data', 'noise.wav'), 'RIFF not audio')
    await writeParquet(join(dir, 'data', 'train-00000-of-00001.parquet'), `
      SELECT {'bytes': NULL::BLOB, 'path': 'gone.wav'} AS audio, 'one' AS text, 'c' AS corpus, 'en' AS language
      UNION ALL SELECT {'bytes': NULL::BLOB, 'path': 'here.wav'}, 'two', 'c', 'en'
      UNION ALL SELECT {'bytes': NULL::BLOB, 'path': 'noise.wav'}, 'three', 'c', 'en'`)
    const out = join(base, 'out-hf-null')
    const r = await prepare(dir, '--out', out, '--json')
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as PrepareReport
    expect(report.rows_written).toBe(1)
    expect(report.skipped['missing-audio']).toBe(1)
    expect(report.skipped['unreadable-audio']).toBe(1)
    expect(skippedOf(out).find((s) => s.reason === 'missing-audio')!.message).toContain('its path "gone.wav" is not a file of the input folder')
  })
})
