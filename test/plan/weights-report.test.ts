import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defaultPipelineConfig } from '../../src/engine/pipeline/config/defaults.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { weightsReport } from '../../src/engine/mixture/weights-report.ts'
import { query, writeParquet } from '../helpers/duckdb.ts'

let dir: string
let root: string

// train: mls/deu, mls/fra, fleurs/eng; dev: fleurs/fra only (so fleurs/fra is absent from the train split)
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-weights-'))
  root = join(dir, 'version=0')
  await writeParquet(root, `SELECT 'text ' || i AS text, [1, 2]::TINYINT[] AS audio_bytes, (16000 + 1000 * i)::BIGINT AS audio_size,
      c AS corpus, s AS split, l AS language
    FROM (VALUES ('mls', 'train', 'deu_Latn'), ('mls', 'train', 'fra_Latn'), ('fleurs', 'train', 'eng_Latn'), ('fleurs', 'dev', 'fra_Latn')) t(c, s, l),
      range(3) r(i)`, 'PARTITION_BY (corpus, split, language)')
})
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

/** The §4 worked example's TSV. */
const workedTsv = 'corpus\tlanguage\thours\nmls\tdeu_Latn\t1966.5\nmls\tfra_Latn\t1076.6\nfleurs\teng_Latn\t7\nfleurs\tfra_Latn\t10\n'

async function open(tsv: string | null) {
  const summary = tsv === null ? undefined : { path: 'given.tsv', bytes: new TextEncoder().encode(tsv) }
  return openDataset(await createFsSource(root), { summary })
}

function config(split = 'train', beta = 0.5) {
  const c = defaultPipelineConfig()
  c.split = split
  c.beta_corpus = beta
  c.beta_language = beta
  return c
}

describe('weightsReport', () => {
  it('reproduces the worked example of docs/reference-pipeline.md §4, one row per TSV row in TSV order', async () => {
    const r = await weightsReport(await open(workedTsv), config())
    expect(Object.keys(r)).toEqual(['schema_version', 'root', 'source', 'summary_path', 'weights', 'findings'])
    expect(r.source).toBe('tsv')
    expect(r.summary_path).toBe('given.tsv')
    expect(r.weights.map((w) => `${w.corpus}/${w.language}`)).toEqual(['mls/deu_Latn', 'mls/fra_Latn', 'fleurs/eng_Latn', 'fleurs/fra_Latn'])
    expect(Object.keys(r.weights[0])).toEqual(['corpus', 'language', 'hours', 'corpus_weight', 'language_weight', 'weight', 'in_split', 'sampling_probability'])
    const expected = [0.534772, 0.395684, 0.031680, 0.037865]
    r.weights.forEach((w, i) => expect(w.weight).toBeCloseTo(expected[i], 6))
    expect(r.weights[2].corpus_weight).toBeCloseTo(0.069544, 6)
    expect(r.weights[0].corpus_weight).toBeCloseTo(0.930456, 6)
    expect(r.weights.reduce((s, w) => s + w.weight, 0)).toBeCloseTo(1, 12)
  })

  it('gives sampling probabilities only to partitions of the split, renormalized over them', async () => {
    const r = await weightsReport(await open(workedTsv), config())
    expect(r.weights.map((w) => w.in_split)).toEqual([true, true, true, false])
    expect(r.weights[3].sampling_probability).toBeNull()
    const kept = r.weights.slice(0, 3)
    const total = kept.reduce((s, w) => s + w.weight, 0)
    // the sampler's float32 cumsums over 2^24 draws: within 2^-23 of w / Σw (the total is not close to 1, so it renormalizes)
    for (const w of kept) expect(Math.abs((w.sampling_probability as number) - w.weight / total)).toBeLessThan(2 ** -23)
    expect(kept.reduce((s, w) => s + (w.sampling_probability as number), 0)).toBe(1)
  })

  it('has no sampling probabilities for an eval split, and marks what the split holds', async () => {
    const r = await weightsReport(await open(workedTsv), config('dev'))
    expect(r.weights.map((w) => w.in_split)).toEqual([false, false, false, true])
    expect(r.weights.every((w) => w.sampling_probability === null)).toBe(true)
  })

  it('reports a zero-hours row as the sampler error and gives no probabilities', async () => {
    const r = await weightsReport(await open(workedTsv.replace('\t7\n', '\t0\n')), config())
    expect(r.findings.some((f) => f.severity === 'error' && f.kind === 'mixture-weight-invalid')).toBe(true)
    expect(r.weights.every((w) => w.sampling_probability === null)).toBe(true)
    expect(r.weights[2].weight).toBe(0)
  })

  it('reports the no-match AssertionError for a split with no files', async () => {
    const r = await weightsReport(await open(workedTsv), config('test'))
    expect(r.findings.find((f) => f.kind === 'no-parquet-files-for-split')?.message).toContain('No parquet files found for the current split test.')
    expect(r.weights.every((w) => !w.in_split && w.sampling_probability === null)).toBe(true)
  })

  it('derives weights from audio_size when there is no TSV, labelled data, with no sampling', async () => {
    const r = await weightsReport(await open(null), config())
    expect(r.source).toBe('data')
    expect(r.summary_path).toBeNull()
    const hours = await query(`SELECT corpus, language, sum(audio_size) / 16000 / 3600 AS hours
      FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true) GROUP BY ALL ORDER BY corpus, language`)
    expect(r.weights.map((w) => [w.corpus, w.language])).toEqual(hours.map((h) => [h.corpus, h.language]))
    r.weights.forEach((w, i) => expect(w.hours).toBeCloseTo(hours[i].hours as number, 12))
    expect(r.weights.every((w) => w.sampling_probability === null)).toBe(true)
    expect(r.findings.map((f) => f.kind)).toContain('data-derived-weights')
  })
})
