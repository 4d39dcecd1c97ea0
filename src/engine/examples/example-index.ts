/**
 * The example index of a dataset: one scan of every readable file's `audio_size` and `text` columns (never audio
 * bytes), kept per open dataset, with the metadata audit's row findings keyed by example id (`metadataRowFindings`,
 * audit/flagged.ts: empty text, fast speech, speaking-rate outliers, foreign script, the length filter, leakage) for
 * the config in use, and the open's findings about single rows. The Examples list, the Inspector's char vocabulary
 * and its per-example findings read it.
 */
import type { RunOptions } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { compareUtf8, type Finding } from '../core/findings.ts'
import { addRowFindings, metadataRowFindings, type RowFindingConfig, type RowFindingMap } from '../audit/flagged.ts'
import { defaultPipelineConfig } from '../pipeline/config/defaults.ts'
import { readAuditRows } from '../audit/rows/rows.ts'
import type { AuditRow } from '../audit/rows/types.ts'

/** Everything the examples scan found for one dataset. */
export interface ExampleIndex {
  rows: AuditRow[]
  /** `foldText` of each transcript, parallel to `rows` ('' for null). */
  folded: string[]
  /** Row findings by example id with the default config (`defaultPipelineConfig`); `indexRowFindings` for another. */
  findings: Map<string, Finding[]>
  /** The open's findings that name a row (e.g. a null cell), part of every config's row findings. */
  openFindings: Finding[]
  /** Every language, corpus and split of the rows, sorted (for filter controls). */
  facets: { languages: string[]; corpora: string[]; splits: string[] }
  rowGroups: number
}

const indexes = new WeakMap<OpenDataset, Promise<ExampleIndex>>()
/** Indexes whose scan has finished. */
const finished = new WeakMap<OpenDataset, ExampleIndex>()
/** The row findings of the last config asked for, per index (`indexRowFindings`). */
const configured = new WeakMap<ExampleIndex, { key: string; findings: RowFindingMap }>()

function rowFindingConfig(config: RowFindingConfig): RowFindingConfig {
  return { split: config.split, min_audio_len: config.min_audio_len, max_audio_len: config.max_audio_len, min_samples_per_char: config.min_samples_per_char }
}

function rowFindingsOf(rows: readonly AuditRow[], openFindings: readonly Finding[], config: RowFindingConfig): RowFindingMap {
  return addRowFindings(metadataRowFindings(rows, config), openFindings)
}

/**
 * The index's row findings with `config` (the audit's for the same config: `metadataRowFindings` and the open's row
 * findings; `null`: the default config, `index.findings`). The last config's are kept per index.
 */
export function indexRowFindings(index: ExampleIndex, config: RowFindingConfig | null): RowFindingMap {
  if (config === null) return index.findings
  const key = JSON.stringify(rowFindingConfig(config))
  if (key === JSON.stringify(rowFindingConfig(defaultPipelineConfig()))) return index.findings
  const known = configured.get(index)
  if (known?.key === key) return known.findings
  const findings = rowFindingsOf(index.rows, index.openFindings, config)
  configured.set(index, { key, findings })
  return findings
}

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
  const openFindings = dataset.findings.filter((f) => f.row !== null)
  const findings = rowFindingsOf(rows, openFindings, defaultPipelineConfig())
  const sorted = (values: Iterable<string>) => [...new Set(values)].filter((v) => v !== '').sort(compareUtf8)
  return {
    rows,
    folded: rows.map((r) => (r.text === null ? '' : foldText(r.text))),
    findings,
    openFindings,
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
