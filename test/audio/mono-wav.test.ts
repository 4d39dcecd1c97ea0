import { describe, expect, it } from 'vitest'
import { toMono } from '../../src/engine/audio/mono.ts'
import { toWav16, toWavFloat32 } from '../../src/engine/audio/wav-encode.ts'
import { decodeWav } from '../../src/engine/audio/wav.ts'
import { fixtureBytes, fixtures, referencePlanar } from './fixtures.ts'

describe('toMono (reference §11: sum left to right in float32, then divide by C)', () => {
  it('matches the float32 computation step by step on the stereo fixture', () => {
    const [l, r] = referencePlanar(fixtures.find((f) => f.file === 'speech-44k-stereo-s16.wav')!)
    const m = toMono([l, r])
    for (let i = 0; i < l.length; i++) expect(m[i]).toBe(Math.fround(Math.fround(l[i] + r[i]) / 2))
  })
  it('rounds in float32 at each step for 3 channels', () => {
    const a = new Float32Array([1, 0.1])
    const b = new Float32Array([1e-8, 0.2])
    const c = new Float32Array([-1, 0.3])
    const m = toMono([a, b, c])
    // in float32, 1 + 1e-8 == 1, so the sum is 0 (in float64 it would be 1e-8)
    expect(m[0]).toBe(0)
    expect(m[1]).toBe(Math.fround(Math.fround(Math.fround(Math.fround(0.1) + Math.fround(0.2)) + Math.fround(0.3)) / 3))
  })
  it('mono input is returned as is; no channels is an error', () => {
    const a = new Float32Array([0.5])
    expect(toMono([a])).toBe(a)
    expect(() => toMono([])).toThrow(/mono: no channels/)
  })
})

describe('WAV writers', () => {
  it('toWavFloat32 round-trips exactly through the WAV decoder', () => {
    const f = fixtures.find((x) => x.file === 'speech-44k-stereo-s16.wav')!
    const ref = referencePlanar(f)
    const d = decodeWav(toWavFloat32(ref, 44100), 'rt', 1e9)
    expect(d.sampleRate).toBe(44100)
    expect(d.codec).toBe('float')
    expect(d.channels).toEqual(ref)
  })
  it('toWav16 of 16-bit sourced audio reproduces the original file bytes', () => {
    const original = fixtureBytes('speech-44k-stereo-s16.wav')
    const d = decodeWav(original, 'x', 1e9)
    const again = toWav16(d.channels, d.sampleRate)
    // sox writes the same 44-byte canonical header as ours
    expect(again.length).toBe(original.length)
    expect(Buffer.compare(Buffer.from(again.subarray(44)), Buffer.from(original.subarray(44)))).toBe(0)
  })
  it('toWav16 clips out-of-range values', () => {
    const d = decodeWav(toWav16([new Float32Array([2, -2, 0.5])], 16000), 'c', 1e9)
    expect(Array.from(d.channels[0])).toEqual([32767 / 32768, -1, 0.5])
  })
})
