import { describe, expect, it } from 'vitest'
import { PythonRandom } from '../../src/engine/random/python-random.ts'
import {
  applyFeatureMasks, applyReferenceSpecAugment, drawFeatureSpecAugment, drawReferenceSpecAugment, referenceStftFrames,
} from '../../src/engine/features/dsp/spec-augment.ts'
import { maxAbsDiff, readJsonFixture, readNpy, readWav16 } from './helpers.ts'

interface PythonDraws {
  seed: number; T: number; freq_mask_param: number; random: number; draws: number[]
  getrandbits32: number[]; randint_0_1000: number[]
}

describe('Python random (MT19937) replica', () => {
  for (const c of readJsonFixture<PythonDraws[]>('python-random.json')) {
    it(`seed ${c.seed}: random(), getrandbits(32), randint match CPython`, () => {
      const r = new PythonRandom(BigInt(c.seed))
      expect(r.random()).toBe(c.random)
      const again = new PythonRandom(BigInt(c.seed))
      expect(Array.from({ length: 5 }, () => again.getrandbits(32))).toEqual(c.getrandbits32)
      expect(Array.from({ length: 5 }, () => again.randint(0, 1000))).toEqual(c.randint_0_1000)
    })

    it(`seed ${c.seed}: reference SpecAugment draws in the reference order`, () => {
      const samples = 200 * (c.T - 1) + 17
      expect(referenceStftFrames(samples)).toBe(c.T)
      const draw = drawReferenceSpecAugment(new PythonRandom(BigInt(c.seed)), samples, { p: 1, freqMaskParam: c.freq_mask_param })
      expect(draw.applied).toBe(true)
      expect(draw.masks.flatMap((m) => [m.length, m.start])).toEqual(c.draws)
      expect(draw.masks.every((m) => m.axis === 'time')).toBe(true)
    })
  }

  it('p decides first: random() ≥ p draws nothing more', () => {
    const r = new PythonRandom(0) // random() = 0.844…
    expect(drawReferenceSpecAugment(r, 16000, { p: 0.5, freqMaskParam: 80 })).toEqual({ applied: false, masks: [] })
  })

  it('rejects the reference-crashing parameters with the bad value', () => {
    expect(() => drawReferenceSpecAugment(new PythonRandom(1), 16000, { p: 1, freqMaskParam: 10 })).toThrow(/got 10/)
  })
})

describe('reference SpecAugment waveform path vs torchaudio', () => {
  it('STFT → zero frames → iSTFT matches with the committed masks; length truncated to 200·⌊N/200⌋', () => {
    const { samples } = readWav16('en-16k.wav')
    const spec = readJsonFixture<{ masks: { start: number; length: number }[] }>('specaug.json')
    const y = applyReferenceSpecAugment(samples, spec.masks.map((m) => ({ axis: 'time' as const, ...m })))
    const golden = readNpy('en-16k.specaug.npy')
    expect(y.length).toBe(golden.data.length)
    expect(maxAbsDiff(y, golden.data)).toBeLessThanOrEqual(1e-5)
    expect(applyReferenceSpecAugment(samples.subarray(0, 16050), []).length).toBe(16000)
  })

  it('no masks reconstructs the waveform', () => {
    const { samples } = readWav16('fr-16k.wav')
    const y = applyReferenceSpecAugment(samples, [])
    expect(maxAbsDiff(y, samples.subarray(0, y.length))).toBeLessThan(1e-6)
  })
})

describe('features SpecAugment (textbook, mixscope-only)', () => {
  it('draws seeded masks and zeroes rows and columns', () => {
    const opts = { p: 1, numFreqMasks: 2, freqMaskParam: 10, numTimeMasks: 1, timeMaskParam: 5 }
    const a = drawFeatureSpecAugment(new PythonRandom(9), 50, 80, opts)
    const b = drawFeatureSpecAugment(new PythonRandom(9), 50, 80, opts)
    expect(a).toEqual(b)
    expect(a.masks.map((m) => m.axis)).toEqual(['frequency', 'frequency', 'time'])
    const data = new Float32Array(50 * 80).fill(1)
    const out = applyFeatureMasks(data, 50, 80, [{ axis: 'frequency', start: 3, length: 2 }, { axis: 'time', start: 49, length: 4 }])
    expect([out[3], out[4], out[5], out[80 + 4], out[49 * 80 + 10], out[48 * 80 + 10]]).toEqual([0, 0, 1, 0, 0, 1])
  })
})
