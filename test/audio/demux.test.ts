import { describe, expect, it } from 'vitest'
import { crc16 } from '../../src/engine/audio/flac-decoder.ts'
import { splitFlacFrames } from '../../src/engine/audio/flac.ts'
import { splitMp3Frames } from '../../src/engine/audio/mp3.ts'
import { readOggPackets, xiphLace } from '../../src/engine/audio/ogg.ts'
import { fixtureBytes } from './fixtures.ts'

describe('splitFlacFrames', () => {
  it('finds every frame, including the short last one (codec-parser drops it)', () => {
    const s = splitFlacFrames(fixtureBytes('speech-16k-mono-s16.flac'))
    // 29873 samples in blocks of 4096: 7 full frames and one of 1201
    expect(s.frames).toHaveLength(8)
    expect(s.warnings).toEqual([])
    expect(String.fromCharCode(...s.description.subarray(0, 4))).toBe('fLaC')
    expect(s.description.length).toBe(42)
  })
  it('drops a frame whose CRC-16 fails and resyncs on the next', () => {
    const b = fixtureBytes('speech-16k-mono-s16.flac')
    const whole = splitFlacFrames(b)
    const second = whole.frames[1].byteOffset - b.byteOffset
    const bad = b.slice()
    bad[second + 200] ^= 0xff
    const s = splitFlacFrames(bad)
    expect(s.frames).toHaveLength(7)
    expect(s.warnings).toEqual([])
    expect(s.damage).toEqual([`the frame at byte ${second} fails its CRC-16 (damaged) and was dropped`])
  })
  it('slice-by-8 CRC-16 equals the bit-by-bit definition for every length and split point', () => {
    const bitwise = (b: Uint8Array) => {
      let crc = 0
      for (const byte of b) {
        crc ^= byte << 8
        for (let k = 0; k < 8; k++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff
      }
      return crc
    }
    let seed = 7
    const data = Uint8Array.from({ length: 200 }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24)
    for (let n = 0; n <= 40; n++) {
      const b = data.subarray(0, n * 5)
      expect(crc16(b, 0, b.length)).toBe(bitwise(b))
      const cut = Math.floor(b.length / 3)
      expect(crc16(b, cut, b.length, crc16(b, 0, cut))).toBe(bitwise(b))
    }
    // a frame followed by its own CRC-16 sums to 0, which is how frame ends are found
    const frame = fixtureBytes('speech-16k-mono-s16.flac')
    const s = splitFlacFrames(frame)
    for (const f of s.frames) expect(crc16(f, 0, f.length)).toBe(0)
  })
  it('truncated metadata is an error', () => {
    expect(() => splitFlacFrames(fixtureBytes('speech-16k-mono-s16.flac').subarray(0, 60))).toThrow(/truncated metadata/)
  })
})

describe('readOggPackets', () => {
  it('Opus: OpusHead, OpusTags, then audio packets; last granule = pre-skip + 3 × 29873', () => {
    const s = readOggPackets(fixtureBytes('speech-16k-mono.opus'))
    expect(String.fromCharCode(...s.packets[0].data.subarray(0, 8))).toBe('OpusHead')
    expect(String.fromCharCode(...s.packets[1].data.subarray(0, 8))).toBe('OpusTags')
    expect(s.lastGranule).toBe(312 + 3 * 29873)
    expect(s.warnings).toEqual([])
  })
  it('keeps the complete packets of a page cut by the end of the file', () => {
    const b = fixtureBytes('speech-16k-mono.opus')
    const whole = readOggPackets(b)
    const s = readOggPackets(b.subarray(0, 2000))
    expect(s.packets.length).toBeGreaterThan(2)
    expect(s.packets.length).toBeLessThan(whole.packets.length)
    expect(s.packets.at(-1)!.data).toEqual(whole.packets[s.packets.length - 1].data)
    expect(s.warnings[0]).toMatch(/^truncated page at byte 841: \d+ bytes missing, \d+ complete packets kept$/)
  })
  it('skips a page whose CRC-32 fails', () => {
    const b = fixtureBytes('speech-16k-mono.ogg').slice()
    b[b.length - 100] ^= 1
    expect(readOggPackets(b).warnings.join()).toMatch(/fails its CRC-32 and was skipped/)
  })
  it('xiphLace writes count − 1, 255-runs for each length but the last, then the packets', () => {
    const laced = xiphLace([new Uint8Array(300), new Uint8Array(2), new Uint8Array(1)])
    expect(Array.from(laced.subarray(0, 4))).toEqual([2, 255, 45, 2])
    expect(laced.length).toBe(4 + 303)
  })
})

describe('splitMp3Frames', () => {
  it('leaves out the Xing/Info frame', () => {
    const s = splitMp3Frames(fixtureBytes('speech-16k-mono.mp3'))
    expect(s.hadTagFrame).toBe(true)
    // 16 kHz MPEG-2 layer III: 576 samples per frame; LAME delay 576 + 529 decoder delay, padding below 576
    expect(s.frames.length * 576).toBeGreaterThanOrEqual(29873 + 576 + 529)
    expect(s.warnings).toEqual([])
  })
})
