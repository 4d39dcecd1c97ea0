/**
 * The decode verdict (`trainable`) where the audit and `validate --deep` report it: a row training cannot read is an
 * error finding, not a warning (libsndfile's verdicts are checked in flac.test.ts and decode.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { checkAudio } from '../../src/engine/audit/checks/audio.ts'
import { measureAudioTask } from '../../src/engine/audit/measure.ts'
import type { AuditRow } from '../../src/engine/audit/rows/types.ts'
import { sniffAudio } from '../../src/engine/audio/sniff.ts'
import { fixtureBytes } from './fixtures.ts'

const flac = fixtureBytes('speech-16k-mono-s16.flac')

describe('audit: rows training cannot read are undecodable-audio errors', () => {
  it('a FLAC cut at 60%, a 12-bit FLAC and FLAC in Ogg fail their measure; the whole FLAC measures', async () => {
    const rows = [
      { row: 0, bytes: flac },
      { row: 1, bytes: flac.subarray(0, Math.floor(flac.length * 0.6)) },
      { row: 2, bytes: fixtureBytes('flac/depth-12.flac') },
      { row: 3, bytes: fixtureBytes('speech-16k-mono-s16.oga') },
    ]
    const measures = await measureAudioTask({ path: 'p.parquet', rowGroup: 0, rows })
    expect(measures.map((m) => m.ok)).toEqual([true, false, false, false])
    const audit = (r: number): AuditRow => ({ file: 0, path: 'p.parquet', row: r, rowGroup: 0, corpus: 'c', language: 'en', split: 'train', audioSize: 29873, text: 'x' })
    const items = checkAudio(measures.map((measure) => ({ row: audit(measure.row), measure }))).items.filter((i) => i.finding.kind === 'undecodable-audio')
    expect(items.map((i) => [i.finding.row, i.finding.severity])).toEqual([[1, 'error'], [2, 'error'], [3, 'error']])
    expect(items[0].finding.message).toMatch(/truncated/)
    expect(items[1].finding.message).toMatch(/12-bit FLAC: libsndfile/)
    expect(items[2].finding.message).toMatch(/FLAC in Ogg/)
  })
})

describe('validate --deep: the sniff already knows some rows cannot train', () => {
  it('a 12-bit FLAC and FLAC in Ogg carry the reason; an ordinary FLAC does not', () => {
    expect(sniffAudio(fixtureBytes('flac/depth-12.flac')).untrainable).toMatch(/^12-bit FLAC/)
    expect(sniffAudio(fixtureBytes('speech-16k-mono-s16.oga')).untrainable).toMatch(/^FLAC in Ogg/)
    expect(sniffAudio(flac).untrainable).toBeNull()
    expect(sniffAudio(fixtureBytes('flac/total-unknown.flac')).untrainable).toMatch(/does not declare the length/)
  })
})
