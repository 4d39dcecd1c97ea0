/**
 * The example index of a dataset: one scan of every readable file's `audio_size` and `text` columns (never audio
 * bytes), kept per open dataset, with the row-level metadata findings (empty text, fast speech, speaking-rate
 * outliers, foreign script) keyed by example id. The Examples list, the Inspector's char vocabulary and its
 * per-example findings read it.
 */
import type { RunOptions } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { compareUtf8, type Finding } from '../core/findings.ts'
import { checkScript } from '../audit/checks/script.ts'
import { checkText } from '../audit/checks/text.ts'
import { readAuditRows } from '../audit/rows/rows.ts'
import type { AuditRow } from '../audit/rows/types.ts'

/** Everything the examples scan found for one dataset. */
export interface ExampleIndex {
  rows: AuditRow[]
  /** `foldText` of each transcript, parallel to `rows` ('' for null). */
  folded: string[]
  /** Row-level metadata findings by example id. */
  findings: Map<string, Finding[]>
  /** Every language, corpus and split of the rows, sorted (for filter controls). */
  facets: { languages: string[]; corpora: string[]; splits: string[] }
  rowGroups: number
}

const indexes = new WeakMap<OpenDataset, Promise<ExampleIndex>>()
/** Indexes whose scan has finished. */
const finished = new WeakMap<OpenDataset, ExampleIndex>()
/** `min_samples_per_char` the index's findings use (the reference default). */
const defaultMinSamplesPerChar = 160

/** How transcripts are compared in a text search: NFKC-normalized and lower-cased. */
export function foldText(text: string): string {
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
    folded: rows.map((r) => (r.text === null ? '' : foldText(r.text))),
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
      const mine = pending
      pending.then((index) => { if (indexes.get(dataset) === mine) finished.set(dataset, index) }, () => undefined)
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

/** The index when its scan has finished, else `null` (never starts a scan and never waits for one). */
export function finishedExampleIndex(dataset: OpenDataset): ExampleIndex | null {
  return finished.get(dataset) ?? null
}

/** The index when a scan has already finished or started, else `null` (never starts a scan). */
export function existingExampleIndex(dataset: OpenDataset): Promise<ExampleIndex> | null {
  return indexes.get(dataset) ?? null
}
