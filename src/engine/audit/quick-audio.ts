/**
 * The cheap audio check the audit runs by default: every row's `audio_bytes` is sniffed (container, codec, rate,
 * channels from the header) and cut into its frames or pages (FLAC frame headers and CRC-16, Ogg page CRC-32, MPEG
 * frame headers, the WAV data chunk), without decoding a sample. A row whose bytes would stop the training's decoder
 * (null or empty, unknown container, a broken header, no complete frame, a cut-off stream) is an `undecodable-audio`
 * error, so it is not hidden behind the deep audit; the deep audit decodes every sample.
 *
 * Cost: one pass over the bytes (CRCs), roughly an order of magnitude below decoding; the bytes are read per row
 * group, as the deep audit reads them.
 */
import { finding } from '../core/findings.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { flacFormatProblem, splitFlacFrames } from '../audio/flac.ts'
import { splitMp3Frames } from '../audio/mp3.ts'
import { readOggPackets } from '../audio/ogg.ts'
import { sniffAudio } from '../audio/sniff.ts'
import { blockingProblems, type AudioSniff } from '../audio/sniff-result.ts'
import { audioBytesOf } from '../parquet/audio-bytes.ts'
import { toNumber } from '../parquet/reader.ts'
import { mapLimit } from '../core/map-limit.ts'
import { rowHours } from './rows/rows.ts'
import type { AuditItem, TableRow } from './rows/types.ts'
import type { DatasetFile } from '../dataset/dataset.ts'
import type { Finding } from '../core/findings.ts'

/** What the cheap check says about one row's bytes. */
export interface QuickVerdict {
  /** Whether training's decoder would get through the bytes, as far as their structure shows. */
  decodable: boolean
  /** Why not (`null` when decodable). */
  problem: string | null
  /** Damage that does not stop decoding (a frame dropped for its CRC, junk before the first frame). */
  warnings: string[]
  container: AudioSniff['container'] | null
  codec: AudioSniff['codec']
  sampleRate: number | null
  channels: number | null
}

/** Audio packets that come before the first audio packet of an Ogg stream, per codec. */
const oggHeaderPackets: Partial<Record<NonNullable<AudioSniff['codec']>, number>> = { vorbis: 3, opus: 2, flac: 1 }

/**
 * The cheap verdict on one row's encoded bytes (`null`: the cell is null).
 * @returns never throws: whatever fails becomes `problem`
 */
export function quickAudioVerdict(bytes: Uint8Array | null): QuickVerdict {
  const blank = { container: null, codec: null, sampleRate: null, channels: null, warnings: [] }
  if (bytes === null) return { ...blank, decodable: false, problem: 'null audio_bytes' }
  if (bytes.length === 0) return { ...blank, decodable: false, problem: 'empty audio_bytes (0 bytes)' }
  const s = sniffAudio(bytes)
  const header = { container: s.container, codec: s.codec, sampleRate: s.sampleRate, channels: s.channels }
  const fail = (problem: string, warnings: string[] = []) => ({ ...header, decodable: false, problem, warnings })
  if (s.container === 'unknown') {
    const head = Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join(' ')
    return fail(`not WAV, FLAC, Ogg, MP3, AIFF, CAF, Wave64, NIST SPHERE, Sun/NeXT AU or one of libsndfile's rarer containers (bytes start ${head})${s.problems.length ? `: ${s.problems.join('; ')}` : ''}`)
  }
  const blocking = blockingProblems(s)
  if (blocking.length > 0) return fail(`${s.container}${s.codec ? `/${s.codec}` : ''} header: ${blocking.join('; ')}`)
  // what the header alone says training cannot read (a FLAC depth libsndfile refuses, FLAC in Ogg, no total)
  if (s.untrainable) return fail(s.untrainable)
  try {
    const warnings = structureWarnings(bytes, s)
    const cut = warnings.find((w) => /^(truncated stream|no complete)/.test(w))
    if (cut) return fail(cut, warnings.filter((w) => w !== cut))
    return { ...header, decodable: true, problem: null, warnings }
  } catch (error) {
    return fail(`${s.container}: ${(error as Error).message}`)
  }
}

/** Walks the frames or pages of the stream; returns its damage, a "no complete …" or "truncated stream" entry when it would stop the decoder. */
function structureWarnings(bytes: Uint8Array, s: AudioSniff): string[] {
  if (s.container === 'flac') {
    const stream = splitFlacFrames(bytes)
    if (stream.frames.length === 0) return ['no complete FLAC frame: the stream is cut inside its first frame', ...stream.warnings]
    const contradiction = flacFormatProblem(stream)
    if (contradiction) return [`no complete stream libFLAC accepts: ${contradiction}`, ...stream.warnings]
    // damage before the declared end stops libsndfile's read (training fails); what lies after it does not
    if (stream.damage.length > 0) return [`truncated stream (damaged or cut before the samples STREAMINFO declares): ${stream.damage.join('; ')}`, ...stream.warnings]
    return stream.warnings
  }
  if (s.container === 'ogg') {
    const stream = readOggPackets(bytes)
    const headers = (s.codec && oggHeaderPackets[s.codec]) ?? 1
    if (stream.packets.length <= headers) return [`no complete audio packet after the ${headers} ${s.codec ?? 'codec'} header packet${headers === 1 ? '' : 's'}`, ...stream.warnings]
    return stream.warnings
  }
  if (s.container === 'mp3') {
    const stream = splitMp3Frames(bytes)
    if (stream.frames.length === 0) return ['no complete MPEG audio frame', ...stream.warnings]
    return stream.warnings
  }
  return [] // WAV: the sniffer checked the fmt and data chunks against the bytes
}

/** Full findings a `quickAudioCheck` keeps in memory by default; the rest are positions (`QuickFindings`). */
export const defaultHeldQuickItems = 1000

/** The kinds of the cheap check's row findings, by the code `QuickFindings.positions` stores. */
const quickKinds = [
  { kind: 'undecodable-audio', severity: 'error' },
  { kind: 'damaged-audio-stream', severity: 'warning' },
] as const

/**
 * The cheap check's row findings in bounded memory: a count per kind, the position and kind of every flagged row
 * (5 bytes a row, as flagged-positions.ts keeps the audit's), and the first `first.length` items in full, in
 * dataset order; `forEachQuickItem` gives every item, re-reading only the row groups of those not held.
 */
export interface QuickFindings {
  /** Per kind (`undecodable-audio`, `damaged-audio-stream`): flagged rows and their Σ audio_size (16 kHz samples). */
  counts: Record<string, { rows: number; samples: number }>
  /** Per file path (dataset order): its flagged rows, ascending, and each one's kind (0 undecodable, 1 damaged). */
  positions: Map<string, { rows: Int32Array; kinds: Uint8Array }>
  /** The first items (one per flagged row: an `undecodable-audio` error or a `damaged-audio-stream` warning). */
  first: AuditItem[]
  /** Flagged rows in all. */
  total: number
}

/** What `quickAudioCheck` found. */
export interface QuickAudioResult {
  /** Rows whose bytes were checked. */
  rows: number
  /** Encoded bytes checked. */
  bytes: number
  /** Its row findings (undecodable or damaged rows), bounded: `forEachQuickItem` walks every one. */
  findings: QuickFindings
  /** Rows and hours per (container, codec, sample rate, channels) as the headers say; `undecodable` for the rest. */
  census: TableRow[]
  /** The census before it becomes the table (a sharded audit's parts carry it; `quickCensusTable` makes the table). */
  censusCounts: QuickCensusCount[]
}

/**
 * One census entry as counted: `[key, container, codec, sample rate, channels, rows, samples]`. Samples are summed
 * as integers (exact to 2^53), so shards' counts add up to the whole dataset's in any grouping.
 */
export type QuickCensusCount = [string, string, string | null, number | null, number | null, number, number]

/** Adds census counts by key; sorted by key. */
export function sumCensusCounts(counts: Iterable<QuickCensusCount>): QuickCensusCount[] {
  const sums = new Map<string, QuickCensusCount>()
  for (const c of counts) {
    const slot = sums.get(c[0])
    if (slot) { slot[5] += c[5]; slot[6] += c[6] } else sums.set(c[0], [...c])
  }
  return [...sums.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
}

/** Adds census counts and makes the `audio_check` table: sorted by key, hours from the summed samples. */
export function quickCensusTable(counts: Iterable<QuickCensusCount>): TableRow[] {
  return sumCensusCounts(counts)
    .map(([, container, codec, sampleRate, channels, rows, samples]) => ({ container, codec, sample_rate: sampleRate, channels, rows, hours: rowHours(samples) }))
}

/** Options of `quickAudioCheck`. */
export interface QuickAudioOptions {
  signal?: AbortSignal
  /** Its reads wait behind every other read (`ReadOptions.background`): the explorer runs it behind its views. */
  background?: boolean
  /** Called after each row group with (rows done, rows in all). */
  onRows?: (done: number, total: number) => void
  /** Row groups read at once (default 4). */
  concurrency?: number
  /** Which row groups to check, by file index in `dataset.files` and row group (default all; a shard's range). */
  select?: (file: number, rowGroup: number) => boolean
  /** Full items kept in memory (default `defaultHeldQuickItems`); the rest are positions. */
  heldItems?: number
}

/** The cheap check's item for one row (`null`: its bytes are fine), as every pass over the rows makes it. */
function rowItem(file: DatasetFile, group: number, row: number, v: QuickVerdict, samples: number): AuditItem | null {
  const corpus = file.keys.corpus ?? null, language = file.keys.language ?? null
  const at = { row, row_group: group }
  const id = `${file.path}:${row}`
  if (!v.decodable) {
    return { rows: 1, samples, corpus, language, finding: finding('error', 'undecodable-audio', file.path,
      `${id}: audio check: ${v.problem}: training would crash on this row`, at) }
  }
  if (v.warnings.length > 0) {
    return { rows: 1, samples, corpus, language, finding: finding('warning', 'damaged-audio-stream', file.path,
      `${id}: audio check: ${v.warnings.join('; ')}`, at) }
  }
  return null
}

/** A row group's `audio_bytes` and `audio_size` (when present). */
function readAudioColumns(dataset: OpenDataset, file: DatasetFile, group: number, options: { signal?: AbortSignal; background?: boolean }) {
  const columns = ['audio_bytes', ...(file.columns.some((c) => c.name === 'audio_size') ? ['audio_size'] : [])]
  return dataset.parquet.readColumns(file, group, columns, { signal: options.signal, background: options.background })
}

function samplesOf(value: unknown): number {
  const size = toNumber(value)
  return size !== null && Number.isFinite(size) ? size : 0
}

/**
 * The cheap check of every row of every readable file, per row group (`audio_bytes` and `audio_size` only).
 * @returns items in dataset order (file, then row); row groups that do not read are left to the metadata pass
 */
export async function quickAudioCheck(dataset: OpenDataset, options: QuickAudioOptions = {}): Promise<QuickAudioResult> {
  const select = options.select ?? (() => true)
  const groups = dataset.files.flatMap((file, index) => file.readable && file.columns.some((c) => c.name === 'audio_bytes')
    ? file.rowGroups.filter((group) => select(index, group.index)).map((group) => ({ file, group }))
    : [])
  const total = groups.reduce((n, g) => n + g.group.rows, 0)
  const held = Math.max(0, options.heldItems ?? defaultHeldQuickItems)
  let done = 0
  let bytesChecked = 0
  // Full items are kept only for the first `held` flagged rows in dataset order: once every row group up to `cut`
  // has finished with `held` items among them, later row groups keep positions only (reads finish out of order,
  // at most `concurrency` ahead of the first unfinished one).
  const kept: (AuditItem[] | null)[] = groups.map(() => null)
  let frontier = 0
  let keptBefore = 0
  let cut = groups.length
  const settle = () => {
    while (frontier < groups.length && kept[frontier] !== null && cut === groups.length) {
      keptBefore += kept[frontier]!.length
      if (keptBefore >= held) {
        cut = frontier
        for (let g = cut + 1; g < groups.length; g++) if (kept[g] !== null) kept[g] = []
      }
      frontier++
    }
  }
  // counted per row group and added up in dataset order after: the same sums whatever order the reads finish in
  const perGroup = await mapLimit(groups, options.concurrency ?? 4, async ({ file, group }, index) => {
    const census = new Map<string, QuickCensusCount>()
    const rows: number[] = []
    const kinds: number[] = []
    const counts = [{ rows: 0, samples: 0 }, { rows: 0, samples: 0 }]
    const items: AuditItem[] = []
    let data: Record<string, ArrayLike<unknown>> | null = null
    try {
      data = await readAudioColumns(dataset, file, group.index, options)
    } catch (error) {
      if (options.signal?.aborted) throw error
    }
    for (let i = 0; data !== null && i < group.rows; i++) {
      const row = group.firstRow + i
      const bytes = audioBytesOf(data.audio_bytes[i])
      const samples = samplesOf(data.audio_size?.[i])
      bytesChecked += bytes?.length ?? 0
      const v = quickAudioVerdict(bytes)
      const key = v.decodable ? JSON.stringify([v.container, v.codec, v.sampleRate, v.channels]) : '["undecodable"]'
      let slot = census.get(key)
      if (!slot) census.set(key, slot = v.decodable ? [key, v.container!, v.codec, v.sampleRate, v.channels, 0, 0] : [key, 'undecodable', null, null, null, 0, 0])
      slot[5]++
      slot[6] += samples
      const item = rowItem(file, group.index, row, v, samples)
      if (item === null) continue
      const code = v.decodable ? 1 : 0
      rows.push(row)
      kinds.push(code)
      counts[code].rows++
      counts[code].samples += samples
      if (index <= cut && items.length < held) items.push(item)
    }
    kept[index] = index <= cut ? items : []
    settle()
    done += group.rows
    options.onRows?.(done, total)
    return { census, rows, kinds, counts }
  })
  const findings: QuickFindings = { counts: {}, positions: new Map(), first: [], total: 0 }
  const byFile = new Map<string, { rows: number[]; kinds: number[] }>()
  perGroup.forEach((g, index) => {
    for (const [code, c] of g.counts.entries()) {
      if (c.rows === 0) continue
      const slot = findings.counts[quickKinds[code].kind] ??= { rows: 0, samples: 0 }
      slot.rows += c.rows
      slot.samples += c.samples
    }
    findings.total += g.rows.length
    if (g.rows.length > 0) {
      const path = groups[index].file.path
      const slot = byFile.get(path) ?? { rows: [], kinds: [] }
      byFile.set(path, slot)
      for (let k = 0; k < g.rows.length; k++) { slot.rows.push(g.rows[k]); slot.kinds.push(g.kinds[k]) }
    }
    for (const item of kept[index] ?? []) if (findings.first.length < held) findings.first.push(item)
  })
  for (const [path, { rows, kinds }] of byFile) findings.positions.set(path, { rows: Int32Array.from(rows), kinds: Uint8Array.from(kinds) })
  const censusCounts = sumCensusCounts(perGroup.flatMap((g) => [...g.census.values()]))
  return { rows: total, bytes: bytesChecked, findings, census: quickCensusTable(censusCounts), censusCounts }
}

/**
 * Every item of `result` in dataset order (file, then row), one at a time: the held ones, then the others made again
 * from their row groups (only the row groups holding one are read). Each item is what `quickAudioCheck` made for the
 * row. A row group that no longer reads gives no items (its rows stay counted).
 */
export async function forEachQuickItem(dataset: OpenDataset, result: QuickAudioResult, each: (item: AuditItem) => void | Promise<void>,
  options: { signal?: AbortSignal; background?: boolean } = {}): Promise<void> {
  const { first, positions, total } = result.findings
  for (const item of first) await each(item)
  if (first.length >= total) return
  let skip = first.length
  for (const file of dataset.files) {
    const at = positions.get(file.path)
    if (!at) continue
    if (skip >= at.rows.length) { skip -= at.rows.length; continue }
    let k = skip
    skip = 0
    for (const group of file.rowGroups) {
      const end = group.firstRow + group.rows
      if (k >= at.rows.length || at.rows[k] >= end) continue
      if (at.rows[k] < group.firstRow) throw new Error(`audit: audio check positions out of order in ${file.path} at row ${at.rows[k]}`)
      options.signal?.throwIfAborted()
      let data: Record<string, ArrayLike<unknown>> | null = null
      try {
        data = await readAudioColumns(dataset, file, group.index, options)
      } catch (error) {
        if (options.signal?.aborted) throw error
      }
      for (; k < at.rows.length && at.rows[k] < end; k++) {
        if (data === null) continue
        const i = at.rows[k] - group.firstRow
        const item = rowItem(file, group.index, at.rows[k], quickAudioVerdict(audioBytesOf(data.audio_bytes[i])), samplesOf(data.audio_size?.[i]))
        if (item) await each(item)
      }
    }
  }
}

const rowFindingLists = new WeakMap<QuickAudioResult, { finding: Finding }[]>()

/**
 * The check's row findings for the Examples' flags (`rowFindingsWithAudio`, search.ts): the held items' findings,
 * then, for each flagged row past them, a finding of its kind and severity whose message sends to the Audit (a
 * flag is its kind and severity: `rowFindingSummary`). One list per result.
 */
export function quickRowFindings(result: QuickAudioResult): readonly { finding: Finding }[] {
  const known = rowFindingLists.get(result)
  if (known) return known
  const { first, positions } = result.findings
  const list: { finding: Finding }[] = first.map((item) => ({ finding: item.finding }))
  let skip = first.length
  for (const [path, at] of positions) {
    for (let k = 0; k < at.rows.length; k++) {
      if (skip > 0) { skip--; continue }
      const { kind, severity } = quickKinds[at.kinds[k]]
      list.push({ finding: finding(severity, kind, path, `${path}:${at.rows[k]}: audio check: ${kind} (the Audit lists why)`, { row: at.rows[k] }) })
    }
  }
  rowFindingLists.set(result, list)
  return list
}

const cached = new WeakMap<OpenDataset, Promise<QuickAudioResult>>()
/** The finished results of `cached` (what `finishedQuickAudioCheck` returns without waiting). */
const finished = new WeakMap<OpenDataset, QuickAudioResult>()

/**
 * `quickAudioCheck` once per opened dataset: later calls (the audit re-runs on every config change) get the same
 * result without reading the bytes again. A run that fails or is aborted is forgotten.
 */
export function quickAudioCheckOnce(dataset: OpenDataset, options: QuickAudioOptions = {}): Promise<QuickAudioResult> {
  const known = cached.get(dataset)
  if (known) return known
  const running = quickAudioCheck(dataset, options)
  cached.set(dataset, running)
  running.then((result) => { if (cached.get(dataset) === running) finished.set(dataset, result) }, () => { if (cached.get(dataset) === running) cached.delete(dataset) })
  return running
}

/**
 * The result of `quickAudioCheckOnce` for `dataset` when it has finished, else `null`: never starts a check and never
 * waits for one (the Examples list flags what the audit's audio check found once it is there).
 */
export function finishedQuickAudioCheck(dataset: OpenDataset): QuickAudioResult | null {
  return finished.get(dataset) ?? null
}
