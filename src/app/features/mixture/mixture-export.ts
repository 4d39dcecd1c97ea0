/**
 * What the Mixture view exports: the `mixture_parquet_storage_config` block of a fairseq2 recipe with the tuned
 * betas (YAML, `yaml` package), and the weights as a `language_distribution_0.tsv` (corpus, language, hours, plus
 * the weight and sampling probability columns the reference ignores).
 */
import { stringify } from 'yaml'
import type { MixtureReport } from '../../../engine/mixture/mixture.ts'

/** The recipe block (`dataset.mixture_parquet_storage_config`) with the betas and sampling seed in effect. */
export function mixtureRecipeYaml(report: Pick<MixtureReport, 'config'>): string {
  const c = report.config
  return stringify({
    dataset: {
      mixture_parquet_storage_config: {
        beta_corpus: c.beta_corpus,
        beta_language: c.beta_language,
        sampling_seed: c.sampling_seed,
      },
    },
  })
}

/** TSV text: header `corpus language hours weight sampling_probability`, one line per row, in the report's order. */
export function languageDistributionTsv(report: Pick<MixtureReport, 'rows'>): string {
  const lines = ['corpus\tlanguage\thours\tweight\tsampling_probability']
  for (const r of report.rows) lines.push([r.corpus, r.language, r.hours, r.weight, r.sampling_probability ?? ''].join('\t'))
  return lines.join('\n') + '\n'
}
