/**
 * Two-level mixture weights, `get_partition_weights_from_betas` (OA:...mixture_parquet_storage.py:337-397;
 * docs/reference-pipeline.md §4), and the float32 cumulative distribution the sampler really draws from (§5).
 */
import { compareUtf8 } from '../core/findings.ts'
import { referenceError } from './errors.ts'
import { kahanGroupSum, numpySum } from './float-sums.ts'

/** One TSV row as the weights need it (`hours` NaN when the cell is not a number). */
export interface HoursRow {
  corpus: string
  language: string
  hours: number
}

/** The reference's weight of one (corpus, language) partition, with its two factors. */
export interface PartitionWeight {
  corpus: string
  language: string
  /** Hours of the TSV row that won (the last duplicate). */
  hours: number
  /** `p_c`: corpus weight. */
  corpusWeight: number
  /** `p_{l|c}`: language weight within the corpus. */
  languageWeight: number
  /** `p_c · p_{l|c}` (float64), what the reference's dict holds. */
  weight: number
}

/** Key of a mixture partition in maps: `corpus` and `language` joined by a NUL. */
export function partitionKey(corpus: string, language: string): string {
  return `${corpus}\u0000${language}`
}

/**
 * `(h/T) ** beta` as numpy computes it. `beta` 0.5 uses the correctly rounded square root (what glibc's `pow`
 * returns), 1 is exact, 0 gives 1 (also for 0 ** 0, as numpy); other betas use `Math.pow` (may differ from glibc in
 * the last float64 bit, which the float32 conversion in the sampler absorbs).
 */
function powBeta(x: number, beta: number): number {
  if (beta === 0.5) return x < 0 ? NaN : Math.sqrt(x)
  if (beta === 1) return x
  return Math.pow(x, beta)
}

/** `_compute_sample_weights`: `x_i = (h_i / Σh) ** beta`, returns `x_i / Σx` (float64, NaN-skipping sums). */
export function betaWeights(hours: readonly number[], beta: number): number[] {
  const total = numpySum(hours)
  const x = hours.map((h) => powBeta(h / total, beta))
  const norm = numpySum(x)
  return x.map((v) => v / norm)
}

/**
 * The reference's partition weights from TSV rows, in first-appearance order of (corpus, language).
 * - corpus level: hours summed per corpus (Kahan, as pandas `groupby().sum()`), corpora sorted by name, `betaWeights`;
 * - language level: per corpus, `betaWeights` over that corpus's rows in TSV order (duplicates count separately);
 * - weight = corpus weight × language weight; for a duplicated (corpus, language) the last row wins.
 * @throws when a beta is missing (the reference's bare `assert`).
 */
export function partitionWeightsFromBetas(rows: readonly HoursRow[], betaCorpus: number | null, betaLanguage: number | null): PartitionWeight[] {
  if (betaCorpus === null || betaLanguage === null) {
    throw referenceError('mixture-betas', 'AssertionError', `beta_corpus and beta_language must both be set with a dataset summary (got ${betaCorpus}, ${betaLanguage}).`)
  }
  const corpusHours = kahanGroupSum(rows.map((r) => r.corpus), rows.map((r) => r.hours))
  const corpora = [...corpusHours.keys()].sort(compareUtf8)
  const corpusWeights = betaWeights(corpora.map((c) => corpusHours.get(c) as number), betaCorpus)
  const corpusWeightOf = new Map(corpora.map((c, i) => [c, corpusWeights[i]]))

  const byKey = new Map<string, PartitionWeight>()
  for (const corpus of new Set(rows.map((r) => r.corpus))) {
    const inCorpus = rows.filter((r) => r.corpus === corpus)
    const langWeights = betaWeights(inCorpus.map((r) => r.hours), betaLanguage)
    const corpusWeight = corpusWeightOf.get(corpus) as number
    inCorpus.forEach((r, i) => {
      const key = partitionKey(r.corpus, r.language)
      const entry = { corpus: r.corpus, language: r.language, hours: r.hours, corpusWeight, languageWeight: langWeights[i], weight: corpusWeight * langWeights[i] }
      const previous = byKey.get(key)
      if (previous) Object.assign(previous, entry)
      else byKey.set(key, entry)
    })
  }
  const order = new Map<string, number>()
  rows.forEach((r, i) => { if (!order.has(partitionKey(r.corpus, r.language))) order.set(partitionKey(r.corpus, r.language), i) })
  return [...byKey.entries()].sort((a, b) => (order.get(a[0]) as number) - (order.get(b[0]) as number)).map(([, w]) => w)
}

const REL_TOL_F32 = Math.fround(1e-4)
const TWO_POW_24 = 2 ** 24

/** fairseq2 `are_close` on float32 values: equal, or `|b − a| < 1e-4f · max(|a|, |b|)` in float32 arithmetic. */
export function areCloseF32(a: number, b: number): boolean {
  if (a === b) return true
  const diff = Math.fround(Math.abs(Math.fround(b - a)))
  return diff < Math.fround(REL_TOL_F32 * Math.max(Math.abs(a), Math.abs(b)))
}

/** The sampler's view of the mixture. */
export interface SamplingDistribution {
  /** Weights as float32, in partition order. */
  weights: number[]
  /** Float32 cumulative sums, normalized by the total when it is not close to 1 (what the draw is compared to). */
  cumsums: number[]
  /** Float32 total before normalization. */
  total: number
  /** Whether the cumsums were divided by the total. */
  normalized: boolean
  /**
   * Exact per-partition probability of a draw: the share of the 2^24 possible `u = k·2^-24` whose smallest index
   * with `cumsum ≥ u` is i (the last index also takes every `u` above all cumsums).
   */
  probabilities: number[]
}

/**
 * What `DataPipeline.sample(pipelines, weights)` builds from the float64 weights: float32 conversion, checks,
 * float32 cumsum in order, and normalization in float32 when the total is not within 1e-4 of 1.
 * @throws the reference's `ValueError`s for a weight ≤ 0 or not finite, or an empty list (the Python unpack error).
 */
export function samplingDistribution(weights: readonly number[]): SamplingDistribution {
  if (weights.length === 0) {
    throw referenceError('mixture-empty', 'ValueError', 'not enough values to unpack (expected 2, got 0): no partition of the split has a weight in the dataset summary.')
  }
  const w32 = weights.map((w) => Math.fround(w))
  w32.forEach((w, i) => {
    if (w < 0 || areCloseF32(w, 0)) {
      throw referenceError('mixture-weight', 'ValueError', `The \`weights\` must be greater than 0.0, but the weight at index ${i} is ${w} instead.`)
    }
    if (!Number.isFinite(w)) {
      throw referenceError('mixture-weight', 'ValueError', `The \`weights\` must be finite, but the weight at index ${i} is infinite or NaN instead.`)
    }
  })
  let sum = 0
  const cumsums = w32.map((w) => (sum = Math.fround(sum + w)))
  const normalized = !areCloseF32(sum, 1)
  const final = normalized ? cumsums.map((c) => Math.fround(c / sum)) : cumsums
  const below = (c: number) => Math.min(TWO_POW_24, Math.floor(c * TWO_POW_24) + 1)
  const counts = final.map((c, i) => (i === final.length - 1 ? TWO_POW_24 : below(c)))
  const probabilities = counts.map((n, i) => (n - (i === 0 ? 0 : counts[i - 1])) / TWO_POW_24)
  return { weights: w32, cumsums: final, total: sum, normalized, probabilities }
}
