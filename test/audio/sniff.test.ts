import { describe, expect, it } from 'vitest'
import { sniffAudio } from '../../src/engine/audio/sniff.ts'
import { fixtureBytes, fixtures } from './fixtures.ts'

describe('sniffAudio on the committed fixtures', () => {
  for (const f of fixtures) {
    it(`${f.file}: container, codec, rate, channels, declared length`, () => {
      const s = sniffAudio(fixtureBytes(f.file))
      expect(s.problems).toEqual([])
      expect(s.container).toBe(f.container)
      expect(s.codec).toBe(f.codec)
      expect(s.sampleRate).toBe(f.sampleRate)
      expect(s.channels).toBe(f.channels)
      if (f.codec === 'opus') {
        // counted at 48 kHz; libsndfile's length at the decode rate is the same duration
        expect(s.declaredFramesRate).toBe(48000)
        expect(Math.abs(s.declaredFrames! * f.sampleRate / 48000 - f.frames)).toBeLessThanOrEqual(1)
      } else {
        expect(s.declaredFrames).toBe(f.frames)
        expect(s.declaredFramesRate).toBe(f.sampleRate)
      }
    })
  }
})

function wavHeader(fields: { tag?: number; channels?: number; rate?: number; bits?: number; dataSize?: number }): Uint8Array {
  const { tag = 1, channels = 1, rate = 16000, bits = 16, dataSize = 0 } = fields
  const b = new Uint8Array(44)
  const v = new DataView(b.buffer)
  b.set([...'RIFF'].map((c) => c.charCodeAt(0)), 0)
  v.setUint32(4, 36 + dataSize, true)
  b.set([...'WAVEfmt '].map((c) => c.charCodeAt(0)), 8)
  v.setUint32(16, 16, true)
  v.setUint16(20, tag, true)
  v.setUint16(22, channels, true)
  v.setUint32(24, rate, true)
  v.setUint32(28, rate * channels * bits / 8, true)
  v.setUint16(32, channels * bits / 8, true)
  v.setUint16(34, bits, true)
  b.set([...'data'].map((c) => c.charCodeAt(0)), 36)
  v.setUint32(40, dataSize, true)
  return b
}

describe('sniffAudio on bad input', () => {
  it('empty input', () => {
    const s = sniffAudio(new Uint8Array(0))
    expect(s.container).toBe('unknown')
    expect(s.problems[0]).toMatch(/empty/)
  })
  it('garbage', () => {
    const s = sniffAudio(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))
    expect(s.container).toBe('unknown')
    expect(s.problems[0]).toMatch(/unknown magic bytes 0x01020304/)
  })
  it('truncated headers of every container never throw and say so', () => {
    for (const f of fixtures) {
      const bytes = fixtureBytes(f.file)
      for (const n of [1, 3, 4, 5, 11, 12, 20, 27, 30, 41]) {
        const s = sniffAudio(bytes.subarray(0, n))
        expect(s.problems.length, `${f.file} cut to ${n} bytes`).toBeGreaterThan(0)
      }
    }
  })
  it('absurd channel count and sample rate', () => {
    const s = sniffAudio(wavHeader({ channels: 60000, rate: 0 }))
    expect(s.problems).toContain('absurd channel count 60000')
    expect(s.problems).toContain('absurd sample rate 0 Hz')
  })
  it('WAV data larger than the file is reported', () => {
    const s = sniffAudio(wavHeader({ bits: 8, dataSize: 2 ** 32 - 2 }))
    expect(s.problems.join()).toMatch(/truncated data: header declares 4294967294 bytes, file has 0/)
    // libsndfile reads the frames that are there (none), so that is the length training sees
    expect(s.declaredFrames).toBe(0)
  })
  it('FLAC STREAMINFO with 2^35 samples and a rate of 0', () => {
    const b = fixtureBytes('speech-16k-mono-s16.flac').slice(0, 42)
    b[18] = 0; b[19] = 0; b[20] = b[20] & 0x0f // rate 0
    b[21] = (b[21] & 0xf0) | 0x08 // total samples high nibble → 2^35
    const s = sniffAudio(b)
    expect(s.problems).toContain('STREAMINFO sample rate is 0')
    expect(s.declaredFrames).toBeGreaterThanOrEqual(2 ** 35)
    expect(s.problems.join()).toMatch(/absurd declared length/)
  })
  it('unsupported WAV format tag', () => {
    const s = sniffAudio(wavHeader({ tag: 0x1234, bits: 8 }))
    expect(s.problems).toContain('unsupported WAV format tag 0x1234')
    expect(s.codec).toBeNull()
  })
})
