/**
 * `language_distribution_<V>.tsv` as the reference's `compute_stats` writes it (docs/reference-pipeline.md §17):
 * over every split, grouped by (corpus, language), `hours = Σ audio_size / 3600 / 16000`, polars' `write_csv`
 * with a tab separator and a `corpus`, `language`, `hours` header. polars leaves the row order unspecified; here it
 * is sorted by corpus, then language (UTF-8 order), so the same data gives the same bytes.
 */
import { parquetMetadataAsync, parquetReadObjects } from 'hyparquet'
import { hiveKeysOf } from '../dataset/hive.ts'
import { sourceAsyncBuffer } from '../parquet/async-buffer.ts'
import type { DatasetSource } from '../source/source.ts'
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

/** Σ audio_size per (corpus, language) over a written dataset, and the files that could not be counted. */
export interface DatasetSums {
  samples: { corpus: string; language: string; audioSamples: number }[]
  /** Files left out, with why (as pyarrow's `exclude_invalid_files=True` leaves out what it cannot read). */
  excluded: string[]
}

/**
 * Σ `audio_size` per (corpus, language) of every parquet file under a `version=<V>` root, as the reference's
 * `_compute_distribution_stats_internal` reads it (`pyarrow.dataset(root, partitioning="hive",
 * exclude_invalid_files=True)`, OA:hf_dataset_ingestion_example.py:291-305): every split, every run that wrote
 * there, `.`/`_` paths ignored (pyarrow's default `selector_ignore_prefixes`), hive values URI-decoded. Only the
 * `audio_size` column is read.
 */
export async function datasetSums(source: DatasetSource, signal?: AbortSignal): Promise<DatasetSums> {
  const files = (await source.list({ signal }))
    .filter((f) => f.path.endsWith('.parquet') && !f.path.split('/').some((s) => s.startsWith('.') || s.startsWith('_')))
    .sort((a, b) => byPath(a.path, b.path))
  const samples: DatasetSums['samples'] = []
  const excluded: string[] = []
  for (const f of files) {
    const keys = hiveKeysOf(f.path)
    if (keys.corpus === undefined || keys.language === undefined) {
      excluded.push(`${f.path}: no corpus= or language= folder`)
      continue
    }
    let sum = 0
    try {
      const file = sourceAsyncBuffer(source, f.path, f.size, undefined, { signal })
      const metadata = await parquetMetadataAsync(file)
      const rows = await parquetReadObjects({ file, metadata, columns: ['audio_size'] })
      for (const r of rows) {
        const v = r.audio_size
        sum += typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : 0
      }
    } catch (error) {
      signal?.throwIfAborted()
      excluded.push(`${f.path}: ${(error as Error).message}`)
      continue
    }
    samples.push({ corpus: keys.corpus, language: keys.language, audioSamples: sum })
  }
  return { samples, excluded }
}
