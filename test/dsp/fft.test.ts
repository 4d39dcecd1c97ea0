import { describe, expect, it } from 'vitest'
import { BluesteinFft } from '../../src/engine/features/dsp/fft-bluestein.ts'
import { RadixTwoFft } from '../../src/engine/features/dsp/fft-radix.ts'
import { RealFft, makeFft } from '../../src/engine/features/dsp/fft.ts'

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

describe('real FFT against the complex FFT of the same frame', () => {
  // even sizes take the half-size complex FFT + split path (power of two and Bluestein halves), odd sizes the full one
  for (const n of [1, 2, 4, 6, 8, 16, 32, 400, 512, 1024, 2048, 7, 25, 401]) {
    it(`size ${n}: forward equals the first ⌊N/2⌋+1 complex bins, inverse restores the frame`, () => {
      const rfft = new RealFft(n), fft = makeFft(n), rand = seeded(3 * n + 11)
      for (let trial = 0; trial < 3; trial++) {
        const x = Float64Array.from({ length: n }, () => 1000 * rand())
        const complex = new Float64Array(2 * n)
        for (let i = 0; i < n; i++) complex[2 * i] = x[i]
        fft.transform(complex, complex)
        const spec = new Float64Array(2 * rfft.bins)
        rfft.forward(spec, x)
        const scale = 1000 * Math.max(1, Math.sqrt(n))
        expect(maxAbs(spec, complex.subarray(0, 2 * rfft.bins)) / scale).toBeLessThan(1e-13)
        const back = new Float64Array(n)
        rfft.inverse(back, spec)
        expect(maxAbs(back, x) / 1000).toBeLessThan(1e-13)
      }
    })
  }

  it('zero-pads short inputs and reads Float32Array inputs', () => {
    const rfft = new RealFft(512), rand = seeded(5)
    const x = Float32Array.from({ length: 400 }, rand)
    const padded = new Float64Array(512)
    padded.set(x)
    const a = new Float64Array(2 * rfft.bins), b = new Float64Array(2 * rfft.bins)
    rfft.forward(a, x)
    rfft.forward(b, padded)
    expect(maxAbs(a, b)).toBe(0)
    expect(a[1]).toBe(0)
    expect(a[2 * 256 + 1]).toBe(0)
  })

  it('ignores the imaginary parts of X_0 and X_{N/2} in the inverse, as irfft does', () => {
    const rfft = new RealFft(16)
    const x = Float64Array.from({ length: 16 }, seeded(9))
    const spec = new Float64Array(2 * rfft.bins)
    rfft.forward(spec, x)
    spec[1] = 123; spec[2 * 8 + 1] = -45
    const back = new Float64Array(16)
    rfft.inverse(back, spec)
    expect(maxAbs(back, x)).toBeLessThan(1e-13)
  })
})

describe('radix-4 FFT in and out of place', () => {
  for (const n of [2, 4, 8, 32, 256, 512]) {
    it(`size ${n}: out-of-place (bit-reversed read) equals in-place, forward and inverse; input untouched`, () => {
      const fft = new RadixTwoFft(n)
      const x = Float64Array.from({ length: 2 * n }, seeded(n + 100))
      const copy = x.slice()
      for (const inverse of [false, true]) {
        const outOfPlace = new Float64Array(2 * n), inPlace = x.slice()
        fft.transform(outOfPlace, x, inverse)
        fft.transform(inPlace, inPlace, inverse)
        expect(maxAbs(outOfPlace, inPlace)).toBe(0)
        expect(maxAbs(x, copy)).toBe(0)
      }
    })
  }
})
