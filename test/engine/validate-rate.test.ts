/**
 * validate --deep on rows that are not 16 kHz: the header's sample count against `audio_size`, read both ways
 * (native samples, or the length at 16 kHz), with a 44.1 kHz FLAC made by sox and parquet written by DuckDB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeParquet } from '../helpers/duckdb.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { validateDataset } from '../../src/engine/validate/validate.ts'

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mixscope-rate-'))
  const flac = join(root, 'x.flac')
  execFileSync('sox', ['-r', '44100', '-n', '-b', '16', '-c', '1', flac, 'synth', '227247s', 'sine', '440', 'vol', '0.3'])
  const hex = (await readFile(flac)).toString('hex')
  const rows = [82448, 227247, 100000].map((n, i) => `SELECT ${i} AS i, from_hex('${hex}') AS audio_bytes, ${n}::BIGINT AS audio_size, 'a text' AS text`)
  await writeParquet(join(root, 'data/corpus=c/split=train/language=eng_Latn/part-0.parquet'), `SELECT audio_bytes, audio_size, text FROM (${rows.join(' UNION ALL ')}) ORDER BY i`)
  // a WAV whose data chunk is shorter than its header says: libsndfile reads the samples there are
  const wav = join(root, 'x.wav')
  execFileSync('sox', ['-r', '16000', '-n', '-b', '16', '-c', '1', wav, 'synth', '16000s', 'sine', '440'])
  const cut = (await readFile(wav)).subarray(0, 44 + 2 * 6000).toString('hex')
  await writeParquet(join(root, 'cut/corpus=c/split=train/language=eng_Latn/part-0.parquet'), `SELECT from_hex('${cut}') AS audio_bytes, 6000::BIGINT AS audio_size, 'a text' AS text`)
})
afterAll(async () => { await rm(root, { recursive: true, force: true }) })

describe('validate --deep, a WAV cut short of its header', () => {
  it('is a warning that training reads through, not a bad-audio-header error', async () => {
    const report = await validateDataset(await openDataset(await createFsSource(join(root, 'cut'))), { deep: true })
    expect(report.findings.filter((f) => f.severity === 'error' || f.kind === 'audio-length-mismatch')).toEqual([])
    expect(report.findings.find((f) => f.kind === 'odd-audio-header')?.message).toMatch(/truncated data: header declares 32000 bytes, file has 12000 \(libsndfile reads through this/)
  })
})

describe('validate --deep, 44.1 kHz FLAC rows', () => {
  it('says which reading of audio_size each row follows and flags only the row that matches neither', async () => {
    const report = await validateDataset(await openDataset(await createFsSource(join(root, 'data'))), { deep: true })
    const rate = report.findings.filter((f) => f.kind === 'non-16k-audio' || f.kind === 'audio-length-mismatch')
    expect(rate.map((f) => [f.row, f.kind])).toEqual([[0, 'non-16k-audio'], [1, 'non-16k-audio'], [2, 'audio-length-mismatch'], [2, 'non-16k-audio']])
    expect(rate[0].message).toMatch(/audio_size 82448 is its length at 16 kHz, so hours are right, but the model receives 227247 samples/)
    expect(rate[1].message).toMatch(/audio_size 227247 counts its samples at 44100 Hz/)
    expect(rate[2].message).toMatch(/audio_size is 100000 but the audio holds 227247 samples at 44100 Hz \(82448 at 16 kHz\): it matches neither count/)
  })
})
