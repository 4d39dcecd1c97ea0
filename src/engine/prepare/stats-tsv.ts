/**
 * `language_distribution_<V>.tsv` as the reference's `compute_stats` writes it (docs/reference-pipeline.md §17):
 * over every split, grouped by (corpus, language), `hours = Σ audio_size / 3600 / 16000`, polars' `write_csv`
 * with a tab separator and a `corpus`, `language`, `hours` header. polars leaves the row order unspecified; here it
 * is sorted by corpus, then language (UTF-8 order), so the same data gives the same bytes.
 */
import { byPath } from './inputs/input-files.ts'

/** polars' float formatting for these values: the shortest round-trip digits, with `.0` on whole numbers. */
export function polarsFloat(x: number): string {
  const s = String(x)
  return /^-?\d+$/.test(s) ? `${s}.0` : s
}

/** The TSV text from Σ audio_size per (corpus, language). */
export function statsTsv(samples: { corpus: string; language: string; audioSamples: number }[]): string {
  const sums = new Map<string, { corpus: string; language: string; samples: number }>()
  for (const s of samples) {
    const key = `${s.corpus}\u0000${s.language}`
    const e = sums.get(key) ?? { corpus: s.corpus, language: s.language, samples: 0 }
    e.samples += s.audioSamples
    sums.set(key, e)
  }
  const rows = [...sums.values()].sort((a, b) => byPath(a.corpus, b.corpus) || byPath(a.language, b.language))
  return ['corpus\tlanguage\thours', ...rows.map((r) => `${r.corpus}\t${r.language}\t${polarsFloat(r.samples / 3600 / 16000)}`)].join('\n') + '\n'
}
