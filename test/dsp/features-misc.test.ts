import { describe, expect, it } from 'vitest'
import { bf16Bits, bf16BitsFromF32Bits, castToTrainingDtype, roundToBfloat16 } from '../../src/engine/features/dsp/bf16.ts'
import { kaldiFbank } from '../../src/engine/features/dsp/fbank.ts'
import { layerNorm, monoMean } from '../../src/engine/features/dsp/normalize.ts'
import { npyDecode, npyEncode } from '../../src/engine/core/npy.ts'
import { describeStandardizeProblem, standardizeFeatures } from '../../src/engine/features/dsp/standardize.ts'
import { powerSpectrogramDb, spectrogramFrameCount } from '../../src/engine/features/dsp/spectrogram.ts'
import { maxAbsDiff, readJsonFixture, readNpy, readWav16 } from './helpers.ts'

describe('layer norm (waveform path)', () => {
  it('matches torch.nn.functional.layer_norm on speech', () => {
    const { samples } = readWav16('en-16k.wav')
    expect(maxAbsDiff(layerNorm(samples), readNpy('en-16k.layernorm.npy').data)).toBeLessThanOrEqual(2e-6)
  })

  it('uses population variance and eps 1e-5', () => {
    const y = layerNorm(Float32Array.from([1, 2, 3, 4]))
    const scale = 1 / Math.sqrt(1.25 + 1e-5)
    expect(Array.from(y)).toEqual([-1.5, -0.5, 0.5, 1.5].map((v) => Math.fround(v * scale)))
  })

  it('mono is the channel mean', () => {
    expect(Array.from(monoMean([Float32Array.from([1, 2]), Float32Array.from([3, -2])]))).toEqual([2, 0])
  })
})

describe('standardize (per mel bin, unbiased std, no epsilon)', () => {
  it('matches torch.std_mean on the fixture fbank', () => {
    const fb = readNpy('en-16k.wav.fbank.npy')
    const st = standardizeFeatures({ data: fb.data, frames: fb.shape[0], bins: fb.shape[1] })
    expect(st.problem).toBeNull()
    expect(maxAbsDiff(st.data, readNpy('en-16k.wav.fbank-std.npy').data)).toBeLessThanOrEqual(1e-5)
  })

  it('one frame: every bin undefined (NaN), reported', () => {
    const st = standardizeFeatures({ data: new Float32Array(80).fill(1), frames: 1, bins: 80 })
    expect(st.problem).toBe('one-frame')
    expect(st.undefinedBins).toHaveLength(80)
    expect(Number.isNaN(st.data[0])).toBe(true)
    expect(describeStandardizeProblem(st)).toMatch(/only 1 frame/)
  })

  it('silence: constant bins are listed', () => {
    const st = standardizeFeatures(kaldiFbank(new Float32Array(1600), 16000))
    expect(st.problem).toBe('zero-std')
    expect(st.undefinedBins).toEqual(Array.from({ length: 80 }, (_, i) => i))
    expect(describeStandardizeProblem(st)).toMatch(/80 mel bin\(s\) constant over 8 frames/)
  })
})

describe('bfloat16', () => {
  it('matches torch casts bit for bit (ties to even, overflow, NaN)', () => {
    const cases = readJsonFixture<{ f32_bits: number; bf16_bits: number }[]>('bf16.json')
    expect(cases.length).toBeGreaterThan(20)
    for (const c of cases) expect([c.f32_bits, bf16BitsFromF32Bits(c.f32_bits)]).toEqual([c.f32_bits, c.bf16_bits])
  })

  it('known patterns', () => {
    expect(bf16Bits(1)).toBe(0x3f80)
    expect(bf16Bits(-2)).toBe(0xc000)
    expect(bf16BitsFromF32Bits(0x3f808000)).toBe(0x3f80) // tie, kept bit even: down
    expect(bf16BitsFromF32Bits(0x3f818000)).toBe(0x3f82) // tie, kept bit odd: up
    expect(bf16BitsFromF32Bits(0x7f7fffff)).toBe(0x7f80) // float max → inf
  })

  it('widens back to float32 and float32 is the identity', () => {
    const x = Float32Array.from([1 + 2 ** -9, 3.14159265])
    expect(Array.from(roundToBfloat16(x))).toEqual([1, 3.140625])
    expect(castToTrainingDtype(x, 'float32')).toBe(x)
  })
})

describe('display spectrogram', () => {
  it('puts a 1 kHz tone into bin 25 (16 kHz, n_fft 400) and counts frames', () => {
    const x = Float32Array.from({ length: 4000 }, (_, i) => Math.sin((2 * Math.PI * 1000 * i) / 16000))
    const s = powerSpectrogramDb(x, 800, 3200)
    expect(s.frames).toBe(spectrogramFrameCount(2400, 400, 160))
    expect(s.frames).toBe(13)
    const row = Array.from(s.data.subarray(0, s.bins))
    expect(row.indexOf(Math.max(...row))).toBe(25)
    // amplitude 1 sine, periodic Hann (sum 200): |X| = 100 → 40 dB
    expect(Math.max(...row)).toBeCloseTo(40, 3)
    expect(() => powerSpectrogramDb(x, 0, 5000)).toThrow(/outside \[0, 4000\)/)
  })
})

describe('npy', () => {
  it('round-trips [frames, bins] float32 and reads numpy-written files', () => {
    const a = { shape: [3, 2], data: Float32Array.from([1, 2, 3, 4, NaN, -0.5]) }
    const back = npyDecode(npyEncode(a))
    expect(back.shape).toEqual([3, 2])
    expect(Array.from(back.data)).toEqual(Array.from(a.data))
    expect((npyEncode(a).length - 6 * 4) % 64).toBe(0)
    expect(readNpy('en-16k.wav.fbank.npy').shape).toEqual([298, 80])
  })
})
