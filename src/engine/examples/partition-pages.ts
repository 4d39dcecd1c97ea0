/**
 * Paging the examples of a dataset by partition without the example index: the footers (or the dataset index) say
 * how many rows each row group of each file holds, so the matches of a filter on language, corpus and split alone,
 * in dataset order, are known without reading a row; a page reads only the row groups it shows (`audio_size` and
 * `text`). Below the index's row limit the example index (example-index.ts: every transcript in memory) is what a text
 * search, a length bound, "only flagged", a sort or a sample use (above it they stream, text-scan.ts); a plain list
 * never waits for it (docs/architecture.md
 * "Views while the rows are read").
 */
import { compareUtf8 } from '../core/findings.ts'
import type { DatasetFile, RunOptions } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { toNumber, toText } from '../parquet/reader.ts'
import type { ExampleFilter, ExampleNeighbour, ExamplePage, ExampleSample, ExampleSort, ExampleSummary } from './search.ts'

/** Most matches one page returns (as `searchExamples`). */
const MAX_PAGE = 1000
const textChars = 300

/** Whether `filter`, `sample` and `sort` can be answered from the footers: partition keys only, dataset order. */
export function pagesByPartition(filter: ExampleFilter, sample: ExampleSample | null | undefined, sort: ExampleSort | null | undefined): boolean {
  return !sample && !sort && !filter.flaggedOnly && (filter.text?.trim() ?? '') === '' &&
    (filter.minSamples ?? null) === null && (filter.maxSamples ?? null) === null
}

function keyMatches(file: DatasetFile, filter: ExampleFilter): boolean {
  const { corpus = '', language = '', split = '' } = file.keys
  if (filter.languages?.length && !filter.languages.includes(language)) return false
  if (filter.corpora?.length && !filter.corpora.includes(corpus)) return false
  return !(filter.splits?.length && !filter.splits.includes(split))
}

/** The readable files the filter's partition keys keep, in dataset order, with the position of each one's first row. */
export function matchingFiles(dataset: OpenDataset, filter: ExampleFilter): { files: { file: DatasetFile; at: number }[]; total: number } {
  const files: { file: DatasetFile; at: number }[] = []
  let total = 0
  for (const file of dataset.files) {
    if (!file.readable || !keyMatches(file, filter)) continue
    files.push({ file, at: total })
    total += file.rows
  }
  return { files, total }
}

/** Every language, corpus and split of the readable files, sorted (the filter controls' choices). */
export function facetsOfFiles(files: readonly DatasetFile[]): ExamplePage['facets'] {
  const sorted = (key: string) => [...new Set(files.filter((f) => f.readable).map((f) => f.keys[key] ?? ''))].filter((v) => v !== '').sort(compareUtf8)
  return { languages: sorted('language'), corpora: sorted('corpus'), splits: sorted('split') }
}

/**
 * The matches `[offset, offset + limit)` (limit capped at 1,000) of a partition-only `filter`, in dataset order,
 * reading only the row groups they lie in. Rows carry no findings (`rowFindings: false`): the example index has them.
 * A row group that does not read lists its rows with no length and no transcript.
 */
export async function partitionPage(dataset: OpenDataset, filter: ExampleFilter, offset: number, limit: number, options: RunOptions = {}): Promise<ExamplePage> {
  const { files, total } = matchingFiles(dataset, filter)
  const from = Math.max(0, Math.floor(offset))
  const end = Math.min(total, from + Math.min(MAX_PAGE, Math.max(0, Math.floor(limit))))
  const rows: ExampleSummary[] = []
  for (const { file, at } of files) {
    if (at >= end) break
    if (at + file.rows <= from) continue
    for (const group of file.rowGroups) {
      const first = at + group.firstRow
      if (first >= end || first + group.rows <= from) continue
      options.signal?.throwIfAborted()
      const columns = ['audio_size', 'text'].filter((c) => file.columns.some((col) => col.name === c))
      const data = await dataset.parquet.readColumns(file, group.index, columns, { signal: options.signal }).catch((error: unknown) => {
        if (options.signal?.aborted) throw error
        return {} as Record<string, ArrayLike<unknown>>
      })
      for (let i = Math.max(0, from - first); i < group.rows && first + i < end; i++) {
        const n = toNumber(data.audio_size?.[i])
        const text = toText(data.text?.[i])
        const row = group.firstRow + i
        rows.push({
          id: `${file.path}:${row}`, path: file.path, row, rowGroup: group.index,
          corpus: file.keys.corpus ?? '', language: file.keys.language ?? '', split: file.keys.split ?? '',
          audioSize: n !== null && Number.isFinite(n) ? n : null, text: text === null ? null : text.slice(0, textChars),
          findings: 0, severity: null, kinds: [],
        })
      }
    }
  }
  const rowGroups = dataset.files.reduce((n, f) => n + (f.readable ? f.rowGroups.length : 0), 0)
  return {
    total, offset: from, rows, facets: facetsOfFiles(dataset.files),
    indexed: { rows: dataset.files.reduce((n, f) => n + (f.readable ? f.rows : 0), 0), rowGroups },
    audioChecked: false, rowFindings: false,
  }
}

/** The match `step` places after (+1) or before (−1) example `id` under a partition-only filter: reads nothing. */
export function partitionNeighbour(dataset: OpenDataset, filter: ExampleFilter, id: string, step: number): ExampleNeighbour {
  const { files, total } = matchingFiles(dataset, filter)
  const cut = id.lastIndexOf(':')
  const path = id.slice(0, cut)
  const row = Number(id.slice(cut + 1))
  const own = files.find((f) => f.file.path === path)
  if (!own || !Number.isInteger(row) || row < 0 || row >= own.file.rows) return { id: null, index: null, total }
  const next = own.at + row + Math.sign(step)
  if (next < 0 || next >= total) return { id: null, index: null, total }
  // the file holding position `next`: files are few next to rows
  let lo = 0
  let hi = files.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (files[mid].at <= next) lo = mid
    else hi = mid - 1
  }
  const { file, at } = files[lo]
  return { id: `${file.path}:${next - at}`, index: next, total }
}
