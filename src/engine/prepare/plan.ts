/**
 * From input rows to the plan: each row's language mapped to `xxx_Script`, its text normalized, its split and
 * corpus decided; rows that cannot be written listed with their reason; the rest grouped into
 * `corpus=/split=/language=` partitions, each in the order the reference's shuffle gives (the buffer shuffle of
 * every (language, split) stream, taken before any row is dropped, as the reference shuffles before it processes).
 */
import { MixscopeError } from '../core/findings.ts'
import { normalizeText } from '../text/normalize.ts'
import { mapLanguageCode, PARTITION_LANGUAGE, type LanguageMapping } from './lang/language-code.ts'
import { byPath, recognizeSplit, type InputFiles } from './inputs/input-files.ts'
import { bufferShuffleOrder } from './shuffle/buffer-shuffle.ts'
import type { LanguageDecision, PlannedPartition, PlannedRow, PrepareOptions, PreparePlan, SkippedRow } from './types.ts'
import { audioRefName, audioSegment, type InputRow, type InputScan } from './inputs/types.ts'

/** `--language` values: one for every row, and/or `code=xxx_Script` decisions. @throws Error on a malformed value */
export function parseLanguageOptions(values: readonly string[] = []): { all: string | null; decisions: Map<string, string> } {
  let all: string | null = null
  const decisions = new Map<string, string>()
  for (const v of values) {
    const eq = v.indexOf('=')
    if (eq >= 0) {
      const from = v.slice(0, eq).trim()
      const to = v.slice(eq + 1).trim()
      if (!from || !PARTITION_LANGUAGE.test(to)) throw new Error(`prepare: --language ${JSON.stringify(v)}: expected code=xxx_Script (e.g. mn=khk_Cyrl)`)
      decisions.set(from, to)
    } else {
      if (all !== null) throw new Error(`prepare: --language given twice for every row (${all}, ${v}); use code=xxx_Script to decide one input code`)
      all = v.trim()
    }
  }
  return { all, decisions }
}

/** Longest partition value `prepare` writes, in code points (a folder name `corpus=<value>` stays far below 255 bytes). */
export const maxPartitionValueLength = 100

/**
 * A value from the input made safe as a hive folder value and a TSV cell: `/`, `\`, `=`, control characters (TAB,
 * newline, NUL…) and line separators become `_`, leading `.`/`_` go (a folder the reference would ignore, or `..`),
 * and a value longer than `maxPartitionValueLength` keeps its start plus a hash of the whole, so two long names stay
 * apart. Empty when nothing is left.
 */
export function partitionValue(value: string): string {
  let v = value.trim().replace(/[\p{Cc}\u2028\u2029/\\=]+/gu, '_').replace(/^[._]+/, '')
  const chars = [...v]
  if (chars.length > maxPartitionValueLength) v = `${chars.slice(0, maxPartitionValueLength - 9).join('')}_${fingerprint(value)}`
  return v
}

/** A corpus value as a folder name can carry it (`partitionValue`), or null when nothing is left. */
function corpusValue(value: string | null | undefined): string | null {
  return partitionValue(value ?? '') || null
}

/**
 * `--split-map` values `FROM=TO`: an input split name (any case) → `train`, `dev` or `test` (or a name that is one,
 * `validation` → `dev`). @throws MixscopeError (usage) on a malformed value
 */
export function parseSplitMap(values: readonly string[] = []): Map<string, 'train' | 'dev' | 'test'> {
  const map = new Map<string, 'train' | 'dev' | 'test'>()
  for (const v of values) {
    const eq = v.indexOf('=')
    const from = eq < 0 ? '' : v.slice(0, eq).trim().toLowerCase()
    const to = eq < 0 ? null : recognizeSplit(v.slice(eq + 1))
    if (!from || !to) throw new MixscopeError(`prepare: --split-map ${JSON.stringify(v)}: expected NAME=train|dev|test (e.g. 9_hours=train)`, 'bad-split-map', 'usage')
    map.set(from, to)
  }
  return map
}

/** Small FNV-1a over a string: the plan's fingerprint (a resumed run must be the same plan). */
export function fingerprint(text: string): string {
  let h = 0x811c9dc5
  let g = 0x01000193
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
    g = Math.imul(g ^ text.charCodeAt(i), 0x5bd1e995)
  }
  return (h >>> 0).toString(16).padStart(8, '0') + (g >>> 0).toString(16).padStart(8, '0')
}

/**
 * Decides every row. Rows are never dropped silently: each one is in a partition or in `skipped` with a reason.
 * @param input the listed input folder (for missing audio files)
 */
export function planPrepare(scan: InputScan, input: InputFiles, options: PrepareOptions = {}): PreparePlan {
  const { all, decisions } = parseLanguageOptions(options.language)
  const normalize = options.normalizeText ?? true
  const corpusOption = corpusValue(options.corpus)
  if (options.corpus !== undefined && !corpusOption) throw new MixscopeError('prepare: --corpus is empty', 'bad-corpus', 'usage')
  const forcedSplit = options.split === undefined ? null : recognizeSplit(options.split)
  if (options.split !== undefined && !forcedSplit) {
    throw new MixscopeError(`prepare: --split ${JSON.stringify(options.split)} is not train, dev or test (or a name of one: training, validation, valid, val, eval, evaluation, development, testing)`, 'bad-split', 'usage')
  }
  const splitMap = parseSplitMap(options.splitMap)
  if (!corpusOption) {
    // the corpus is a key of the mixture (weights, recipe filters such as corpus == "mls"): never made up
    const without = scan.rows.filter((r) => !r.problem && !corpusValue(r.corpus))
    if (without.length) {
      throw new MixscopeError(`prepare: ${without.length} of ${scan.rows.length} input rows declare no corpus (no "corpus" field or column, first at ${without[0].where}); pass --corpus NAME (e.g. --corpus mls; in the Prepare view, the Corpus field)`, 'corpus-required', 'usage')
    }
  }
  const skipped: SkippedRow[] = []
  const mappings = new Map<string, LanguageMapping>()
  const decisionRows = new Map<string, number>()
  const mapCode = (code: string): LanguageMapping => {
    let m = mappings.get(code)
    if (!m) {
      const decided = decisions.get(code)
      m = decided ? { kind: 'mapped', code: decided, note: `decided by --language ${code}=${decided}`, listed: true } : mapLanguageCode(code)
      mappings.set(code, m)
    }
    return m
  }
  const audioName = (r: InputRow) => (r.audio ? audioRefName(r.audio) : null)
  const skip = (r: InputRow, reason: SkippedRow['reason'], message: string) => skipped.push({ index: r.index, where: r.where, reason, message, audio: audioName(r) })

  // rows per (corpus, split, language) stream, in input order, with what will happen to each
  const unknownSplits = new Map<string, number>()
  /** Input values a partition value had to change (`corpus "…"` → what is written), for the notes. */
  const rewritten = new Map<string, string>()
  const streams = new Map<string, { corpus: string; split: string; language: string; rows: { row: InputRow; text: string | null; durationOk: boolean }[] }>()
  for (const row of scan.rows) {
    if (row.problem) { skip(row, row.problem.reason, row.problem.message); continue }
    const code = all ?? row.language
    if (!code) { skip(row, 'no-language', `${row.where}: no language code in the input; pass --language`); continue }
    decisionRows.set(code, (decisionRows.get(code) ?? 0) + 1)
    const m = mapCode(code)
    if (m.kind === 'unknown') { skip(row, 'unknown-language', `${row.where}: ${m.reason}; pass --language ${code}=xxx_Script`); continue }
    if (m.kind === 'ambiguous') { skip(row, 'ambiguous-language', `${row.where}: ${m.reason}; pass --language ${code}=<one of them>`); continue }
    const rawSplit = row.split?.trim() || null
    const split = forcedSplit ?? (rawSplit ? splitMap.get(rawSplit.toLowerCase()) ?? recognizeSplit(rawSplit) : null)
    if (!split) {
      if (rawSplit) {
        const key = rawSplit.toLowerCase()
        unknownSplits.set(key, (unknownSplits.get(key) ?? 0) + 1)
        skip(row, 'unknown-split', `${row.where}: split "${rawSplit}" is not train, dev or test; pass --split-map ${rawSplit}=train (or dev, test) to write it`)
      } else {
        unknownSplits.set('', (unknownSplits.get('') ?? 0) + 1)
        skip(row, 'unknown-split', `${row.where}: the input names no split for this row; pass --split train (or dev, test)`)
      }
      continue
    }
    const corpus = corpusOption ?? corpusValue(row.corpus)!
    if (!corpusOption && row.corpus && corpus !== row.corpus.trim()) rewritten.set(`corpus ${JSON.stringify(row.corpus)}`, corpus)
    const language = partitionValue(m.code) || 'und'
    if (language !== m.code) rewritten.set(`language ${JSON.stringify(m.code)}`, language)
    const key = `${corpus}\u0000${split}\u0000${language}`
    let stream = streams.get(key)
    if (!stream) streams.set(key, stream = { corpus, split, language, rows: [] })
    stream.rows.push({ row, text: row.text === null ? null : normalize ? normalizeText(row.text) : row.text, durationOk: row.duration !== null })
  }

  const partitions: PlannedPartition[] = []
  for (const s of streams.values()) {
    const order = bufferShuffleOrder(s.rows.length)
    const rows: PlannedRow[] = []
    let declared = 0
    let allDeclared = true
    for (const i of order) {
      const { row, text } = s.rows[i]
      const audio = row.audio!
      if (audio.kind === 'file' && !input.sizes.has(audio.path)) { skip(row, 'missing-audio', `${row.where}: audio file ${audio.path} not found in the input folder`); continue }
      if (text === null) { skip(row, 'no-text', `${row.where}: no transcript`); continue }
      if (text === '') { skip(row, 'empty-text', `${row.where}: the transcript is empty${normalize && row.text ? ` after normalization (was ${JSON.stringify(row.text.slice(0, 80))})` : ''}`); continue }
      rows.push({ index: row.index, where: row.where, audio, text })
      if (row.duration === null) allDeclared = false
      else declared += row.duration
    }
    if (!rows.length) continue
    const enc = encodeURIComponent
    partitions.push({
      corpus: s.corpus, split: s.split, language: s.language, rows,
      folder: `corpus=${enc(s.corpus)}/split=${enc(s.split)}/language=${enc(s.language)}`,
      declaredSeconds: allDeclared ? declared : null,
    })
  }
  partitions.sort((a, b) => byPath(a.folder, b.folder))
  skipped.sort((a, b) => a.index - b.index)

  const languages: LanguageDecision[] = [...decisionRows.entries()].map(([input, rows]) => {
    const m = mappings.get(input)!
    return {
      input, rows,
      output: m.kind === 'mapped' ? m.code : null,
      note: m.kind === 'mapped' ? m.note : m.reason,
      candidates: m.kind === 'ambiguous' ? m.candidates : [],
      listed: m.kind === 'mapped' ? m.listed : false,
    }
  }).sort((a, b) => byPath(a.input, b.input))
  const notes = [...scan.notes]
  for (const [name, rows] of unknownSplits) {
    notes.push(name
      ? `split "${name}": ${rows} rows not written (not train, dev or test); --split-map ${name}=train (or dev, test) writes them`
      : `${rows} rows name no split and were not written; --split train (or dev, test) sets it`)
  }
  if (options.corpus && corpusOption !== options.corpus.trim()) rewritten.set(`corpus ${JSON.stringify(options.corpus)}`, corpusOption!)
  for (const [what, written] of rewritten) notes.push(`${what} is written as ${JSON.stringify(written)} (a partition value cannot hold /, \\, =, control characters or a leading . or _, and has at most ${maxPartitionValueLength} characters)`)
  for (const l of languages) {
    if (l.output && !l.listed) notes.push(`language ${l.output} (from "${l.input}") is not among the languages Omnilingual ASR lists`)
  }
  return {
    format: scan.format, version: options.version ?? '0', audioFormat: options.audioFormat ?? 'flac',
    partitions, skipped, languages, notes, inputRows: scan.rows.length,
  }
}

/** A string that changes whenever the plan would write something else (for resuming). */
export function planFingerprint(plan: PreparePlan): string {
  const parts = [plan.format, plan.version, plan.audioFormat]
  for (const p of plan.partitions) {
    parts.push(p.folder)
    for (const r of p.rows) {
      const seg = audioSegment(r.audio)
      parts.push(`${r.index}\u0001${r.text}\u0001${audioRefName(r.audio)}${seg ? `@${seg.offset}+${seg.duration}` : ''}`)
    }
  }
  return fingerprint(parts.join('\u0000'))
}
