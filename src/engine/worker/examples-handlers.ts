/**
 * The Examples view's engine side: one scan of every readable file's `audio_size` and `text` columns (never audio
 * bytes) per dataset, kept in the worker as an index, then filtered and paged per request; "random N per language"
 * draws a seeded sample of the matches for listening audits. Row-level metadata findings (empty text, fast speech,
 * speaking-rate outliers, foreign script) come with the index, keyed by example id.
 */
import type { RunOptions } from '../dataset.ts'
import type { OpenDataset } from '../discovery/open.ts'
import { compareUtf8, type Finding, type Severity } from '../findings.ts'
import { checkScript } from '../audit/checks/script.ts'
import { checkText } from '../audit/checks/text.ts'
import { exampleId, readAuditRows } from '../audit/rows.ts'
import type { AuditRow } from '../audit/types.ts'
import { PythonRandom } from '../dsp/python-random.ts'
import type { HandlerTable } from './handler-types.ts'

/** Which examples to list. Absent or empty lists mean "any". */
export interface ExampleFilter {
  languages?: string[]
  corpora?: string[]
  splits?: string[]
  /** Smallest stored `audio_size` (16 kHz samples), inclusive; rows with a null size never match a bound. */
  minSamples?: number | null
  /** Largest stored `audio_size` (16 kHz samples), inclusive. */
  maxSamples?: number | null
  /** Case-insensitive substring of the transcript (both sides NFKC-normalized and lower-cased). */
  text?: string
}

/** A seeded sample of the matches: `perLanguage` rows of each language (all of them where fewer match). */
export interface ExampleSample {
  perLanguage: number
  seed: number
}

/** One listed example: its id and metadata, the transcript cut to `textChars` characters. */
export interface ExampleSummary {
  /** `<file>:<row>` (docs/conventions.md "example id"). */
  id: string
  path: string
  row: number
  rowGroup: number
  corpus: string
  language: string
  split: string
  /** Stored `audio_size` (16 kHz samples), `null` when null or missing. */
  audioSize: number | null
  /** Transcript (first 300 UTF-16 units), `null` when null. */
  text: string | null
  /** Metadata findings about this row, and the worst of their severities (`null` when none). */
  findings: number
  severity: Severity | null
}

export interface ExamplesSearchParams {
  dataset: number
  filter: ExampleFilter
  /** First match to return (0-based, in dataset order: file path order, then row). */
  offset: number
  /** Most matches to return (capped at 1000). */
  limit: number
  sample?: ExampleSample | null
}

export interface ExamplesSearchResult {
  /** Matches in all (after sampling). */
  total: number
  offset: number
  rows: ExampleSummary[]
  /** Every language, corpus and split of the dataset's rows, sorted (for the filter controls). */
  facets: { languages: string[]; corpora: string[]; splits: string[] }
  /** Rows and row groups the index holds; row groups that did not read are findings of the Audit, not listed here. */
  indexed: { rows: number; rowGroups: number }
}

/** Parameters of `examples-neighbour`: the match `step` places after (or before) `id`, under the same filter. */
export interface ExamplesNeighbourParams {
  dataset: number
  filter: ExampleFilter
  sample?: ExampleSample | null
  /** `<file>:<row>` (not `id`: that name is the request's own id on the wire). */
  exampleId: string
  /** +1 next, −1 previous. */
  step: number
}

/** The neighbour's id and its position, or `null` at either end (or when `id` does not match the filter). */
export interface ExamplesNeighbourResult {
  id: string | null
  index: number | null
  total: number
}

/** Everything the examples scan found for one dataset. */
export interface ExampleIndex {
  rows: AuditRow[]
  /** NFKC lower-cased transcripts, parallel to `rows` ('' for null). */
  folded: string[]
  /** Row-level metadata findings by example id. */
  findings: Map<string, Finding[]>
  facets: ExamplesSearchResult['facets']
  rowGroups: number
}

const indexes = new WeakMap<OpenDataset, Promise<ExampleIndex>>()
const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 }
/** `min_samples_per_char` the list's findings use (the reference default). */
const defaultMinSamplesPerChar = 160
const textChars = 300
const maxLimit = 1000

function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase()
}

async function buildIndex(dataset: OpenDataset, options: RunOptions): Promise<ExampleIndex> {
  const counters = dataset.source.counters
  const read = await readAuditRows(dataset, {
    signal: options.signal,
    onRowGroup: (done, total) => options.onProgress?.({ phase: 'stats', done, total, requests: counters.requests, bytes: counters.bytes }),
  })
  const { rows } = read
  const findings = new Map<string, Finding[]>()
  for (const result of [checkText(rows, defaultMinSamplesPerChar), checkScript(rows)]) {
    for (const item of result.items) {
      const f = item.finding
      if (f.row === null) continue
      const id = `${f.path}:${f.row}`
      const list = findings.get(id)
      if (list) list.push(f)
      else findings.set(id, [f])
    }
  }
  const sorted = (values: Iterable<string>) => [...new Set(values)].filter((v) => v !== '').sort(compareUtf8)
  return {
    rows,
    folded: rows.map((r) => (r.text === null ? '' : fold(r.text))),
    findings,
    facets: { languages: sorted(rows.map((r) => r.language)), corpora: sorted(rows.map((r) => r.corpus)), splits: sorted(rows.map((r) => r.split)) },
    rowGroups: read.rowGroups,
  }
}

/**
 * The dataset's example index, scanning once (concurrent callers share the scan). A scan aborted by one caller is
 * restarted for a caller whose own signal is still live.
 */
export async function exampleIndex(dataset: OpenDataset, options: RunOptions = {}): Promise<ExampleIndex> {
  for (;;) {
    options.signal?.throwIfAborted()
    let pending = indexes.get(dataset)
    if (!pending) {
      pending = buildIndex(dataset, options)
      indexes.set(dataset, pending)
      pending.catch(() => { if (indexes.get(dataset) === pending) indexes.delete(dataset) })
    }
    try {
      return await pending
    } catch (error) {
      options.signal?.throwIfAborted()
      if ((error as Error).name !== 'AbortError') throw error
    }
  }
}

/** The index when a scan has already finished or started, else `null` (never starts a scan). */
export function existingExampleIndex(dataset: OpenDataset): Promise<ExampleIndex> | null {
  return indexes.get(dataset) ?? null
}

/** Whether `row` passes `filter` (`folded` is its folded transcript, `needle` the folded search text). */
function matches(row: AuditRow, folded: string, filter: ExampleFilter, needle: string): boolean {
  if (filter.languages?.length && !filter.languages.includes(row.language)) return false
  if (filter.corpora?.length && !filter.corpora.includes(row.corpus)) return false
  if (filter.splits?.length && !filter.splits.includes(row.split)) return false
  const min = filter.minSamples ?? null, max = filter.maxSamples ?? null
  if ((min !== null || max !== null) && row.audioSize === null) return false
  if (min !== null && (row.audioSize as number) < min) return false
  if (max !== null && (row.audioSize as number) > max) return false
  return needle === '' || folded.includes(needle)
}

/**
 * Indices into `index.rows` of the matches, in dataset order; with `sample`, `perLanguage` of each language drawn
 * with Python's `random.Random(seed)` (a partial Fisher–Yates shuffle per language, languages in code order, the
 * picks then put back in dataset order).
 */
export function matchingRows(index: ExampleIndex, filter: ExampleFilter, sample?: ExampleSample | null): number[] {
  const needle = fold(filter.text?.trim() ?? '')
  const out: number[] = []
  for (let i = 0; i < index.rows.length; i++) if (matches(index.rows[i], index.folded[i], filter, needle)) out.push(i)
  if (!sample) return out
  const rng = new PythonRandom(sample.seed)
  const byLanguage = new Map<string, number[]>()
  for (const i of out) {
    const language = index.rows[i].language
    const list = byLanguage.get(language)
    if (list) list.push(i)
    else byLanguage.set(language, [i])
  }
  const picked: number[] = []
  const want = Math.max(0, Math.floor(sample.perLanguage))
  for (const language of [...byLanguage.keys()].sort(compareUtf8)) {
    const list = byLanguage.get(language)!
    const n = Math.min(want, list.length)
    for (let k = 0; k < n; k++) {
      const j = rng.randint(k, list.length - 1)
      ;[list[k], list[j]] = [list[j], list[k]]
    }
    picked.push(...list.slice(0, n))
  }
  return picked.sort((a, b) => a - b)
}

function summarize(index: ExampleIndex, i: number): ExampleSummary {
  const r = index.rows[i]
  const id = exampleId(r)
  const found = index.findings.get(id) ?? []
  let severity: Severity | null = null
  for (const f of found) if (severity === null || severityRank[f.severity] < severityRank[severity]) severity = f.severity
  return {
    id, path: r.path, row: r.row, rowGroup: r.rowGroup, corpus: r.corpus, language: r.language, split: r.split,
    audioSize: r.audioSize, text: r.text === null ? null : r.text.slice(0, textChars), findings: found.length, severity,
  }
}

/** Handlers of `examples-search` (a page of matches) and `examples-neighbour` (next/previous match of an id). */
export const examplesHandlers: HandlerTable<'examples-search' | 'examples-neighbour'> = {
  'examples-search': async (message, options, context) => {
    const index = await exampleIndex(context.dataset(message.dataset), options)
    const matched = matchingRows(index, message.filter, message.sample)
    const offset = Math.max(0, Math.floor(message.offset))
    const limit = Math.min(maxLimit, Math.max(0, Math.floor(message.limit)))
    return {
      total: matched.length,
      offset,
      rows: matched.slice(offset, offset + limit).map((i) => summarize(index, i)),
      facets: index.facets,
      indexed: { rows: index.rows.length, rowGroups: index.rowGroups },
    }
  },
  'examples-neighbour': async (message, options, context) => {
    const index = await exampleIndex(context.dataset(message.dataset), options)
    const matched = matchingRows(index, message.filter, message.sample)
    const at = matched.findIndex((i) => exampleId(index.rows[i]) === message.exampleId)
    const next = at < 0 ? -1 : at + Math.sign(message.step)
    if (at < 0 || next < 0 || next >= matched.length) return { id: null, index: null, total: matched.length }
    return { id: exampleId(index.rows[matched[next]]), index: next, total: matched.length }
  },
}

/** The request kinds of this module, as protocol.ts `Requests` entries. */
export interface ExamplesRequests {
  'examples-search': { params: ExamplesSearchParams; result: ExamplesSearchResult }
  'examples-neighbour': { params: ExamplesNeighbourParams; result: ExamplesNeighbourResult }
}
