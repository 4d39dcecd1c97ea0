/**
 * `AuditMerger`: the parts of shards 0…N−1 of an audit (src/engine/audit/partial/shard.ts) → the report
 * `auditDataset` gives for the whole dataset, byte for byte once printed (docs/conventions.md "Sharded jobs").
 *
 * The dataset-level checks run here, on the checks' own code and on the same columns (src/engine/audit/rows/row-table.ts)
 * as in the unsharded audit: each part's rows come back as columns without their transcript (file, row, keys and
 * `audio_size` are all the splits, mixture and length checks read), the text check gets the transcripts' lengths in
 * code points, the leakage check a key per row that compares as the normalized transcript does (its hash); the audio
 * check runs on the parts' measures. Only the script and token checks, which need the characters, ran in the
 * shards: their per-language tables and findings are added up here. Parts are added one at a time and kept as typed
 * arrays (33 bytes of columns per row; 57 bytes kept per row in all, measured on 1,000 parts of 1,000 rows), so
 * memory grows with the rows by that much, never with the parts' text; the peak is the findings and the report. The
 * decoded rows' measures are kept too, but not their near-duplicate fingerprints: each part's go to a spill as it is
 * added (src/engine/audit/fingerprint-spill.ts, files in the CLI's merge) and the search reads them back from there.
 */
import { parseSplit } from '../../pipeline/config/split.ts'
import { compareUtf8, finding, MixscopeError } from '../../core/findings.ts'
import { checkPartSet, type NamedPart } from '../../shard/part.ts'
import { checkAudio, type MeasuredRow } from '../checks/audio.ts'
import { checkLeakageTable } from '../checks/leakage.ts'
import { normalizeTranscript } from '../rows/transcript-hashes.ts'
import { checkLengthTable } from '../checks/length.ts'
import { checkMixtureTable } from '../checks/mixture.ts'
import { checkSplitsTable } from '../checks/splits.ts'
import { checkTextTable } from '../checks/text.ts'
import { unknownRateWarning } from '../checks/tokens.ts'
import { quickCensusTable } from '../quick-audio.ts'
import { assembleReport } from '../assemble-report.ts'
import { FindingsCollector, type CollectorOptions, type FinishOptions } from '../../core/findings-sink.ts'
import { auditRowAt, tableSamples, type RowTable, type TableFile } from '../rows/row-table.ts'
import type { AudioMeasure, AuditItem, AuditReport, CheckResult, TableRow } from '../rows/types.ts'
import type { AuditPart, AuditPartGlobal } from './types.ts'
import { memoryBuckets, type RandomAccessBuckets } from '../../core/byte-buckets.ts'
import { checkNearDuplicatesSpilled, FingerprintSpill, splitFingerprints, type FingerprintLocations, type SpilledNearDuplicateOptions } from '../fingerprint-spill.ts'

/** One added part in the form the merge keeps. */
interface Kept {
  name: string
  header: AuditPart
  rows: PartRows
  /** Code points per row (`-1`: no text). */
  chars: Int32Array
  transcripts: TranscriptKeys
  measured: MeasuredRow[]
  /** Where the measured rows' fingerprints lie in the merge's spill, once written. */
  fingerprints: Promise<FingerprintLocations> | null
  unread: number
}

/** A part's rows as columns (`RowTable`'s, with `fileOf` into the part's own files). */
interface PartRows {
  files: TableFile[]
  /** Per file of `files`: its index in `dataset.files`. */
  datasetFiles: number[]
  fileOf: Int32Array
  row: Float64Array
  rowGroup: Int32Array
  audioSize: Float64Array
}

/**
 * The parts' transcript keys (`AuditPart.rows.transcript`) held compactly: a kind per row (null, `''`, `' '`, a
 * 16-hex-digit hash as two 32-bit halves, or another string kept as is), turned back into the same strings on demand.
 */
class TranscriptKeys {
  private constructor(readonly kinds: Uint8Array, readonly hi: Uint32Array, readonly lo: Uint32Array, readonly other: Map<number, string>) {}

  static of(keys: readonly (string | null)[]): TranscriptKeys {
    const n = keys.length
    const t = new TranscriptKeys(new Uint8Array(n), new Uint32Array(n), new Uint32Array(n), new Map())
    keys.forEach((k, i) => {
      if (k === null) t.kinds[i] = 0
      else if (k === '') t.kinds[i] = 1
      else if (k === ' ') t.kinds[i] = 2
      else if (/^[0-9a-f]{16}$/.test(k)) {
        t.kinds[i] = 3
        t.hi[i] = parseInt(k.slice(0, 8), 16)
        t.lo[i] = parseInt(k.slice(8), 16)
      } else {
        t.kinds[i] = 4
        t.other.set(i, k)
      }
    })
    return t
  }

  static concat(parts: readonly TranscriptKeys[]): TranscriptKeys {
    const n = parts.reduce((s, p) => s + p.kinds.length, 0)
    const t = new TranscriptKeys(new Uint8Array(n), new Uint32Array(n), new Uint32Array(n), new Map())
    let at = 0
    for (const p of parts) {
      t.kinds.set(p.kinds, at)
      t.hi.set(p.hi, at)
      t.lo.set(p.lo, at)
      for (const [i, k] of p.other) t.other.set(at + i, k)
      at += p.kinds.length
    }
    return t
  }

  /**
   * Row `i`'s leakage key (`checkLeakageTable`'s `keyOf`): `undefined` without a transcript, `''` for one empty once
   * normalized, else a short string equal exactly when the hashes (or the kept strings, normalized) are.
   */
  key(i: number): string | undefined {
    switch (this.kinds[i]) {
      case 0: case 1: return undefined
      case 2: return ''
      case 3: {
        const hi = this.hi[i]
        const lo = this.lo[i]
        return String.fromCharCode(35, hi >>> 16, hi & 0xffff, lo >>> 16, lo & 0xffff)
      }
      default: {
        const normalized = normalizeTranscript(this.other.get(i)!)
        return normalized && `=${normalized}`
      }
    }
  }
}

function concatInt32(parts: readonly Int32Array[]): Int32Array {
  const out = new Int32Array(parts.reduce((s, p) => s + p.length, 0))
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}

function mergeError(message: string): MixscopeError {
  return new MixscopeError(`merge: ${message}`, 'bad-parts', 'usage')
}

/** Rows of one part as columns, rebuilt from its file and unit tables (transcripts left out). */
function rowsOf(name: string, part: AuditPart): PartRows {
  const local = new Map<number, number>()
  const files: TableFile[] = []
  const datasetFiles: number[] = []
  part.files.forEach((f, i) => {
    const [index, path, corpus, language, split] = f
    local.set(index, i)
    files.push({ path, corpus, language, split })
    datasetFiles.push(index)
  })
  const sizes = part.rows.audio_size
  const n = sizes.length
  const total = part.units.reduce((s, u) => s + (u[4] ? u[3] : 0), 0)
  if (total !== n || part.rows.chars.length !== n || part.rows.transcript.length !== n) {
    throw mergeError(`${name} is damaged: its row groups hold ${total} rows but its columns ${n}, ${part.rows.chars.length}, ${part.rows.transcript.length}`)
  }
  const fileOf = new Int32Array(n)
  const row = new Float64Array(n)
  const rowGroup = new Int32Array(n)
  const audioSize = new Float64Array(n)
  let k = 0
  for (const [fileIndex, group, firstRow, count, read] of part.units) {
    if (!read) continue
    const f = local.get(fileIndex)
    if (f === undefined) throw mergeError(`${name} names file ${fileIndex} in its row groups but not in its files`)
    for (let i = 0; i < count; i++, k++) {
      fileOf[k] = f
      row[k] = firstRow + i
      rowGroup[k] = group
      audioSize[k] = sizes[k] ?? NaN
    }
  }
  return { files, datasetFiles, fileOf, row, rowGroup, audioSize }
}

/** The parts' rows as one table, in part order. */
function tableOf(parts: readonly PartRows[]): RowTable {
  const n = parts.reduce((s, p) => s + p.fileOf.length, 0)
  const files: TableFile[] = []
  const fileOf = new Int32Array(n)
  const row = new Float64Array(n)
  const rowGroup = new Int32Array(n)
  const audioSize = new Float64Array(n)
  let at = 0
  for (const p of parts) {
    const base = files.length
    for (const f of p.files) files.push(f)
    for (let i = 0; i < p.fileOf.length; i++) fileOf[at + i] = base + p.fileOf[i]
    row.set(p.row, at)
    rowGroup.set(p.rowGroup, at)
    audioSize.set(p.audioSize, at)
    at += p.fileOf.length
  }
  return { length: n, files, fileOf, row, rowGroup, audioSize }
}

/** Adds up the shards' script checks: per-language table rows summed, `unknown-script-code` once per language. */
function mergeScript(parts: readonly Kept[]): CheckResult {
  const items: AuditItem[] = []
  const unknown = new Map<string, AuditItem>()
  const table = new Map<string, { row: TableRow; rows: number; flagged: number; foreign: number; byScript: Map<string, number> }>()
  for (const { header } of parts) {
    for (const item of header.script.items) {
      if (item.finding.kind !== 'unknown-script-code') { items.push(item); continue }
      const key = item.language ?? ''
      const seen = unknown.get(key)
      if (seen) seen.rows += item.rows
      else unknown.set(key, { ...item })
    }
    for (const row of header.script.tables.script ?? []) {
      const language = String(row.language)
      let t = table.get(language)
      if (!t) table.set(language, t = { row, rows: 0, flagged: 0, foreign: 0, byScript: new Map() })
      t.rows += Number(row.rows)
      t.flagged += Number(row.rows_with_foreign)
      t.foreign += Number(row.foreign_chars)
      for (const entry of String(row.foreign_scripts ?? '').split(', ')) {
        if (!entry) continue
        const at = entry.lastIndexOf(' ')
        const script = entry.slice(0, at)
        t.byScript.set(script, (t.byScript.get(script) ?? 0) + Number(entry.slice(at + 1)))
      }
    }
  }
  for (const item of unknown.values()) items.push(item)
  const rows = [...table.keys()].sort(compareUtf8).map((language): TableRow => {
    const t = table.get(language)!
    return { ...t.row, rows: t.rows, rows_with_foreign: t.flagged, foreign_chars: t.foreign,
      foreign_scripts: [...t.byScript].sort((a, b) => compareUtf8(a[0], b[0])).map(([s, n]) => `${s} ${n}`).join(', ') }
  })
  return { items, tables: { script: rows } }
}

/** Adds up the shards' token checks: per-language counts summed, the rate and `unknown-tokens` from the sums. */
function mergeTokens(parts: readonly Kept[]): CheckResult {
  const items: AuditItem[] = []
  const table = new Map<string, { rows: number; tokens: number; unknown: number; rowsWithUnknown: number }>()
  const firstPath = new Map<string, string>()
  for (const { header } of parts) {
    if (!header.tokens) continue
    for (const item of header.tokens.result.items) if (item.finding.kind !== 'unknown-tokens') items.push(item)
    for (const [language, path] of Object.entries(header.tokens.firstPath)) if (!firstPath.has(language)) firstPath.set(language, path)
    for (const row of header.tokens.result.tables.unknown_tokens ?? []) {
      const language = String(row.language)
      let t = table.get(language)
      if (!t) table.set(language, t = { rows: 0, tokens: 0, unknown: 0, rowsWithUnknown: 0 })
      t.rows += Number(row.rows)
      t.tokens += Number(row.tokens)
      t.unknown += Number(row.unknown_tokens)
      t.rowsWithUnknown += Number(row.rows_with_unknown)
    }
  }
  const rows: TableRow[] = []
  for (const language of [...table.keys()].sort(compareUtf8)) {
    const { rows: n, tokens, unknown, rowsWithUnknown } = table.get(language)!
    const rate = tokens === 0 ? 0 : unknown / tokens
    rows.push({ language, rows: n, tokens, unknown_tokens: unknown, unknown_rate: rate, rows_with_unknown: rowsWithUnknown })
    if (unknown > 0) {
      items.push({ rows: rowsWithUnknown, samples: 0, corpus: null, language, finding: finding(rate > unknownRateWarning ? 'warning' : 'info', 'unknown-tokens', firstPath.get(language) ?? '',
        `${language}: ${unknown} of ${tokens} tokens (${(100 * rate).toFixed(2)}%) are unknown to the tokenizer, in ${rowsWithUnknown} of ${n} rows; expected at most ${100 * unknownRateWarning}%`) })
    }
  }
  return { items, tables: { unknown_tokens: rows } }
}

/** The cheap audio check of the whole dataset from the shards' (parts in shard order: their items are in dataset order). */
function mergeQuick(parts: readonly Kept[]): { result: CheckResult; rows: number } {
  const missing = parts.filter((p) => !p.header.quick)
  if (missing.length > 0) throw mergeError(`${missing.map((p) => p.name).join(', ')} lack the cheap audio check that shard 0's options ask for`)
  const items: AuditItem[] = []
  for (const p of parts) for (const item of p.header.quick!.items) items.push(item)
  return {
    result: { items, tables: { audio_check: quickCensusTable(parts.flatMap((p) => p.header.quick!.census)) } },
    rows: parts.reduce((n, p) => n + p.header.quick!.rows, 0),
  }
}

/** How an `AuditMerger` keeps the parts' fingerprints. */
export interface AuditMergerOptions {
  /**
   * Where the parts' fingerprints wait for the near-duplicate search (src/engine/audit/fingerprint-spill.ts): each
   * part's go there as it is added, so the merge holds none of them; default in memory. Node's `createFileSpill`.
   */
  spill?: () => Promise<RandomAccessBuckets>
}

/**
 * Collects audit parts (in any order) and merges them into the whole dataset's report. The parts' fingerprints go
 * to a spill as each part is added; `finish` (or `close`, when the merge is given up) drops it.
 */
export class AuditMerger {
  private kept: Kept[] = []
  private seconds: number[] | null = null
  private spill: Promise<FingerprintSpill> | null = null
  private failure: unknown = null

  constructor(private readonly options: AuditMergerOptions = {}) {}

  private fingerprintSpill(): Promise<FingerprintSpill> {
    return this.spill ??= (this.options.spill ?? (async () => memoryBuckets()))().then((buckets) => new FingerprintSpill(buckets))
  }

  /** Drops the fingerprints' spill (its temporary files); the merger is not used again. */
  async close(): Promise<void> {
    const spill = this.spill
    this.spill = null
    if (spill) await (await spill.catch(() => null))?.close()
  }

  /**
   * Adds one part (`name`: where it was read from, for messages).
   * @returns when the part's fingerprints are in the spill (a failure to write them is thrown by `finish`)
   * @throws MixscopeError (`bad-parts`) when the part is damaged
   */
  add(name: string, part: AuditPart): Promise<void> {
    if (part.kind !== 'audit') throw mergeError(`${name} is a ${String(part.kind)} part, not an audit part`)
    if (this.seconds) throw mergeError('the merge is finished: parts can no longer be added')
    const rows = rowsOf(name, part)
    const measured: MeasuredRow[] = []
    if (part.audio) {
      const n = rows.fileOf.length
      const positions = part.audio.rows
      const measures: AudioMeasure[] = part.audio.measures
      if ((positions?.length ?? n) !== measures.length) throw mergeError(`${name} is damaged: ${measures.length} audio measures for ${positions?.length ?? n} rows`)
      // the decoded rows as objects (the audio check reads them so); every other row stays in the columns
      const table: RowTable = { length: n, ...rows }
      measures.forEach((measure, i) => {
        const k = positions ? positions[i] : i
        const row = Number.isInteger(k) && k >= 0 && k < n ? auditRowAt(table, k, rows.datasetFiles[rows.fileOf[k]]) : null
        if (!row || row.row !== measure.row) throw mergeError(`${name} is damaged: audio measure ${i} is for row ${measure.row}, not ${row ? `${row.path}:${row.row}` : 'a row of this part'}`)
        measured.push({ row, measure })
      })
    }
    const unread = part.units.filter((u) => !u[4]).length
    // the fingerprints go to the spill; the measures kept are copies without them
    let fingerprints: Promise<FingerprintLocations> | null = null
    if (part.audio) {
      const split = splitFingerprints(measured.map((m) => m.measure))
      split.measures.forEach((measure, i) => { measured[i] = { row: measured[i].row, measure } })
      fingerprints = this.fingerprintSpill().then((spill) => spill.write(split.records))
    }
    // the rows' columns, files, units and measures now live in `rows`/`measured`; drop them from the kept header
    const header: AuditPart = { ...part, files: [], units: [], rows: { audio_size: [], chars: [], transcript: [] }, audio: null }
    this.kept.push({ name, header, rows, chars: Int32Array.from(part.rows.chars), transcripts: TranscriptKeys.of(part.rows.transcript), measured, fingerprints, unread })
    return fingerprints ? fingerprints.then(() => undefined, (error) => { this.failure ??= error }) : Promise.resolve()
  }

  /**
   * @returns the report, as `auditDataset` on the whole dataset with the same options returns it
   * @throws MixscopeError (`bad-parts`, exit class usage) when the parts are not exactly shards 0…N−1 of one audit
   */
  async finish(merge: MergeOptions = {}): Promise<AuditReport> {
    try {
      return await this.merge(merge)
    } finally {
      await this.close()
    }
  }

  private async merge(merge: MergeOptions): Promise<AuditReport> {
    const ordered = checkPartSet(this.kept.map((k) => ({ name: k.name, header: k.header })) as NamedPart<AuditPart>[])
    const byName = new Map(this.kept.map((k) => [k.name, k]))
    const parts = ordered.map((p) => byName.get(p.name)!)
    const global: AuditPartGlobal | null = parts[0].header.global
    if (!global) throw mergeError(`${parts[0].name} is shard 0 but lacks the dataset-wide part ("global")`)
    const { config, options } = global
    const root = parts[0].header.dataset.root
    if (options.sample > 0 && options.sample < 1) {
      const bad = parts.filter((p) => p.unread > 0)
      if (bad.length > 0) {
        throw mergeError(`${bad.map((p) => p.name).join(', ')} could not read some row groups; a --sample audit picks its rows from every row group, ` +
          'so the shards cannot agree on the sample: audit with --deep, or without shards')
      }
    }
    const table = tableOf(parts.map((p) => p.rows))
    let chars: Int32Array | null = concatInt32(parts.map((p) => p.chars))
    let transcripts: TranscriptKeys | null = TranscriptKeys.concat(parts.map((p) => p.transcripts))
    const measured = parts.flatMap((p) => p.measured)
    // the fingerprints' rows in the order of `measured`
    const fingerprints = await this.fingerprintSpill()
    for (const p of parts) if (p.fingerprints) fingerprints.place(await p.fingerprints)
    if (this.failure !== null) throw this.failure
    const readItems = parts.flatMap((p) => p.header.items)
    const script = mergeScript(parts)
    const tokens = global.tokenizer ? mergeTokens(parts) : null
    const quick = options.quick ? mergeQuick(parts) : null
    // the rest of the parts is in the arrays above: let them go as the checks are done with them
    this.seconds = parts.map((p) => p.header.timing.seconds)
    this.kept = []
    parts.length = 0
    const trainSplit = parseSplit(config.split).split

    // the checks that need the transcripts' columns first, so those are freed before the others run
    const keys = transcripts
    const leakage = checkLeakageTable(table, trainSplit, (i) => keys.key(i))
    transcripts = null
    const text = checkTextTable(table, chars, config.min_samples_per_char)
    chars = null
    // the same results, in the same order, as auditDataset
    const results: CheckResult[] = [
      { items: readItems, tables: {} },
      checkSplitsTable(table),
      checkMixtureTable(table, global.summary, trainSplit),
      checkLengthTable(table, config, trainSplit),
      text,
      script,
      leakage,
      global.ranks,
    ]
    if (tokens) results.push(tokens)
    if (options.sample > 0) results.push(checkAudio(measured, await checkNearDuplicatesSpilled(measured, fingerprints, merge.nearDuplicates)))
    else if (quick) results.push(quick.result)

    return assembleReport({
      root, options, files: global.files, rowGroups: global.rowGroups, rowCount: table.length, samples: tableSamples(table), measured, rowsAudioChecked: quick?.rows ?? 0,
      datasetFindings: global.findings, configFindings: global.configFindings ?? [], results,
      collector: new FindingsCollector({ maxPerKind: merge.maxFindingsPerKind, buckets: merge.buckets }), onFindings: merge.onFindings,
    })
  }

  /** Seconds each shard ran, in shard order (for the merged output's `"timing"`). */
  shardSeconds(): number[] {
    return this.seconds ?? [...this.kept].sort((a, b) => a.header.shard.index - b.header.shard.index).map((k) => k.header.timing.seconds)
  }
}

/** How the merged report holds its findings: as `audit` does (`AuditOptions`, audit.ts). */
export interface MergeOptions {
  /** Findings of one kind the report's `findings` holds (default `defaultMaxFindingsPerKind`; `Infinity`: all). */
  maxFindingsPerKind?: number
  /** Where the findings wait until the report is assembled (default in memory). */
  buckets?: CollectorOptions['buckets']
  /** Every finding of the report in order, without the cap (`merge --findings`, `--flagged`). */
  onFindings?: FinishOptions['onFindings']
  /** The near-duplicate search's slices and the bytes of fingerprints it holds at once (as `AuditOptions.nearDuplicates`). */
  nearDuplicates?: SpilledNearDuplicateOptions
}

/** Merges parts given at once. */
export async function mergeAuditParts(parts: readonly NamedPart<AuditPart>[], options: MergeOptions & AuditMergerOptions = {}): Promise<AuditReport> {
  const merger = new AuditMerger({ spill: options.spill })
  try {
    for (const p of parts) await merger.add(p.name, p.header)
  } catch (error) {
    await merger.close()
    throw error
  }
  return merger.finish(options)
}
