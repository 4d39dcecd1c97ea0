/** Input helpers: the CSV parser against Python's csv module, TSV without quoting, split names, audio paths. */
import { describe, expect, it } from 'vitest'
import { parseCsv, parseTsv } from '../../src/engine/prepare/inputs/delimited.ts'
import { hfSplit, outsideInput, recognizeSplit, resolveAudioPath, splitFromPath, type InputFiles } from '../../src/engine/prepare/inputs/input-files.ts'
import { runPython } from './python.ts'

describe('parseCsv', () => {
  it('reads what Python\'s csv module reads (quotes, commas, doubled quotes, newlines in fields, CRLF)', () => {
    const text = 'file_name,transcription,language\r\na.wav,"hello, world",en\r\nb.wav,"she said ""hi""",en\nc.wav,"two\nlines",de\nd.wav,plain,fr\n'
    const expected = JSON.parse(runPython('import sys, csv, io, json; print(json.dumps(list(csv.DictReader(io.StringIO(sys.stdin.read(), newline="")))))', [], text)) as Record<string, string>[]
    expect(parseCsv(text).rows.map((r) => r.cells)).toEqual(expected)
  })
})

describe('parseTsv', () => {
  it('keeps quotes as text (Common Voice writes no quoting)', () => {
    const t = parseTsv('path\tsentence\na.mp3\tEin "Zitat" hier\n')
    expect(t.rows[0].cells).toEqual({ path: 'a.mp3', sentence: 'Ein "Zitat" hier' })
    expect(t.rows[0].line).toBe(2)
  })
})

describe('splits and paths', () => {
  it('reads the split from folder and file names, validation → dev', () => {
    expect(splitFromPath('data/train-00000-of-00004.parquet')).toBe('train')
    expect(splitFromPath('validation/metadata.csv')).toBe('dev')
    expect(splitFromPath('dev_manifest.json')).toBe('dev')
    expect(splitFromPath('test.tsv')).toBe('test')
    expect(splitFromPath('audio/clips.jsonl')).toBeNull()
    expect(splitFromPath('training/x.json')).toBe('train') // datasets' keyword list
    expect(splitFromPath('testing/metadata.csv')).toBe('test')
    expect(splitFromPath('an4_val.json')).toBe('dev')
    expect(splitFromPath('eval_clean/metadata.csv')).toBe('dev')
    expect(splitFromPath('contest/x.json')).toBeNull() // a keyword must stand between delimiters
    expect(splitFromPath('german/9_hours-00000-of-00001.parquet')).toEqual({ name: '9_hours' }) // MLS
    expect(splitFromPath('german/train-00000-of-00010.parquet')).toBe('train')
  })

  it('recognizes only the usual split names', () => {
    expect(['train', 'Training', 'dev', 'validation', 'valid', 'val', 'eval', 'evaluation', 'development', 'test', 'testing'].map(recognizeSplit))
      .toEqual(['train', 'train', 'dev', 'dev', 'dev', 'dev', 'dev', 'dev', 'dev', 'test', 'test'])
    expect(recognizeSplit('9_hours')).toBeNull()
    expect(recognizeSplit('other')).toBeNull()
  })

  it('decides a Hugging Face data file\'s split as datasets does, never train for a named other split', () => {
    expect(hfSplit('metadata.csv', ['metadata.csv'])).toBe('train') // nothing names a split: datasets' train
    expect(hfSplit('training/metadata.csv', ['training/metadata.csv', 'testing/metadata.csv'])).toBe('train')
    expect(hfSplit('testing/metadata.csv', ['training/metadata.csv', 'testing/metadata.csv'])).toBe('test')
    const mls = ['german/1_hours-00000-of-00001.parquet', 'german/9_hours-00000-of-00001.parquet', 'german/train-00000-of-00001.parquet']
    expect(mls.map((p) => hfSplit(p, mls))).toEqual(['1_hours', '9_hours', 'train'])
    expect(hfSplit('extra/metadata.csv', ['train/metadata.csv', 'extra/metadata.csv'])).toBe('extra')
  })

  it('resolves relative paths against the manifest and absolute ones by their tail in the folder', () => {
    const input = { sizes: new Map([['wavs/a.wav', 1], ['corpus/wavs/b.wav', 1]]) } as unknown as InputFiles
    expect(resolveAudioPath(input, 'corpus', 'wavs/b.wav')).toBe('corpus/wavs/b.wav')
    expect(resolveAudioPath(input, 'corpus', '../wavs/a.wav')).toBe('wavs/a.wav')
    expect(resolveAudioPath(input, '', '/mnt/data/corpus/wavs/b.wav')).toBe('corpus/wavs/b.wav')
    expect(resolveAudioPath(input, '', 'C:\\data\\wavs\\a.wav')).toBe('wavs/a.wav')
    expect(resolveAudioPath(input, '', '/nowhere/c.wav')).toBe('/nowhere/c.wav') // skipped by the plan: outsideInput
  })

  it('keeps what leaves the folder recognizable, and outsideInput names why', () => {
    const input = { sizes: new Map([['wavs/a.wav', 1]]) } as unknown as InputFiles
    const cases: [string, string, string, RegExp | null][] = [
      ['corpus', '../../x.wav', '../x.wav', /leads outside/],
      ['', '..\\..\\x.wav', '../../x.wav', /leads outside/],
      ['a', 'b/../../../x.wav', '../x.wav', /leads outside/],
      ['', 'file:///etc/passwd', 'file:///etc/passwd', /not in the input folder/],
      ['', 'file:///mnt/wavs/a.wav', 'wavs/a.wav', null],
      ['', 'https://evil.example/x.wav', 'https://evil.example/x.wav', /is a URL/],
      ['', 's3://bucket/x.wav', 's3://bucket/x.wav', /is a URL/],
      ['', '%2e%2e/x.wav', '%2e%2e/x.wav', null], // a file name: not decoded, reported missing
      ['', 'C:\\other\\x.wav', 'C:/other/x.wav', /not in the input folder/],
    ]
    for (const [base, raw, resolved, why] of cases) {
      const path = resolveAudioPath(input, base, raw)
      expect(path, raw).toBe(resolved)
      if (why) expect(outsideInput(path), raw).toMatch(why)
      else expect(outsideInput(path), raw).toBeNull()
    }
  })
})

describe('audiofolder file columns', () => {
  it('takes file_name, else the one *_file_name column (audio_file_name among several), as datasets does', async () => {
    const { fileNameColumn } = await import('../../src/engine/prepare/inputs/audiofolder.ts')
    expect(fileNameColumn('m.csv', ['file_name', 'text'])).toBe('file_name')
    expect(fileNameColumn('m.csv', ['speech_file_name', 'text'])).toBe('speech_file_name')
    expect(fileNameColumn('m.csv', ['noise_file_name', 'audio_file_name'])).toBe('audio_file_name')
    expect(() => fileNameColumn('m.csv', ['a_file_name', 'b_file_name'])).toThrow('audiofolder: m.csv has several file columns (a_file_name, b_file_name)')
    expect(() => fileNameColumn('m.csv', ['path', 'text'])).toThrow('has no "file_name" or "*_file_name" column (columns: path, text)')
  })
})
