/**
 * `mixtureWeightsAt` over a `mixtureBasis` (the Mixture view's cheap update when a beta moves) gives, column for
 * column, the numbers of a full `mixtureReport` at the same betas: TSV and data-derived rows, a split with a row not
 * in it, eval, a duplicated TSV row, a zero-hour row the sampler rejects, the demo dataset; and the §4 worked example.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defaultPipelineConfig } from '../../src/engine/pipeline/config/defaults.ts'
import { openDataset, type OpenDataset } from '../../src/engine/dataset/open.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { computeStats } from '../../src/engine/dataset/stats.ts'
import { mixtureReport } from '../../src/engine/mixture/mixture.ts'
import { mixtureBasis, mixtureWeightsAt } from '../../src/engine/mixture/mixture-weights.ts'
import { writeParquet } from '../helpers/duckdb.ts'

let dir: string
let root: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-mixture-weights-'))
  root = join(dir, 'version=0')
  await writeParquet(root, `SELECT 'text ' || i AS text, [1, 2]::TINYINT[] AS audio_bytes, (16000 + 1000 * i)::BIGINT AS audio_size,
      c AS corpus, s AS split, l AS language
    FROM (VALUES ('mls', 'train', 'deu_Latn'), ('mls', 'train', 'fra_Latn'), ('fleurs', 'train', 'eng_Latn'), ('fleurs', 'dev', 'fra_Latn')) t(c, s, l),
      range(3) r(i)`, 'PARTITION_BY (corpus, split, language)')
})
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

const workedTsv = 'corpus\tlanguage\thours\nmls\tdeu_Latn\t1966.5\nmls\tfra_Latn\t1076.6\nfleurs\teng_Latn\t7\nfleurs\tfra_Latn\t10\n'

async function open(tsv: string | null, at = root) {
  const summary = tsv === null ? undefined : { path: 'given.tsv', bytes: new TextEncoder().encode(tsv) }
  return openDataset(await createFsSource(at), { summary })
}

function config(split: string, betaCorpus: number, betaLanguage: number) {
  return { ...defaultPipelineConfig(), split, beta_corpus: betaCorpus, beta_language: betaLanguage }
}

/** The basis is built once at (0.5, 0.5); every other pair is the cheap path against a full report. */
async function expectSameAsReport(dataset: OpenDataset, split: string) {
  const stats = await computeStats(dataset)
  const basis = mixtureBasis(dataset, config(split, 0.5, 0.5), stats)
  for (const [bc, bl] of [[0.5, 0.5], [0.51, 0.5], [0.5, 0.49], [0, 0], [1, 1], [0.3, 0.8]]) {
    const full = await mixtureReport(dataset, config(split, bc, bl), { draws: 100, steps: 10, stats })
    const cheap = mixtureWeightsAt(basis, bc, bl)
    expect(cheap.rows).toBe(full.rows.length)
    expect(cheap.weight, `weight at ${bc}/${bl}`).toEqual(full.rows.map((r) => r.weight))
    expect(cheap.corpus_weight).toEqual(full.rows.map((r) => r.corpus_weight))
    expect(cheap.language_weight).toEqual(full.rows.map((r) => r.language_weight))
    expect(cheap.sampling_probability, `p at ${bc}/${bl}`).toEqual(full.rows.map((r) => r.sampling_probability))
    expect(cheap.audio_share, `audio share at ${bc}/${bl}`).toEqual(full.rows.map((r) => r.audio_share))
    expect(basis.inSplit).toEqual(full.rows.map((r) => r.in_split))
    expect(basis.rows.map((r) => `${r.corpus}/${r.language}`)).toEqual(full.rows.map((r) => `${r.corpus}/${r.language}`))
  }
  return basis
}

describe('mixtureWeightsAt', () => {
  it('gives the §4 worked example and the full report’s numbers for a TSV train split', async () => {
    const basis = await expectSameAsReport(await open(workedTsv), 'train')
    const w = mixtureWeightsAt(basis, 0.5, 0.5)
    ;[0.534772, 0.395684, 0.031680, 0.037865].forEach((x, i) => expect(w.weight[i]).toBeCloseTo(x, 6))
    expect(w.sampling_probability[3]).toBeNull() // fleurs/fra is not in the train split
    expect((w.sampling_probability.slice(0, 3) as number[]).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6)
  })
  it('eval and data-derived rows have no sampling probability, as in the full report', async () => {
    const dev = await expectSameAsReport(await open(workedTsv), 'dev')
    expect(mixtureWeightsAt(dev, 0.2, 0.7).sampling_probability.every((p) => p === null)).toBe(true)
    const data = await expectSameAsReport(await open(null), 'train')
    expect(data.source).toBe('data')
    expect(mixtureWeightsAt(data, 0.2, 0.7).sampling_probability.every((p) => p === null)).toBe(true)
  })
  it('a duplicated TSV row (the last wins) and a zero-hour row the sampler rejects', async () => {
    await expectSameAsReport(await open(workedTsv + 'mls\tdeu_Latn\t5\n'), 'train')
    const zero = await expectSameAsReport(await open('corpus\tlanguage\thours\nmls\tdeu_Latn\t0\nmls\tfra_Latn\t3\nfleurs\teng_Latn\t7\n'), 'train')
    expect(mixtureWeightsAt(zero, 0.5, 0.5).sampling_probability.every((p) => p === null)).toBe(true)
  })
  it('the demo dataset', async () => {
    const demo = await openDataset(await createFsSource(join(import.meta.dirname, '../../public/demo/version=0')))
    expect(demo.summary).not.toBeNull()
    await expectSameAsReport(demo, 'train')
  })
})
