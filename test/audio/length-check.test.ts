import { describe, expect, it } from 'vitest'
import { audioLengthFindings } from '../../src/engine/audio/length-check.ts'

const where = { path: 'corpus=a/split=train/language=x/p.parquet', row: 7, row_group: 0 }

describe('audioLengthFindings', () => {
  it('no findings when a 16 kHz FLAC matches audio_size exactly (bigint from INT64)', () => {
    expect(audioLengthFindings(where, 29873n, { sampleRate: 16000, frames: 29873, codec: 'flac' })).toEqual([])
  })
  it('lossless: one sample off is a mismatch', () => {
    const f = audioLengthFindings(where, 29874, { sampleRate: 16000, frames: 29873, codec: 'flac' })
    expect(f).toEqual([{ ...where, kind: 'audio-length-mismatch', severity: 'warning',
      message: 'audio_size is 29874 samples but the audio decodes to 29873 samples at 16 kHz; flac allows a difference of 0' }])
  })
  it('opus: 1 sample tolerated, 2 not; mp3: 2304 tolerated, 2305 not', () => {
    expect(audioLengthFindings(where, 101, { sampleRate: 16000, frames: 100, codec: 'opus' })).toEqual([])
    expect(audioLengthFindings(where, 102, { sampleRate: 16000, frames: 100, codec: 'opus' })).toHaveLength(1)
    expect(audioLengthFindings(where, 10000 + 2304, { sampleRate: 16000, frames: 10000, codec: 'mp3' })).toEqual([])
    expect(audioLengthFindings(where, 10000 + 2305, { sampleRate: 16000, frames: 10000, codec: 'mp3' })).toHaveLength(1)
  })
  it('44.1 kHz audio is a non-16k warning, and its length is compared at 16 kHz', () => {
    const f = audioLengthFindings(where, 8000, { sampleRate: 44100, frames: 22050, codec: 'pcm' })
    expect(f.map((x) => x.kind)).toEqual(['non-16k-audio'])
    expect(f[0].message).toBe('audio is 44100 Hz, expected 16000 Hz: the reference trains on it without resampling')
    const g = audioLengthFindings(where, 9000, { sampleRate: 44100, frames: 22050, codec: 'pcm' })
    expect(g.map((x) => x.kind)).toEqual(['non-16k-audio', 'audio-length-mismatch'])
    expect(g[1].message).toMatch(/decodes to 8000 samples at 16 kHz \(22050 at 44100 Hz\)/)
  })
  it('no audio_size column: only the rate check', () => {
    expect(audioLengthFindings({ path: 'p', row: null }, null, { sampleRate: 16000, frames: 5, codec: 'vorbis' })).toEqual([])
  })
})
