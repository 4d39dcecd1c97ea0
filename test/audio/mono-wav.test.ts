import { describe, expect, it } from 'vitest'
import { toMono } from '../../src/engine/audio/mono.ts'
import { toWav16, toWavFloat32 } from '../../src/engine/audio/wav-encode.ts'
import { decodeWav, decodeWavMono16 } from '../../src/engine/audio/wav.ts'
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

describe('16-bit PCM WAV decode', () => {
  it('reads the same samples from bytes at an odd offset (copied) as aligned (a view) as libsndfile does', () => {
    const f = fixtures.find((x) => x.file === 'speech-44k-stereo-s16.wav')!
    const original = fixtureBytes(f.file)
    const shifted = new Uint8Array(original.length + 1)
    shifted.set(original, 1)
    const odd = decodeWav(shifted.subarray(1), 'odd', 1e9)
    const aligned = decodeWav(original, 'aligned', 1e9)
    expect(odd.channels).toEqual(aligned.channels)
    expect(aligned.channels).toEqual(referencePlanar(f))
  })
})

describe('decodeWavMono16: 16-bit PCM straight to the mono mix', () => {
  const walk = (n: number, seed: number) => { let s = seed, v = 0; return Float32Array.from({ length: n }, () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; v = 0.97 * v + 0.1 * (s / 2 ** 32 - 0.5); return Math.max(-1, Math.min(1, v)) }) }
  it('equals toMono(decodeWav(…).channels) for 1, 2, 3 and 6 channels, into a reused buffer or not', () => {
    const scratch = new Float32Array(50_000)
    for (const count of [1, 2, 3, 6]) {
      const wav = toWav16(Array.from({ length: count }, (_, c) => walk(20_000 + count, c + 1)), 22050)
      const expected = toMono(decodeWav(wav, 'x', 1e9).channels)
      const fresh = decodeWavMono16(wav, 'x', 1e9)!
      const reused = decodeWavMono16(wav, 'x', 1e9, scratch)!
      expect(fresh.samples).toEqual(expected)
      expect(reused.samples).toEqual(expected)
      expect(reused.samples.buffer).toBe(scratch.buffer)
      expect([fresh.channels, fresh.frames, fresh.sampleRate]).toEqual([count, 20_000 + count, 22050])
    }
  })
  it('null for other formats; the same errors as decodeWav', () => {
    const f = fixtures.find((x) => x.file === 'speech-44k-stereo-s16.wav')!
    expect(decodeWavMono16(toWavFloat32(referencePlanar(f), 44100), 'x', 1e9)).toBeNull()
    const cut = fixtureBytes(f.file).slice(0, 30)
    expect(() => decodeWavMono16(cut, 'x', 1e9)).toThrow(String((() => { try { decodeWav(cut, 'x', 1e9) } catch (e) { return (e as Error).message } })()))
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
