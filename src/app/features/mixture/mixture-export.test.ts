import { expect, test } from 'vitest'
import { parse } from 'yaml'
import { getPreset, loadRecipe } from '../../../engine/index.ts'
import type { MixtureRow } from '../../../engine/mixture/mixture.ts'
import { languageDistributionTsv, mixtureRecipeYaml } from './mixture-export.ts'

const row = (corpus: string, language: string, hours: number, p: number | null, h: number | null): MixtureRow => ({
  corpus, language, hours, corpus_weight: 0, language_weight: 0, weight: 0.25, in_split: p !== null, sampling_probability: p,
  natural_share: null, mean_seconds: 2, sampled: null, expected: null, audio_share: p, hours_per_steps: h, expected_epochs: null, p_not_drawn: null,
})

test('the recipe block loads back into the same betas (loadRecipe, as the CLI reads --config)', () => {
  const config = { ...getPreset('ctc-finetune').config, beta_corpus: 0.3, beta_language: 0.85, sampling_seed: 7 }
  const yaml = mixtureRecipeYaml({ config })
  expect(parse(yaml)).toEqual({ dataset: { mixture_parquet_storage_config: { beta_corpus: 0.3, beta_language: 0.85, sampling_seed: 7 } } })
  const loaded = loadRecipe(yaml, { name: 'block.yaml' })
  expect(loaded.findings.filter((f) => f.severity === 'error')).toEqual([])
  expect(loaded.config).toMatchObject({ beta_corpus: 0.3, beta_language: 0.85, sampling_seed: 7 })
})

test('TSV has the reference columns first', () => {
  const rows = [row('a', 'x', 1.5, 0.5, 2), row('b', 'x', 0.5, 0.25, 1), row('b', 'y', 2, 0.25, 4), row('c', 'z', 1, null, null)]
  const tsv = languageDistributionTsv({ rows }).trim().split('\n').map((l) => l.split('\t'))
  expect(tsv[0].slice(0, 3)).toEqual(['corpus', 'language', 'hours'])
  expect(tsv.slice(1).map((l) => l.slice(0, 3))).toEqual([['a', 'x', '1.5'], ['b', 'x', '0.5'], ['b', 'y', '2'], ['c', 'z', '1']])
})
