import { describe, expect, it } from 'vitest'
import { areCloseF32, betaWeights, partitionWeightsFromBetas, samplingDistribution } from '../../src/engine/pipeline/weights.ts'
import { kahanGroupSum, numpySum } from '../../src/engine/pipeline/float-sums.ts'

const tsv = [
  { corpus: 'mls', language: 'deu_Latn', hours: 1966.5 },
  { corpus: 'mls', language: 'fra_Latn', hours: 1076.6 },
  { corpus: 'fleurs', language: 'eng_Latn', hours: 7 },
  { corpus: 'fleurs', language: 'fra_Latn', hours: 10 },
]

describe('partitionWeightsFromBetas', () => {
  it('reproduces the worked example of docs/reference-pipeline.md §4 (betas 0.5)', () => {
    const w = partitionWeightsFromBetas(tsv, 0.5, 0.5)
    const by = Object.fromEntries(w.map((x) => [`${x.language}/${x.corpus}`, x]))
    expect(by['deu_Latn/mls'].corpusWeight).toBeCloseTo(0.930456, 6)
    expect(by['eng_Latn/fleurs'].corpusWeight).toBeCloseTo(0.069544, 6)
    expect(by['deu_Latn/mls'].weight).toBeCloseTo(0.534772, 6)
    expect(by['fra_Latn/mls'].weight).toBeCloseTo(0.395684, 6)
    expect(by['eng_Latn/fleurs'].weight).toBeCloseTo(0.031680, 6)
    expect(by['fra_Latn/fleurs'].weight).toBeCloseTo(0.037865, 6)
    expect(w.reduce((a, x) => a + x.weight, 0)).toBeCloseTo(1, 12)
    expect(w.map((x) => `${x.corpus}/${x.language}`)).toEqual(['mls/deu_Latn', 'mls/fra_Latn', 'fleurs/eng_Latn', 'fleurs/fra_Latn'])
  })

  it('beta 1 is proportional to hours and beta 0 is uniform (0 ** 0 = 1)', () => {
    const rows = [...tsv, { corpus: 'fleurs', language: 'zul_Latn', hours: 0 }]
    const p = partitionWeightsFromBetas(rows, 1, 1)
    const total = rows.reduce((a, r) => a + r.hours, 0)
    for (const x of p) expect(x.weight).toBeCloseTo(x.hours / total, 12)
    const u = partitionWeightsFromBetas(rows, 0, 0)
    expect(u.map((x) => x.weight)).toEqual([0.25, 0.25, 1 / 6, 1 / 6, 1 / 6])
  })

  it('a duplicated (corpus, language) counts twice in the sums and the last row wins', () => {
    const rows = [
      { corpus: 'c', language: 'a', hours: 1 },
      { corpus: 'c', language: 'b', hours: 4 },
      { corpus: 'c', language: 'a', hours: 9 },
      { corpus: 'd', language: 'x', hours: 2 },
    ]
    const w = partitionWeightsFromBetas(rows, 1, 0.5)
    // corpus c has 14 h, d 2 h → p_c 14/16; language weights over [1, 4, 9] with beta .5 → sqrt ratios [1, 2, 3]/6
    const a = w.find((x) => x.language === 'a')!
    expect(w.length).toBe(3)
    expect(a.hours).toBe(9)
    expect(a.languageWeight).toBeCloseTo(3 / 6, 15)
    expect(a.weight).toBeCloseTo((14 / 16) * (3 / 6), 15)
  })

  it('a NaN hours row gets a NaN weight and leaves the others untouched (pandas skipna)', () => {
    const w = partitionWeightsFromBetas([...tsv, { corpus: 'mls', language: 'nan_Row', hours: NaN }], 0.5, 0.5)
    expect(Number.isNaN(w[4].weight)).toBe(true)
    expect(w[0].weight).toBe(partitionWeightsFromBetas(tsv, 0.5, 0.5)[0].weight)
  })

  it('requires both betas', () => {
    expect(() => partitionWeightsFromBetas(tsv, null, 0.5)).toThrow(/AssertionError/)
  })
})

describe('float64 summation orders', () => {
  it('numpySum follows numpy pairwise summation (differs from a left-to-right loop)', () => {
    // 9 values: pairwise = ((a0+a8... 8 accumulators) then + a8; chosen so that the order changes the result
    const v = [1e16, 1, 1, 1, 1, 1, 1, 1, 1]
    // numpy: r = v[0..7]; res = ((1e16+1)+(1+1))+((1+1)+(1+1)) + 1 → 1e16 + 2 + 4 + 1 (each step rounds)
    const expected = (((1e16 + 1) + (1 + 1)) + ((1 + 1) + (1 + 1))) + 1
    expect(numpySum(v)).toBe(expected)
    expect(numpySum(v)).not.toBe(v.reduce((a, b) => a + b, 0))
  })

  it('kahanGroupSum compensates rounding per group', () => {
    const keys = ['a', 'a', 'a', 'b']
    const sums = kahanGroupSum(keys, [1e16, 1, 1, 5])
    expect(sums.get('a')).toBe(1e16 + 2)
    expect(sums.get('b')).toBe(5)
  })

  it('betaWeights normalizes to 1', () => {
    expect(betaWeights([1, 3], 1)).toEqual([0.25, 0.75])
  })
})

describe('samplingDistribution (float32, as the C++ sampler)', () => {
  it('converts to float32 and leaves cumsums alone when the total is within 1e-4 of 1', () => {
    const d = samplingDistribution([0.1, 0.2, 0.7])
    expect(d.weights).toEqual([Math.fround(0.1), Math.fround(0.2), Math.fround(0.7)])
    expect(d.normalized).toBe(false)
    expect(d.cumsums[1]).toBe(Math.fround(Math.fround(0.1) + Math.fround(0.2)))
    expect(d.cumsums[2]).toBe(d.total)
  })

  it('normalizes in float32 when the total is not close to 1', () => {
    const d = samplingDistribution([1, 1, 2])
    expect(d.normalized).toBe(true)
    expect(d.cumsums).toEqual([0.25, 0.5, 1])
    // u = k·2^-24 for k in [0, 2^24): index 0 takes k = 0..2^22 (2^22 + 1 values), index 1 the next 2^22
    expect(d.probabilities.map((p) => p * 2 ** 24)).toEqual([2 ** 22 + 1, 2 ** 22, 2 ** 23 - 1])
  })

  it('probabilities count the 2^24 possible draws exactly', () => {
    const d = samplingDistribution([0.3, 0.7])
    const c0 = Math.fround(0.3)
    expect(d.probabilities[0]).toBe((Math.floor(c0 * 2 ** 24) + 1) / 2 ** 24)
    expect(d.probabilities[0] + d.probabilities[1]).toBe(1)
  })

  it('are_close uses the relative tolerance 1e-4', () => {
    expect(areCloseF32(1, 1.00009)).toBe(true)
    expect(areCloseF32(1, 1.0002)).toBe(false)
    expect(samplingDistribution([0.5, 0.50005]).normalized).toBe(false)
  })

  it('raises the reference errors for bad weights', () => {
    expect(() => samplingDistribution([0.5, 0])).toThrow('The `weights` must be greater than 0.0, but the weight at index 1 is 0 instead.')
    expect(() => samplingDistribution([-1])).toThrow('the weight at index 0 is -1 instead')
    expect(() => samplingDistribution([0.5, NaN])).toThrow('The `weights` must be finite, but the weight at index 1 is infinite or NaN instead.')
    expect(() => samplingDistribution([])).toThrow(/not enough values to unpack/)
  })
})
