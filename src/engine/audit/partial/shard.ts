/**
 * `auditShard`: one shard of the data audit (docs/conventions.md "Sharded jobs"). It reads only the row groups of its
 * range (balanced by compressed bytes, src/engine/shard/balance.ts), runs the checks that need the transcripts'
 * characters (script, tokens) and the audio pass on them, and keeps of every row only what the merge needs
 * (src/engine/audit/partial/types.ts). `mergeAuditParts` turns the parts of shards 0…N−1 into the report
 * `auditDataset` gives for the whole dataset.
 */
import { defaultPipelineConfig } from '../../pipeline/config/defaults.ts'
import type { PipelineConfig } from '../../pipeline/config/types.ts'
import type { OpenDataset } from '../../dataset/open.ts'
import type { Finding } from '../../core/findings.ts'
import { rowGroupUnits, shardRange } from '../../shard/balance.ts'
import type { ShardSpec } from '../../shard/select.ts'
import { textMeasure } from '../../text/unicode.ts'
import { audioPass, type AuditOptions } from '../audit.ts'
import { normalizeTranscript } from '../rows/transcript-hashes.ts'
import { checkRanks } from '../checks/ranks.ts'
import { checkScript } from '../checks/script.ts'
import { checkTokens } from '../checks/tokens.ts'
import { contentHash } from '../../core/content-hash.ts'
import { forEachQuickItem, quickAudioCheck } from '../quick-audio.ts'
import { readAuditRows } from '../rows/rows.ts'
import { selectAudioRows } from '../sample.ts'
import type { AuditItem, AuditReport, AuditRow } from '../rows/types.ts'
import type { AuditPart, PartFile, PartUnit } from './types.ts'

/** Options of `auditShard`: the audit's, plus what identifies the tokenizer (its model file differs, the parts differ). */
export interface AuditShardOptions extends AuditOptions {
  /** A fingerprint of the tokenizer model (e.g. `contentHash` of its bytes), when `tokenizer` is given. */
  tokenizerId?: string
}

const utf8 = new TextEncoder()

/** `contentHash` of a string's UTF-8 bytes. */
function hashText(text: string): string {
  return contentHash(utf8.encode(text))
}

/** The report's `options` for this config and audio selection (as `auditDataset` writes them). */
export function auditReportOptions(config: PipelineConfig, options: AuditOptions): Omit<AuditReport['options'], 'max_findings_per_kind'> {
  const sample = options.deep ? 1 : options.sample ?? 0
  return {
    deep: !!options.deep, quick: sample === 0 && !!options.quick, sample, seed: options.seed ?? 0, split: config.split, min_audio_len: config.min_audio_len, max_audio_len: config.max_audio_len,
    min_samples_per_char: config.min_samples_per_char, world_size: config.world_size, tokenizer: !!options.tokenizer,
  }
}

/** Fingerprint of what a dataset is to a sharded audit: its files (paths, sizes, rows, row groups) and its stats TSV. */
export function auditDatasetFingerprint(dataset: OpenDataset): string {
  let known = fingerprints.get(dataset)
  if (known === undefined) fingerprints.set(dataset, known = datasetFingerprint(dataset))
  return known
}

const fingerprints = new WeakMap<OpenDataset, string>()

function datasetFingerprint(dataset: OpenDataset): string {
  return hashText(JSON.stringify([
    dataset.files.map((f) => [f.path, f.size, f.rows, f.readable ? f.rowGroups.length : -1]),
    dataset.summary ? [dataset.summary.path, dataset.summary.rows] : null,
  ]))
}

/** Findings that come from the dataset index itself, not from the data (docs/conventions.md "Dataset index"). */
const indexKinds: ReadonlySet<string> = new Set(['stale-index', 'bad-index'])

/**
 * A dataset opened with its index (`openDataset`'s default), made ready for a shard to cut its range from: the
 * index lists every file's row groups and their compressed bytes, so the shard reads no footer but those of its
 * own files (docs/conventions.md "Dataset index": files the index no longer matches were read again by the open).
 * The audit reads the rows themselves from the data, as always; only the cut comes from the index.
 * @returns the dataset without the index's own findings (`stale-index`, `bad-index`: the unsharded audit, which
 *   never reads the index, has none, and the merge must give its document), and those findings for the caller to
 *   show; `null` when the index lacks a row group's compressed bytes (an older index): open without it instead
 */
export function shardCutFromIndex(dataset: OpenDataset): { dataset: OpenDataset; notes: Finding[] } | null {
  if (dataset.files.some((f) => f.readable && f.rowGroups.some((g) => g.compressedBytes === undefined))) return null
  const notes = dataset.findings.filter((f) => indexKinds.has(f.kind))
  if (notes.length === 0) return { dataset, notes }
  return { dataset: { ...dataset, findings: dataset.findings.filter((f) => !indexKinds.has(f.kind)) }, notes }
}

/** The transcript as the leakage check compares it, or a stand-in with the same behaviour (see `AuditPart.rows`). */
export function transcriptKey(text: string | null): string | null {
  if (text === null || text === '') return text
  const normalized = normalizeTranscript(text)
  return normalized === '' ? ' ' : hashText(normalized)
}

/** Positions in `rows` (the shard's read rows) of the rows the whole dataset's `--sample` selection picks. */
function shardSelection(dataset: OpenDataset, units: readonly { file: number; rowGroup: number }[], range: { first: number; end: number },
  unread: ReadonlySet<string>, fraction: number, seed: number): number[] {
  // every row of every readable row group, as the unsharded audit lists them (each language's rows share one object)
  const byLanguage = new Map<string, { language: string }>()
  const all: { language: string }[] = []
  let start = 0
  units.forEach((u, i) => {
    const file = dataset.files[u.file]
    const language = file.keys.language ?? ''
    let row = byLanguage.get(language)
    if (!row) byLanguage.set(language, row = { language })
    const n = file.rowGroups[u.rowGroup].rows
    if (i < range.first) start += n
    for (let r = 0; r < n; r++) all.push(row)
  })
  const picked = selectAudioRows(all as unknown as AuditRow[], fraction, seed)
  // global row ordinal → position among the shard's read rows
  const positions: number[] = []
  let ordinal = start
  let position = 0
  let p = picked.findIndex((g) => g >= start)
  if (p < 0) return positions
  for (let i = range.first; i < range.end; i++) {
    const u = units[i]
    const file = dataset.files[u.file]
    const n = file.rowGroups[u.rowGroup].rows
    const read = !unread.has(`${file.path}#${u.rowGroup}`)
    while (p < picked.length && picked[p] < ordinal + n) {
      if (read) positions.push(position + (picked[p] - ordinal))
      p++
    }
    ordinal += n
    if (read) position += n
  }
  return positions
}

/**
 * Audits shard `shard` of `dataset`.
 * @returns the part (`audit --shard i/N --out FILE` writes it with `stringifyPart`)
 * @throws the abort reason when `signal` aborts
 */
export async function auditShard(dataset: OpenDataset, shard: Pick<ShardSpec, 'index' | 'count'>, options: AuditShardOptions = {}): Promise<AuditPart> {
  const started = performance.now()
  const config = options.config ?? defaultPipelineConfig()
  const { signal, onProgress } = options
  const counters = dataset.source.counters
  const progress = (phase: 'stats' | 'deep', done: number, total: number) =>
    onProgress?.({ phase, done, total, requests: counters.requests, bytes: counters.bytes })
  const reportOptions = auditReportOptions(config, options)
  const { sample, seed } = reportOptions

  const units = rowGroupUnits(dataset)
  const range = shardRange(units.map((u) => u.bytes), shard.index, shard.count)
  const mine = units.slice(range.first, range.end)
  const wanted = new Set(mine.map((u) => `${u.file}#${u.rowGroup}`))
  const read = await readAuditRows(dataset, { signal, select: (f, g) => wanted.has(`${f}#${g}`), onRowGroup: (d, t) => progress('stats', d, t) })
  const unread = new Set(read.items.filter((i) => i.finding.kind === 'unreadable-row-group').map((i) => `${i.finding.path}#${i.finding.row_group}`))
  const { rows } = read

  const files = new Map<number, PartFile>()
  const partUnits: PartUnit[] = mine.map((u) => {
    const file = dataset.files[u.file]
    if (!files.has(u.file)) files.set(u.file, [u.file, file.path, file.keys.corpus ?? '', file.keys.language ?? '', file.keys.split ?? ''])
    const g = file.rowGroups[u.rowGroup]
    return [u.file, u.rowGroup, g.firstRow, g.rows, unread.has(`${file.path}#${u.rowGroup}`) ? 0 : 1]
  })

  let tokens: AuditPart['tokens'] = null
  if (options.tokenizer) {
    const firstPath: Record<string, string> = {}
    for (const r of rows) if (r.text && !(r.language in firstPath)) firstPath[r.language] = r.path
    tokens = { result: checkTokens(rows, options.tokenizer), firstPath }
  }

  let audio: AuditPart['audio'] = null
  if (sample > 0) {
    const selected = sample === 1 ? undefined : shardSelection(dataset, units, range, unread, sample, seed)
    const measured = await audioPass(dataset, rows, { ...options, sample, seed, selected, progress })
    audio = { rows: selected ? [...selected] : null, measures: measured.map((m) => m.measure) }
  }

  let quick: AuditPart['quick'] = null
  if (reportOptions.quick) {
    const select = (f: number, g: number) => wanted.has(`${f}#${g}`)
    const checked = await quickAudioCheck(dataset, { signal, select, onRows: (d, t) => onProgress?.({ phase: 'audit', done: d, total: t, requests: counters.requests, bytes: counters.bytes }) })
    const items: AuditItem[] = []
    await forEachQuickItem(dataset, checked, (item) => { items.push(item) }, { signal })
    quick = { rows: checked.rows, items, census: checked.censusCounts }
  }

  const script = checkScript(rows)
  const global: AuditPart['global'] = shard.index !== 0 ? null : {
    options: reportOptions, config, files: dataset.files.length,
    rowGroups: dataset.files.reduce((n, f) => n + (f.readable ? f.rowGroups.length : 0), 0),
    findings: dataset.findings, ranks: checkRanks(dataset.files, config), summary: dataset.summary, tokenizer: !!options.tokenizer,
    configFindings: [...options.configFindings ?? []],
  }
  return {
    format: 'mixscope-part', version: 1, kind: 'audit',
    shard: { index: shard.index, count: shard.count },
    dataset: { root: dataset.root, fingerprint: auditDatasetFingerprint(dataset), files: dataset.files.length, units: units.length },
    config: {
      fingerprint: hashText(JSON.stringify([reportOptions, config, options.tokenizerId ?? null])),
      description: `${reportOptions.deep ? 'deep' : sample > 0 ? `sample ${sample} seed ${seed}` : reportOptions.quick ? 'metadata and the cheap audio check' : 'metadata only'}, split ${config.split}, min_audio_len ${config.min_audio_len}, ` +
        `max_audio_len ${config.max_audio_len}, world_size ${config.world_size}${options.tokenizer ? `, tokenizer ${options.tokenizerId ?? 'given'}` : ''}; config ${hashText(JSON.stringify(config))}`,
    },
    range,
    timing: { seconds: (performance.now() - started) / 1000 },
    files: [...files.values()],
    units: partUnits,
    rows: {
      audio_size: rows.map((r) => r.audioSize),
      chars: rows.map((r) => textMeasure(r.text)),
      transcript: rows.map((r) => transcriptKey(r.text)),
    },
    items: read.items,
    script,
    tokens,
    audio,
    quick,
    global,
  }
}
