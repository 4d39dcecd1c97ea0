/**
 * The one definition of a flagged row (docs/interpretations.md "Flagged rows and row findings"): an example with at
 * least one row finding, a finding whose `row` is set. The audit's row findings are the metadata checks' (text,
 * script, length filter, leakage; tokens with a tokenizer), the open's about single rows, and the audio check's
 * (cheap, or decoded with `--deep`). The Audit view, `audit --json`, `--flagged`, the report, the Examples list
 * ("Only flagged", the findings column) and the Inspector all count them with the functions here: a row's finding
 * count is the number of distinct kinds it carries (`rowFindingSummary`), and its kinds are the audit's kinds.
 *
 * Flagged rows of an audit as JSONL: one line per example with at least one row finding, in dataset order.
 */
import { compareUtf8, sortFindings, type Finding, type Severity } from '../core/findings.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { parseSplit } from '../pipeline/config/split.ts'
import { checkLeakage } from './checks/leakage.ts'
import { checkLengthTable } from './checks/length.ts'
import { rowTableOf } from './rows/row-table.ts'
import { checkScript } from './checks/script.ts'
import { checkText } from './checks/text.ts'
import type { AuditRow } from './rows/types.ts'

/** One line of the export. */
export interface FlaggedRow {
  /** Example id `<file>:<row>`. */
  id: string
  path: string
  row: number
  row_group: number | null
  /** Kinds of the row's findings, sorted, distinct. */
  kinds: string[]
  /** Most severe severity among them. */
  severity: Finding['severity']
}

const rank = { error: 0, warning: 1, info: 2 } as const

/**
 * Rows with row-level findings, optionally only of `kinds` and at least `minSeverity`.
 * @returns rows sorted by path (UTF-8) then row
 */
export function flaggedRows(findings: readonly Finding[], filter: { kinds?: readonly string[]; minSeverity?: Finding['severity'] } = {}): FlaggedRow[] {
  const byRow = new Map<string, FlaggedRow>()
  for (const f of findings) {
    if (f.row === null) continue
    if (filter.kinds && !filter.kinds.includes(f.kind)) continue
    if (filter.minSeverity && rank[f.severity] > rank[filter.minSeverity]) continue
    const id = `${f.path}:${f.row}`
    let r = byRow.get(id)
    if (!r) byRow.set(id, r = { id, path: f.path, row: f.row, row_group: f.row_group, kinds: [], severity: f.severity })
    if (!r.kinds.includes(f.kind)) r.kinds.push(f.kind)
    if (rank[f.severity] < rank[r.severity]) r.severity = f.severity
  }
  return [...byRow.values()]
    .map((r) => ({ ...r, kinds: r.kinds.sort(compareUtf8) }))
    .sort((a, b) => compareUtf8(a.path, b.path) || a.row - b.row)
}

/** `flaggedRows` as JSONL text (one JSON object per line, trailing newline; empty string when nothing is flagged). */
export function flaggedRowsJsonl(findings: readonly Finding[], filter: Parameters<typeof flaggedRows>[1] = {}): string {
  return flaggedRows(findings, filter).map((r) => JSON.stringify(r) + '\n').join('')
}

/**
 * `flaggedRowsJsonl` over findings that come in the order of `sortFindings` (the findings collector's `onFindings`, a
 * path at a time), one line per flagged row as soon as the row's findings are past: holds one row, whatever the
 * number of findings (`audit --flagged` without keeping the findings).
 */
export class FlaggedRowsStream {
  private current: FlaggedRow | null = null

  /** The lines of the rows `findings` completes (a row's findings are neighbours in that order). */
  push(findings: readonly Finding[]): string {
    let out = ''
    for (const f of findings) {
      if (f.row === null) continue
      let r = this.current
      if (!r || r.path !== f.path || r.row !== f.row) {
        out += this.end()
        r = this.current = { id: `${f.path}:${f.row}`, path: f.path, row: f.row, row_group: f.row_group, kinds: [], severity: f.severity }
      }
      if (!r.kinds.includes(f.kind)) r.kinds.push(f.kind)
      if (rank[f.severity] < rank[r.severity]) r.severity = f.severity
    }
    return out
  }

  /** The last row's line ('' when none is open). */
  end(): string {
    const r = this.current
    this.current = null
    return r ? JSON.stringify({ ...r, kinds: r.kinds.sort(compareUtf8) }) + '\n' : ''
  }
}

/** The config keys the metadata row findings depend on (the training split, the length filter, the fast-speech filter). */
export type RowFindingConfig = Pick<PipelineConfig, 'split' | 'min_audio_len' | 'max_audio_len' | 'min_samples_per_char'>

/** Row findings by example id (`<file>:<row>`). */
export type RowFindingMap = Map<string, Finding[]>

/** Adds the findings of `findings` that name a row to `map` (by example id); the others are dropped. */
export function addRowFindings(map: RowFindingMap, findings: Iterable<Finding>): RowFindingMap {
  for (const f of findings) {
    if (f.row === null) continue
    const id = `${f.path}:${f.row}`
    const list = map.get(id)
    if (list) list.push(f)
    else map.set(id, [f])
  }
  return map
}

/**
 * The metadata audit's row findings over `rows` with `config`: the same check functions the audit's metadata pass
 * runs (metadata-pass.ts, on a row table; their row forms give the same items): `empty-text`, `fast-speech`,
 * `speaking-rate-outlier` (text.ts), `foreign-script` (script.ts), `below-min-audio-len` / `above-max-audio-len`
 * (length.ts), `transcript-leakage` (leakage.ts). No audio and no tokenizer: the caller adds the audio check's
 * (`addRowFindings`). Holds every row's findings: the example index's scale, not the audit's (which streams them).
 * @returns findings by example id, each list in `sortFindings` order
 */
export function metadataRowFindings(rows: readonly AuditRow[], config: RowFindingConfig): RowFindingMap {
  const trainSplit = parseSplit(config.split).split
  const map: RowFindingMap = new Map()
  // without the bucket table the length check reads the two bounds only (the bucket fields are not used)
  const lengths = { min_audio_len: config.min_audio_len, max_audio_len: config.max_audio_len, max_num_elements: 0, num_seqs_multiple_of: 1, max_bucket_size: null, batching_strategy: 'STATIC' as const }
  for (const result of [checkLengthTable(rowTableOf(rows), lengths, trainSplit, false), checkText(rows, config.min_samples_per_char), checkScript(rows), checkLeakage(rows, trainSplit)]) {
    addRowFindings(map, result.items.map((i) => i.finding))
  }
  for (const [id, list] of map) map.set(id, sortFindings(list))
  return map
}

/** How one example counts: its distinct kinds (worst severity first, then by name), their number, the worst severity. */
export interface RowFindingSummary {
  /** Distinct kinds: the number every view shows as the example's findings. */
  count: number
  kinds: string[]
  /** `null` when the row carries none. */
  severity: Severity | null
}

/** `RowFindingSummary` of a row's findings (findings that name no row are ignored). */
export function rowFindingSummary(findings: readonly Finding[]): RowFindingSummary {
  const worst = new Map<string, Severity>()
  for (const f of findings) {
    if (f.row === null) continue
    const was = worst.get(f.kind)
    if (was === undefined || rank[f.severity] < rank[was]) worst.set(f.kind, f.severity)
  }
  const kinds = [...worst].sort((a, b) => rank[a[1]] - rank[b[1]] || compareUtf8(a[0], b[0]))
  return { count: kinds.length, kinds: kinds.map(([k]) => k), severity: kinds[0]?.[1] ?? null }
}
