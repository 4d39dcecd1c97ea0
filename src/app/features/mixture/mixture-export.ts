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

/** Hours per language in the report's steps (Σ over corpora), most first; languages without a sampler share are left out. */
export function hoursPerLanguage(report: Pick<MixtureReport, 'rows'>): { language: string; hours: number; share: number }[] {
  const by = new Map<string, { hours: number; share: number }>()
  for (const r of report.rows) {
    if (r.hours_per_steps === null) continue
    const e = by.get(r.language) ?? { hours: 0, share: 0 }
    e.hours += r.hours_per_steps
    e.share += r.audio_share ?? 0
    by.set(r.language, e)
  }
  return [...by].map(([language, e]) => ({ language, ...e })).sort((a, b) => b.hours - a.hours || (a.language < b.language ? -1 : 1))
}
