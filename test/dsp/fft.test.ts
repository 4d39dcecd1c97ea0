import { describe, expect, it } from 'vitest'
import { BluesteinFft, RadixTwoFft, RealFft, makeFft } from '../../src/engine/dsp/fft.ts'

function seeded(seed: number): () => number {
  let s = seed >>> 0
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32 - 0.5 }
}

function naiveDft(x: Float64Array, n: number): Float64Array {
  const out = new Float64Array(2 * n)
  for (let k = 0; k < n; k++) {
    let re = 0, im = 0
    for (let j = 0; j < n; j++) {
      const a = (-2 * Math.PI * ((k * j) % n)) / n
      re += x[2 * j] * Math.cos(a) - x[2 * j + 1] * Math.sin(a)
      im += x[2 * j] * Math.sin(a) + x[2 * j + 1] * Math.cos(a)
    }
    out[2 * k] = re; out[2 * k + 1] = im
  }
  return out
}

function maxAbs(a: Float64Array, b: Float64Array): number {
  let m = 0
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]))
  return m
}

describe('complex FFT vs naive DFT', () => {
  for (const n of [1, 2, 8, 64, 512, 3, 5, 7, 25, 400]) {
    it(`size ${n} (${makeFft(n).constructor.name})`, () => {
      const rand = seeded(n)
      const x = Float64Array.from({ length: 2 * n }, rand)
      const out = new Float64Array(2 * n)
      makeFft(n).transform(out, x)
      expect(maxAbs(out, naiveDft(x, n))).toBeLessThan(1e-11 * Math.max(1, n))
    })
  }

  it('inverse undoes forward (×N) for radix-2 and Bluestein', () => {
    for (const fft of [new RadixTwoFft(512), new BluesteinFft(400)]) {
      const n = fft.size
      const x = Float64Array.from({ length: 2 * n }, seeded(7))
      const y = new Float64Array(2 * n)
      fft.transform(y, x)
      fft.transform(y, y, true)
      for (let i = 0; i < 2 * n; i++) y[i] /= n
      expect(maxAbs(x, y)).toBeLessThan(1e-12)
    }
  })

  it('rejects sizes that are not powers of two for radix-2', () => {
    expect(() => new RadixTwoFft(400)).toThrow(/power of two, got 400/)
  })
})

describe('real FFT', () => {
  for (const n of [512, 400]) {
    it(`Parseval holds and the inverse restores the frame (size ${n})`, () => {
      const rfft = new RealFft(n)
      const x = Float64Array.from({ length: n }, seeded(n + 1))
      const spec = new Float64Array(2 * rfft.bins)
      rfft.forward(spec, x)
      let timeEnergy = 0
      for (const v of x) timeEnergy += v * v
      let freqEnergy = 0
      for (let k = 0; k < rfft.bins; k++) {
        const p = spec[2 * k] ** 2 + spec[2 * k + 1] ** 2
        freqEnergy += k === 0 || k === n / 2 ? p : 2 * p
      }
      expect(freqEnergy / n).toBeCloseTo(timeEnergy, 9)
      const back = new Float64Array(n)
      rfft.inverse(back, spec)
      expect(maxAbs(back, x)).toBeLessThan(1e-12)
    })
  }

  it('a cosine at bin 10 puts N/2 into bin 10 only', () => {
    const n = 400, rfft = new RealFft(n)
    const x = Float64Array.from({ length: n }, (_, i) => Math.cos((2 * Math.PI * 10 * i) / n))
    const spec = new Float64Array(2 * rfft.bins)
    rfft.forward(spec, x)
    for (let k = 0; k < rfft.bins; k++) {
      expect(Math.hypot(spec[2 * k], spec[2 * k + 1])).toBeCloseTo(k === 10 ? n / 2 : 0, 8)
    }
  })
})
