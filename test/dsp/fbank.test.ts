import { describe, expect, it } from 'vitest'
import { FLT_EPSILON, kaldiFbank } from '../../src/engine/features/dsp/fbank.ts'
import { fbankFrameCount, fbankOptions } from '../../src/engine/features/dsp/fbank-options.ts'
import { kaldiMel, kaldiMelBank } from '../../src/engine/features/dsp/mel.ts'
import { poveyWindow } from '../../src/engine/features/dsp/window.ts'
import { maxAbsDiff, readFeaturesMeta, readNpy, readWav16 } from './helpers.ts'

describe('kaldi fbank vs torchaudio.compliance.kaldi.fbank (committed fixtures)', () => {
  for (const wav of readFeaturesMeta().wavs) {
    it(`${wav.file} (${wav.sample_rate} Hz)`, () => {
      const { sampleRate, samples } = readWav16(wav.file)
      expect(sampleRate).toBe(wav.sample_rate)
      const fb = kaldiFbank(samples, sampleRate)
      const golden = readNpy(`${wav.file}.fbank.npy`)
      const golden64 = readNpy(`${wav.file}.fbank64.npy`)
      expect([fb.frames, fb.bins]).toEqual(golden.shape)
      expect(fb.frames).toBe(wav.frames)
      // torchaudio in float32 runs its FFT in float32; knf (and this code) in double: ≤ 1e-3 on speech
      expect(maxAbsDiff(fb.data, golden.data)).toBeLessThanOrEqual(1e-3)
      // torchaudio in float64 is the most exact reference; what is left is float32 storage of the frame (as knf)
      expect(maxAbsDiff(fb.data, golden64.data)).toBeLessThanOrEqual(5e-4)
    })
  }
})

describe('frame geometry', () => {
  it('uses int(sr · 0.001f · ms) and pads to a power of two', () => {
    expect(fbankOptions(16000)).toMatchObject({ frameLength: 400, frameShift: 160, paddedLength: 512, highFreq: 8000 })
    expect(fbankOptions(22050)).toMatchObject({ frameLength: 551, frameShift: 220, paddedLength: 1024 })
    expect(fbankOptions(8000)).toMatchObject({ frameLength: 200, frameShift: 80, paddedLength: 256 })
    expect(fbankOptions(48000)).toMatchObject({ frameLength: 1200, frameShift: 480, paddedLength: 2048 })
    expect(() => fbankOptions(50)).toThrow(/≥ 100 Hz, got 50/)
  })

  it('counts 1 + (N − 400) // 160 frames and 0 below 400 samples', () => {
    const o = fbankOptions(16000)
    for (const n of [0, 1, 399, 400, 401, 559, 560, 561, 16000, 48000]) {
      const expected = n < 400 ? 0 : 1 + Math.floor((n - 400) / 160)
      expect(fbankFrameCount(n, o)).toBe(expected)
      expect(kaldiFbank(new Float32Array(n), 16000).frames).toBe(expected)
    }
  })
})

describe('mel bank and window', () => {
  it('spaces 80 triangles equally in Kaldi mel between 20 Hz and Nyquist', () => {
    const bank = kaldiMelBank(fbankOptions(16000))
    expect(bank.numBins).toBe(80)
    expect(bank.numFftBins).toBe(256)
    const delta = (kaldiMel(8000) - kaldiMel(20)) / 81
    expect(delta).toBeCloseTo(34.67, 2)
    for (let b = 0; b < 80; b++) {
      expect(bank.length[b]).toBeGreaterThan(0)
      for (let i = 0; i < bank.length[b]; i++) {
        const w = bank.weights[bank.offset[b] + i]
        expect(w).toBeGreaterThan(0)
        expect(w).toBeLessThanOrEqual(1)
      }
    }
  })

  it('povey window is (0.5 − 0.5 cos(2πi/399))^0.85', () => {
    const w = poveyWindow(400)
    expect(w[0]).toBe(0)
    expect(w[399]).toBeCloseTo(0, 12)
    expect(w[200]).toBeCloseTo(Math.pow(0.5 - 0.5 * Math.cos((2 * Math.PI * 200) / 399), 0.85), 7)
  })
})

describe('fbank properties', () => {
  it('silence yields ln(FLT_EPSILON) everywhere', () => {
    const fb = kaldiFbank(new Float32Array(16000), 16000)
    expect(fb.frames).toBe(98)
    for (const v of fb.data) expect(v).toBe(Math.fround(Math.log(FLT_EPSILON)))
  })

  it('a pure tone lands in the mel bin whose center is nearest its frequency', () => {
    const bank = kaldiMelBank(fbankOptions(16000))
    const delta = (kaldiMel(8000) - kaldiMel(20)) / 81
    for (const hz of [300, 1000, 3000, 6500]) {
      const x = Float32Array.from({ length: 4000 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / 16000))
      const fb = kaldiFbank(x, 16000)
      const row = fb.data.subarray(5 * 80, 6 * 80)
      const loudest = row.indexOf(Math.max(...row))
      const expected = Math.round((kaldiMel(hz) - kaldiMel(20)) / delta) - 1
      expect(Math.abs(loudest - expected)).toBeLessThanOrEqual(1)
      expect(bank.start[loudest] * 31.25).toBeLessThan(hz)
    }
  })
})
