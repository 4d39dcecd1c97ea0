/**
 * Filtering and paging the example index (the Examples view): filters on language, corpus, split, stored length and
 * transcript text; "random N per language" draws a seeded sample of the matches for listening audits.
 */
import { compareUtf8, type Finding, type Severity } from '../core/findings.ts'
import { rowFindingSummary } from '../audit/flagged.ts'
import { exampleId } from '../audit/rows/rows.ts'
import type { AuditRow } from '../audit/rows/types.ts'
import { PythonRandom } from '../random/python-random.ts'
import { foldText, type ExampleIndex } from './example-index.ts'

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
  /** Only flagged rows (audit/flagged.ts): the metadata audit's row findings, and the audio check's when it has run. */
  flaggedOnly?: boolean
}

/** The order of a page of matches: dataset order (the default), or by one column, ties in dataset order. */
export interface ExampleSort {
  key: 'length' | 'language' | 'corpus' | 'split' | 'text' | 'findings'
  descending: boolean
}

/** A seeded sample of the matches: `perLanguage` rows of each language (all of them where fewer match). */
export interface ExampleSample {
  perLanguage: number
  seed: number
}

/** One listed example: its id and metadata, the transcript cut to 300 UTF-16 units. */
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
  /**
   * The row's finding count as every view counts it (`rowFindingSummary`, audit/flagged.ts: its distinct kinds, of the
   * metadata audit and of the audio check once it has run), and the worst of their severities (`null` when none).
   */
  findings: number
  severity: Severity | null
  /** Their kinds, worst first (e.g. `undecodable-audio`, `empty-text`), each once. */
  kinds: string[]
}

/** Row findings by example id (`<file>:<row>`). */
export type RowFindings = ReadonlyMap<string, readonly Finding[]>

/** A page of matches. */
export interface ExamplePage {
  /** Matches in all (after sampling). */
  total: number
  offset: number
  rows: ExampleSummary[]
  /** Every language, corpus and split of the dataset's rows, sorted (for the filter controls). */
  facets: ExampleIndex['facets']
  /** Rows and row groups the index holds; row groups that did not read are findings of the Audit, not listed here. */
  indexed: { rows: number; rowGroups: number }
  /** Whether the findings (flags, "only flagged", the findings sort) include the audio check's: it has run. */
  audioChecked: boolean
  /**
   * Whether the rows' metadata findings are in: `false` for a page listed by partition from the footers
   * (partition-pages.ts), before the example index has read every row; absent means they are.
   */
  rowFindings?: boolean
  /**
   * A streamed transcript search (text-scan.ts) that may still be reading: `total` is the matches listed so far, and
   * grows while `scan.state` is `running`. Absent when the page came from the example index or the footers.
   */
  scan?: TextScanStatus
}

/** Where a streamed search stands (`ExamplePage.scan`; src/engine/examples/text-scan.ts). */
export interface TextScanStatus {
  /**
   * `needs-audit`: "only flagged" past the example index's row limit lists the rows an audit flagged, and no audit
   * under the list's config ran yet in this session (`otherConfig`: one ran under another config)
   */
  state: 'running' | 'done' | 'stopped' | 'error' | 'needs-audit'
  /** Rows read of the rows the filter's partitions hold. */
  rowsRead: number
  rowsTotal: number
  /** Matches found so far (the page's `total` is the listed ones: at most `maxHeldMatches`). */
  matches: number
  /** Row groups that could not be read (their rows are counted as read and match nothing; the Audit names them). */
  unreadableRowGroups: number
  /** Why the scan stopped early (`state: 'error'`). */
  error?: string
  /** With `needs-audit`: the latest audit ran under another config than the list's. */
  otherConfig?: boolean
  /**
   * The list's order when not dataset order: `sort`, the first rows of a sort's order (kept while the rows are read:
   * the list is the order of the rows read so far until `done`); `sample`, a seeded sample's picks (listed once the
   * scan is `done`).
   */
  order?: 'sort' | 'sample'
  /** The list holds part of the answer: a sort lists only the first `maxSortedRows` (100,000) rows of its order. */
  capped?: boolean
}

/** The neighbour's id and its position, or `null` at either end (or when the id does not match the filter). */
export interface ExampleNeighbour {
  id: string | null
  index: number | null
  total: number
}

const textChars = 300
/** Most matches one page returns. */
const MAX_PAGE = 1000

/** Whether `row` passes `filter` (`folded` is its folded transcript, `needle` the folded search text). */
function matches(row: AuditRow, folded: string, filter: ExampleFilter, needle: string): boolean {
  if (filter.languages?.length && !filter.languages.includes(row.language)) return false
  if (filter.corpora?.length && !filter.corpora.includes(row.corpus)) return false
  if (filter.splits?.length && !filter.splits.includes(row.split)) return false
  return valuePasses(row.audioSize, folded, filter, needle)
}

/**
 * Whether a row's values pass `filter`'s length bounds and text search (its partition keys are checked apart):
 * `audioSize` in 16 kHz samples (`null`: never within a bound), `folded` its `foldText`ed transcript ('' for null),
 * `needle` the folded search text. The example index and the streamed scan (text-scan.ts) both ask this.
 */
export function valuePasses(audioSize: number | null, folded: string, filter: ExampleFilter, needle: string): boolean {
  const min = filter.minSamples ?? null, max = filter.maxSamples ?? null
  if ((min !== null || max !== null) && audioSize === null) return false
  if (min !== null && (audioSize as number) < min) return false
  if (max !== null && (audioSize as number) > max) return false
  return needle === '' || folded.includes(needle)
}

/** `matched` (indices into `index.rows`) reordered by `sort` (stable: ties keep dataset order; nulls last). */
export function sortMatches(index: ExampleIndex, matched: number[], sort: ExampleSort | null | undefined, findings: RowFindings = index.findings): number[] {
  if (!sort) return matched
  const rows = index.rows
  const value = (i: number): number | string | null => {
    const r = rows[i]
    switch (sort.key) {
      case 'length': return r.audioSize
      case 'language': return r.language
      case 'corpus': return r.corpus
      case 'split': return r.split
      case 'text': return r.text
      case 'findings': return rowFindingSummary(findings.get(exampleId(r)) ?? []).count
    }
  }
  const sign = sort.descending ? -1 : 1
  const keyed = matched.map((i) => [i, value(i)] as const)
  keyed.sort(([i, a], [j, b]) => {
    if (a === null || b === null) return a === null ? (b === null ? i - j : 1) : -1
    const c = typeof a === 'number' && typeof b === 'number' ? a - b : compareUtf8(String(a), String(b))
    return sign * c || i - j
  })
  return keyed.map(([i]) => i)
}

/**
 * Indices into `index.rows` of the matches, in dataset order; with `sample`, `perLanguage` of each language drawn
 * with Python's `random.Random(seed)` (a partial Fisher–Yates shuffle per language, languages in code order, the
 * picks then put back in dataset order).
 */
function matchingRows(index: ExampleIndex, filter: ExampleFilter, sample: ExampleSample | null | undefined, findings: RowFindings): number[] {
  const needle = foldText(filter.text?.trim() ?? '')
  const out: number[] = []
  const flagged = filter.flaggedOnly ? (i: number) => (findings.get(exampleId(index.rows[i]))?.length ?? 0) > 0 : () => true
  for (let i = 0; i < index.rows.length; i++) if (matches(index.rows[i], index.folded[i], filter, needle) && flagged(i)) out.push(i)
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

function summarize(index: ExampleIndex, i: number, findings: RowFindings): ExampleSummary {
  const r = index.rows[i]
  const id = exampleId(r)
  const found = rowFindingSummary(findings.get(id) ?? [])
  return {
    id, path: r.path, row: r.row, rowGroup: r.rowGroup, corpus: r.corpus, language: r.language, split: r.split,
    audioSize: r.audioSize, text: r.text === null ? null : r.text.slice(0, textChars), findings: found.count,
    severity: found.severity, kinds: found.kinds,
  }
}

const withAudio = new WeakMap<RowFindings, { audio: readonly { finding: Finding }[]; findings: RowFindings }>()

/**
 * The index's row findings (`base`, default its default config's: `indexRowFindings` for another) with the audio
 * check's row findings added (`audio`: its items, e.g. an `undecodable-audio` finding each), merged once per
 * (base, audio) pair.
 */
export function rowFindingsWithAudio(index: ExampleIndex, audio: readonly { finding: Finding }[] | null, base: RowFindings = index.findings): RowFindings {
  if (audio === null) return base
  const known = withAudio.get(base)
  if (known?.audio === audio) return known.findings
  const merged = new Map<string, Finding[]>()
  for (const [id, list] of base) merged.set(id, [...list])
  for (const { finding: f } of audio) {
    if (f.row === null) continue
    const id = `${f.path}:${f.row}`
    const list = merged.get(id)
    if (list) list.push(f)
    else merged.set(id, [f])
  }
  withAudio.set(base, { audio, findings: merged })
  return merged
}

/**
 * The matches `[offset, offset + limit)` (limit capped at `MAX_PAGE`) of `filter` (and `sample`), in dataset order or
 * `sort`'s. `findings` are the row findings flags and the findings sort use (default the index's metadata findings;
 * `rowFindingsWithAudio` adds the audio check's, and `audioChecked` says so).
 */
export function searchExamples(index: ExampleIndex, filter: ExampleFilter, sample: ExampleSample | null | undefined, offset: number, limit: number, sort?: ExampleSort | null,
  findings: RowFindings = index.findings, audioChecked = false): ExamplePage {
  const matched = sortMatches(index, matchingRows(index, filter, sample, findings), sort, findings)
  const from = Math.max(0, Math.floor(offset))
  const count = Math.min(MAX_PAGE, Math.max(0, Math.floor(limit)))
  return {
    total: matched.length,
    offset: from,
    rows: matched.slice(from, from + count).map((i) => summarize(index, i, findings)),
    facets: index.facets,
    indexed: { rows: index.rows.length, rowGroups: index.rowGroups },
    audioChecked,
  }
}

/** The match `step` places after (+1) or before (−1) example `id` under the same filter, sample and order. */
export function neighbourExample(index: ExampleIndex, filter: ExampleFilter, sample: ExampleSample | null | undefined, id: string, step: number, sort?: ExampleSort | null,
  findings: RowFindings = index.findings): ExampleNeighbour {
  const matched = sortMatches(index, matchingRows(index, filter, sample, findings), sort, findings)
  const at = matched.findIndex((i) => exampleId(index.rows[i]) === id)
  const next = at < 0 ? -1 : at + Math.sign(step)
  if (at < 0 || next < 0 || next >= matched.length) return { id: null, index: null, total: matched.length }
  return { id: exampleId(index.rows[matched[next]]), index: next, total: matched.length }
}
