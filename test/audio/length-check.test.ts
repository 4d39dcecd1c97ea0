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
  it('44.1 kHz audio: the warning says which reading of audio_size the row follows, and is true', () => {
    // the row: 227247 samples at 44100 Hz = 82448.4 at 16 kHz, audio_size 82448
    const at16k = audioLengthFindings(where, 82448, { sampleRate: 44100, frames: 227247, codec: 'flac' })
    expect(at16k.map((x) => x.kind)).toEqual(['non-16k-audio'])
    expect(at16k[0].message).toBe('audio is 44100 Hz, expected 16000 Hz: the reference trains on it without resampling; audio_size 82448 is its ' +
      'length at 16 kHz, so hours are right, but the model receives 227247 samples, 2.756× what the length filter and max_num_elements budget assume')
    // floor instead of ceil is fine too; two samples off is not
    expect(audioLengthFindings(where, 82447, { sampleRate: 44100, frames: 227247, codec: 'flac' }).map((x) => x.kind)).toEqual(['non-16k-audio'])
    expect(audioLengthFindings(where, 82450, { sampleRate: 44100, frames: 227247, codec: 'flac' }).map((x) => x.kind)).toEqual(['non-16k-audio', 'audio-length-mismatch'])
    const native = audioLengthFindings(where, 227247, { sampleRate: 44100, frames: 227247, codec: 'flac' })
    expect(native.map((x) => x.kind)).toEqual(['non-16k-audio'])
    expect(native[0].message).toMatch(/audio_size 227247 counts its samples at 44100 Hz, so the length filter and batch budget see what the model gets, but hours \(audio_size \/ 16000\) overstate its 5\.15 s by 2\.756×$/)
    const neither = audioLengthFindings(where, 9000, { sampleRate: 44100, frames: 22050, codec: 'pcm' })
    expect(neither.map((x) => x.kind)).toEqual(['non-16k-audio', 'audio-length-mismatch'])
    expect(neither[0].message).toBe('audio is 44100 Hz, expected 16000 Hz: the reference trains on it without resampling')
    expect(neither[1].message).toBe('audio_size is 9000 but the audio holds 22050 samples at 44100 Hz (8000 at 16 kHz): it matches neither count; pcm allows a difference of 0')
    expect(audioLengthFindings(where, 16000, { sampleRate: 32000, frames: 32000, codec: 'pcm' })[0].message).toMatch(/the model receives 32000 samples, 2× what/)
  })
  it('no audio_size column: only the rate check', () => {
    expect(audioLengthFindings({ path: 'p', row: null }, null, { sampleRate: 16000, frames: 5, codec: 'vorbis' })).toEqual([])
  })
})
