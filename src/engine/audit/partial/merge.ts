/**
 * `AuditMerger`: the parts of shards 0…N−1 of an audit (src/engine/audit/partial/shard.ts) → the report
 * `auditDataset` gives for the whole dataset, byte for byte once printed (docs/conventions.md "Sharded jobs").
 *
 * The dataset-level checks run here, on the checks' own code: each part's rows come back as rows without their
 * transcript (file, row, keys and `audio_size` are all the splits, mixture and length checks read), the text check
 * sees a stand-in of the transcript's length in code points, the leakage check a stand-in that compares as the
 * normalized transcript does (its hash); the audio check runs on the parts' measures. Only the script and token
 * checks, which need the characters, ran in the shards: their per-language tables and findings are added up here.
 * Parts are added one at a time and kept in that compact form, so memory grows with the rows, not the parts' text.
 */
import { parseSplit } from '../../config/split.ts'
import { compareUtf8, finding, MixscopeError } from '../../findings.ts'
import { checkPartSet, type NamedPart } from '../../shard/part.ts'
import { checkAudio, type MeasuredRow } from '../checks/audio.ts'
import { checkLeakage } from '../checks/leakage.ts'
import { checkLength } from '../checks/length.ts'
import { checkMixture } from '../checks/mixture.ts'
import { checkSplits } from '../checks/splits.ts'
import { checkText } from '../checks/text.ts'
import { unknownRateWarning } from '../checks/tokens.ts'
import { quickCensusTable } from '../quick-audio.ts'
import { assembleReport } from '../assemble-report.ts'
import type { AudioMeasure, AuditItem, AuditReport, AuditRow, CheckResult, TableRow } from '../types.ts'
import type { AuditPart, AuditPartGlobal } from './types.ts'

/** One added part in the form the merge keeps. */
interface Kept {
  name: string
  header: AuditPart
  rows: AuditRow[]
  /** Code points per row (`-1`: no text). */
  chars: Int32Array
  transcripts: TranscriptKeys
  measured: MeasuredRow[]
  unread: number
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

  at(i: number): string | null {
    switch (this.kinds[i]) {
      case 0: return null
      case 1: return ''
      case 2: return ' '
      case 3: return this.hi[i].toString(16).padStart(8, '0') + this.lo[i].toString(16).padStart(8, '0')
      default: return this.other.get(i)!
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

/** Rows of one part, rebuilt from its file and unit tables (transcripts left out). */
function rowsOf(name: string, part: AuditPart): AuditRow[] {
  const files = new Map(part.files.map((f) => [f[0], f]))
  const rows: AuditRow[] = []
  const sizes = part.rows.audio_size
  for (const [fileIndex, rowGroup, firstRow, n, read] of part.units) {
    if (!read) continue
    const f = files.get(fileIndex)
    if (!f) throw mergeError(`${name} names file ${fileIndex} in its row groups but not in its files`)
    const [, path, corpus, language, split] = f
    for (let i = 0; i < n; i++) {
      const k = rows.length
      rows.push({ file: fileIndex, path, row: firstRow + i, rowGroup, corpus, language, split, audioSize: sizes[k] ?? null, text: null })
    }
  }
  if (rows.length !== sizes.length || part.rows.chars.length !== sizes.length || part.rows.transcript.length !== sizes.length) {
    throw mergeError(`${name} is damaged: its row groups hold ${rows.length} rows but its columns ${sizes.length}, ${part.rows.chars.length}, ${part.rows.transcript.length}`)
  }
  return rows
}

/** Runs `check` with every row's `text` set to `textOf(i)`, then clears the texts again. */
function withTexts<T>(rows: AuditRow[], textOf: (i: number) => string | null, check: () => T): T {
  for (let i = 0; i < rows.length; i++) rows[i].text = textOf(i)
  try {
    return check()
  } finally {
    for (const r of rows) r.text = null
  }
}

/** `'x'.repeat(n)`, one string per length. */
function lengthStandIns(): (n: number) => string | null {
  const cache = new Map<number, string>()
  return (n) => {
    if (n < 0) return null
    let s = cache.get(n)
    if (s === undefined) cache.set(n, s = 'x'.repeat(n))
    return s
  }
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

/** Collects audit parts (in any order) and merges them into the whole dataset's report. */
export class AuditMerger {
  private kept: Kept[] = []
  private seconds: number[] | null = null

  /** Adds one part (`name`: where it was read from, for messages). */
  add(name: string, part: AuditPart): void {
    if (part.kind !== 'audit') throw mergeError(`${name} is a ${String(part.kind)} part, not an audit part`)
    if (this.seconds) throw mergeError('the merge is finished: parts can no longer be added')
    const rows = rowsOf(name, part)
    const measured: MeasuredRow[] = []
    if (part.audio) {
      const positions = part.audio.rows
      const measures: AudioMeasure[] = part.audio.measures
      if ((positions ?? rows).length !== measures.length) throw mergeError(`${name} is damaged: ${measures.length} audio measures for ${(positions ?? rows).length} rows`)
      measures.forEach((measure, i) => {
        const row = rows[positions ? positions[i] : i]
        if (!row || row.row !== measure.row) throw mergeError(`${name} is damaged: audio measure ${i} is for row ${measure.row}, not ${row ? `${row.path}:${row.row}` : 'a row of this part'}`)
        measured.push({ row, measure })
      })
    }
    const unread = part.units.filter((u) => !u[4]).length
    // the rows' columns and measures now live in `rows`/`measured`; drop them from the kept header
    const header: AuditPart = { ...part, rows: { audio_size: [], chars: [], transcript: [] }, audio: null }
    this.kept.push({ name, header, rows, chars: Int32Array.from(part.rows.chars), transcripts: TranscriptKeys.of(part.rows.transcript), measured, unread })
  }

  /**
   * @returns the report, as `auditDataset` on the whole dataset with the same options returns it
   * @throws MixscopeError (`bad-parts`, exit class usage) when the parts are not exactly shards 0…N−1 of one audit
   */
  finish(): AuditReport {
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
    const rows = parts.flatMap((p) => p.rows)
    let chars: Int32Array | null = concatInt32(parts.map((p) => p.chars))
    let transcripts: TranscriptKeys | null = TranscriptKeys.concat(parts.map((p) => p.transcripts))
    const measured = parts.flatMap((p) => p.measured)
    const readItems = parts.flatMap((p) => p.header.items)
    const script = mergeScript(parts)
    const tokens = global.tokenizer ? mergeTokens(parts) : null
    const quick = options.quick ? mergeQuick(parts) : null
    // the rest of the parts is in the arrays above: let them go as the checks are done with them
    this.seconds = parts.map((p) => p.header.timing.seconds)
    this.kept = []
    parts.length = 0
    const trainSplit = parseSplit(config.split).split
    const standIn = lengthStandIns()

    // the checks that need a stand-in transcript first, so their columns are freed before the others run
    const keys = transcripts
    const leakage = withTexts(rows, (i) => keys.at(i), () => checkLeakage(rows, trainSplit))
    transcripts = null
    const lengths = chars
    const text = withTexts(rows, (i) => standIn(lengths[i]), () => checkText(rows, config.min_samples_per_char))
    chars = null
    // the same results, in the same order, as auditDataset
    const results: CheckResult[] = [
      { items: readItems, tables: {} },
      checkSplits(rows),
      checkMixture(rows, global.summary, trainSplit),
      checkLength(rows, config, trainSplit),
      text,
      script,
      leakage,
      global.ranks,
    ]
    if (tokens) results.push(tokens)
    if (options.sample > 0) results.push(checkAudio(measured))
    else if (quick) results.push(quick.result)

    return assembleReport({
      root, options, files: global.files, rowGroups: global.rowGroups, rows, measured, rowsAudioChecked: quick?.rows ?? 0,
      datasetFindings: global.findings, results,
    })
  }

  /** Seconds each shard ran, in shard order (for the merged output's `"timing"`). */
  shardSeconds(): number[] {
    return this.seconds ?? [...this.kept].sort((a, b) => a.header.shard.index - b.header.shard.index).map((k) => k.header.timing.seconds)
  }
}

/** Merges parts given at once. */
export function mergeAuditParts(parts: readonly NamedPart<AuditPart>[]): AuditReport {
  const merger = new AuditMerger()
  for (const p of parts) merger.add(p.name, p.header)
  return merger.finish()
}
