/**
 * Lhotse manifests (lhotse-speech/lhotse `lhotse/cut`, `lhotse/audio`, `lhotse/supervision`): JSON Lines, gzip-compressed
 * or not (`cuts.jsonl.gz`), or the older JSON arrays (`cuts.json`, read element by element: json-array.ts). Two layouts:
 * - **cuts** (`*cuts*`): one row per cut — the cut's stretch `[start, start + duration)` of its `recording`, the text
 *   of its supervisions in time order joined by a space (as Lhotse's ASR datasets join them), their language;
 * - **recordings + supervisions** (`*recordings*` beside `*supervisions*` of the same name): one row per supervision,
 *   its stretch of the recording it names.
 * Audio: the recording's single `file` source, its path taken from the manifest's folder when that file exists, else
 * from the working directory (Lhotse opens it as it is written). `command`, `url` and `memory` sources, and
 * recordings split over several files, are not read (`bad-input-row`, naming the source). Split: the manifest's name
 * (`cuts_train.jsonl.gz`, `librispeech_supervisions_dev-clean.jsonl.gz`). Corpus: a supervision's
 * `custom.corpus`, else `--corpus`.
 *
 * Memory: a recordings manifest is joined through `KeyedRecords` (keyed-records.ts): each recording one compact
 * string (spilled past the budget) and about 20 bytes of index, no object per recording. Past `PlanBudget.keys`
 * recordings (default 2^22), the join is hash-partitioned through the budget's spill (`joinManifests`,
 * partitioned-join.ts): one partition's recordings, at most `PlanBudget.keys` of them, in memory at a time, whatever
 * their number, the same rows in the same order.
 */
import type { AudioRef } from './types.ts'
import type { RowSink, ScannedRow } from './row-log.ts'
import { dirOf, splitFromPath, splitName, type InputFiles } from './input-files.ts'
import { readJsonArray } from './json-array.ts'
import { readLines } from './lines.ts'
import { resolveNemoPath, type NemoPaths } from './nemo.ts'
import { KeyedRecords } from './keyed-records.ts'
import { DEFAULT_JOIN_KEYS, KEY_BUCKETS, MAX_SPLIT_LEVELS, SpilledStreams, groupBuckets, keyBucket, mergeByOrdinal, splitBucket } from './partitioned-join.ts'
import type { PlanBudget } from '../plan-store.ts'

/** What a manifest's name says it holds. */
export function lhotseKind(path: string): 'cuts' | 'recordings' | 'supervisions' | null {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase()
  if (!/\.(jsonl|json)(\.gz)?$/.test(name)) return null
  const m = /(?:^|[_.-])(cuts|recordings|supervisions)(?:[_.-]|$)/.exec(name)
  return m ? (m[1] as 'cuts' | 'recordings' | 'supervisions') : null
}

/** The Lhotse manifests of an input (anywhere in it), sorted. */
export function lhotseManifests(input: InputFiles): string[] {
  return input.files.map((f) => f.path).filter((p) => lhotseKind(p) !== null)
}

interface Source { type?: string; channels?: number[]; source?: string }
interface Recording { id?: string; sources?: Source[]; sampling_rate?: number; duration?: number }
interface Supervision { id?: string; recording_id?: string; start?: number; duration?: number; text?: string | null; language?: string | null; custom?: Record<string, unknown> | null }
interface Cut { id?: string; start?: number; duration?: number; recording?: Recording; supervisions?: Supervision[]; type?: string }

/** The records of one manifest, in order, with their line (or array position). */
async function* records(input: InputFiles, path: string, signal?: AbortSignal): AsyncGenerator<{ where: string; value: unknown; error: string | null }> {
  if (/\.json(\.gz)?$/i.test(path)) {
    // the older JSON-array form (Lhotse's own test fixtures): its elements one by one, never the file whole
    for await (const item of readJsonArray(input, path, signal)) {
      const where = item.index < 0 && item.error !== null ? path : `${path}[${Math.max(0, item.index)}]`
      if (item.error !== null) yield { where, value: null, error: item.error }
      else if (item.index < 0 && Array.isArray(item.value)) continue
      else yield { where, value: item.value, error: null }
    }
    return
  }
  for await (const { line, number } of readLines(input, path, signal)) {
    if (!line.trim()) continue
    try {
      yield { where: `${path}:${number}`, value: JSON.parse(line), error: null }
    } catch (error) {
      yield { where: `${path}:${number}`, value: null, error: `not JSON (${(error as Error).message})` }
    }
  }
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/** The audio of `[start, start + duration)` of a recording, or why it cannot be read. */
function recordingAudio(input: InputFiles, manifestDir: string, rec: Recording | undefined, start: number, duration: number | null, paths: NemoPaths): AudioRef | string {
  if (!rec || !Array.isArray(rec.sources) || rec.sources.length === 0) return 'no recording'
  if (rec.sources.length > 1) return `recording ${rec.id ?? '?'} is split over ${rec.sources.length} sources (one per channel): not read`
  const src = rec.sources[0]
  if (src.type !== 'file' || typeof src.source !== 'string') return `recording ${rec.id ?? '?'} has a "${src.type ?? '?'}" source: only "file" sources are read`
  const audio: AudioRef = { kind: 'file', path: resolveNemoPath(input, manifestDir, src.source, paths) }
  const whole = start === 0 && (duration === null || (num(rec.duration) !== null && duration >= rec.duration! - 1e-6))
  if (!whole) audio.segment = { offset: start, duration }
  return audio
}

/**
 * Rows of the cuts manifests, or of the supervisions manifests with their recordings, into `out`.
 * @param budget memory the recordings of one manifest may hold (their records past it go to the budget's spill)
 */
export async function readLhotse(input: InputFiles, manifests: string[], out: RowSink, signal?: AbortSignal, paths: NemoPaths = {}, budget: PlanBudget = {}): Promise<{ notes: string[]; joins: LhotseJoin[] }> {
  const notes: string[] = []
  const joins: LhotseJoin[] = []
  const cuts = manifests.filter((p) => lhotseKind(p) === 'cuts')
  const supervisions = manifests.filter((p) => lhotseKind(p) === 'supervisions')
  const recordings = new Set(manifests.filter((p) => lhotseKind(p) === 'recordings'))
  const bad = (where: string, split: string | null, message: string) =>
    out.add({ where, audio: null, text: null, language: null, split, corpus: null, duration: null, problem: { reason: 'bad-input-row', message: `${where}: ${message}` } })

  for (const path of cuts) {
    const split = splitName(splitFromPath(path.replace(/\.gz$/i, '')))
    for await (const r of records(input, path, signal)) {
      if (r.error || !r.value || typeof r.value !== 'object') { await bad(r.where, split, r.error ?? 'not a JSON object'); continue }
      const cut = r.value as Cut
      if (cut.type && cut.type !== 'MonoCut') { await bad(r.where, split, `a ${cut.type} (mixed or multi-channel cuts are not read)`); continue }
      const sups = (cut.supervisions ?? []).slice().sort((a, b) => (num(a.start) ?? 0) - (num(b.start) ?? 0))
      const audio = recordingAudio(input, dirOf(path), cut.recording, num(cut.start) ?? 0, num(cut.duration), paths)
      if (typeof audio === 'string') { await bad(r.where, split, audio); continue }
      const languages = [...new Set(sups.map((s) => text(s.language)).filter((l): l is string => !!l))]
      const corpora = [...new Set(sups.map((s) => text(s.custom?.corpus)).filter((c): c is string => !!c))]
      const texts = sups.map((s) => text(s.text)).filter((t): t is string => t !== null)
      await out.add({
        where: r.where, audio,
        text: texts.length ? texts.join(' ') : null,
        language: languages.length === 1 ? languages[0] : null,
        split, corpus: corpora.length === 1 ? corpora[0] : null, duration: num(cut.duration),
        problem: languages.length > 1 ? { reason: 'bad-input-row', message: `${r.where}: supervisions in several languages (${languages.join(', ')})` } : null,
      })
    }
  }

  for (const path of supervisions) {
    const split = splitName(splitFromPath(path.replace(/\.gz$/i, '')))
    const recPath = path.replace(/supervisions(?=[^/]*$)/i, (m) => (m === 'SUPERVISIONS' ? 'RECORDINGS' : 'recordings'))
    if (!recordings.has(recPath)) {
      notes.push(`lhotse: ${path} has no ${recPath} beside it; its supervisions are not read`)
      continue
    }
    joins.push(await joinManifests(input, path, recPath, split, out, signal, paths, budget))
  }
  const lone = [...recordings].filter((p) => !supervisions.some((s) => s.replace(/supervisions(?=[^/]*$)/i, 'recordings') === p))
  if (lone.length) notes.push(`lhotse: ${lone.join(', ')} not read (no supervisions manifest beside them)`)
  return { notes, joins }
}

/** How a supervisions manifest was joined with its recordings. */
export interface LhotseJoin {
  supervisions: string
  /** Recording records read (an id given twice counts twice). */
  recordings: number
  /** 1: in memory; more: hash partitions, each joined on its own (`PlanBudget.keys`). */
  partitions: number
  /** Recording records of the largest partition. */
  largestPartition: number
  /** Bytes the join wrote to its spill file (0 in memory). */
  spilledBytes: number
}

/** What of a supervision its row takes, as the partitioned join spills it: `[ordinal, where, recording_id, start, duration, text, language, corpus]`. */
type SupLine = [number, string, string, number | null, number | null, string | null, string | null, string | null]

/** A row that is not read: `bad-input-row` with its message. */
function badRow(where: string, split: string | null, message: string): ScannedRow {
  return { where, audio: null, text: null, language: null, split, corpus: null, duration: null, problem: { reason: 'bad-input-row', message: `${where}: ${message}` } }
}

/** What a supervision's row needs of it, or its row when it cannot be joined (not a JSON object, no string `recording_id`). */
function supervisionOf(r: { where: string; value: unknown; error: string | null }, recPath: string, split: string | null, ordinal: number): SupLine | ScannedRow {
  if (r.error || !r.value || typeof r.value !== 'object') return badRow(r.where, split, r.error ?? 'not a JSON object')
  const sup = r.value as Supervision
  if (typeof sup.recording_id !== 'string') return badRow(r.where, split, `recording ${JSON.stringify(sup.recording_id)} is not in ${recPath}`)
  return [ordinal, r.where, sup.recording_id, num(sup.start), num(sup.duration), text(sup.text), text(sup.language), text(sup.custom?.corpus)]
}

/** A supervision's row, from its recording (as `KeyedRecords` holds it: JSON), if it has one. */
function supervisionRow(input: InputFiles, sup: SupLine, found: string | undefined, recPath: string, split: string | null, paths: NemoPaths): ScannedRow {
  const [, where, recordingId, start, duration, txt, language, corpus] = sup
  const rec = found === undefined ? undefined : JSON.parse(found) as Recording
  if (!rec) return badRow(where, split, `recording ${JSON.stringify(recordingId)} is not in ${recPath}`)
  const audio = recordingAudio(input, dirOf(recPath), rec, start ?? 0, duration, paths)
  if (typeof audio === 'string') return badRow(where, split, audio)
  return { where, audio, text: txt, language, split, corpus, duration, problem: null }
}

/** Streams the final merge reads at once (each two chunks of 64 KiB to 1 MiB); more are merged in passes first. */
const MERGE_FAN_IN = 128

/** The lines of stream `n` (`[ordinal, …]` JSON), each with its ordinal: the number the line starts with. */
async function* ordinalLines(s: SpilledStreams, n: number): AsyncGenerator<[number, string]> {
  for await (const line of s.lines(n)) yield [Number.parseInt(line.slice(1), 10), line]
}

/** One partition of the join: the streams of its recordings, their count and bytes, the stream of its supervisions. */
interface JoinPartition { recordStreams: number[]; records: number; bytes: number; supStream: number }

/**
 * Buckets (`streams[b]` holding `counts[b]` recordings, `bytes[b]` bytes) grouped into partitions within the budget
 * (`groupBuckets`; groups of empty buckets dropped), each with a new stream for its supervisions.
 * @returns the partitions and, per bucket, its partition (0 for an empty bucket that is in none: no recording of its
 * ids is there, so its supervisions join nothing wherever they go)
 */
function partitionBuckets(streams: readonly number[], counts: readonly number[], bytes: readonly number[], keys: number, byteBudget: number,
  supStream: () => number): { parts: JoinPartition[]; partOf: Uint16Array } {
  const partOf = new Uint16Array(KEY_BUCKETS)
  const groups = groupBuckets(counts, keys, bytes, byteBudget).filter((g) => g.some((b) => counts[b] > 0))
  const parts = groups.map((group, k): JoinPartition => {
    for (const b of group) partOf[b] = k
    return { recordStreams: group.map((b) => streams[b]), records: group.reduce((n, b) => n + counts[b], 0), bytes: group.reduce((n, b) => n + bytes[b], 0), supStream: supStream() }
  })
  return { parts, partOf }
}

/**
 * A partition over the budget split `KEY_BUCKETS` ways by `splitBucket(id, level)`: its recordings rewritten to one
 * stream per bucket (in the order read, so an id's records keep theirs), the buckets grouped within the budget, its
 * supervisions rewritten to their group's stream (in their order). The partition's streams are read and gone after.
 * @returns the parts, non-empty ones only (one when every recording went to one bucket)
 */
async function splitPartition(s: SpilledStreams, p: JoinPartition, level: number, keys: number, byteBudget: number, newStream: () => number): Promise<JoinPartition[]> {
  const buckets = Array.from({ length: KEY_BUCKETS }, () => newStream())
  const counts = new Array<number>(KEY_BUCKETS).fill(0)
  const bytes = new Array<number>(KEY_BUCKETS).fill(0)
  for (const b of p.recordStreams) {
    for await (const line of s.lines(b)) {
      const [key] = JSON.parse(line) as [string, string]
      const to = splitBucket(key, level)
      counts[to]++
      bytes[to] += await s.write(buckets[to], line)
    }
  }
  for (const [b, n] of counts.entries()) if (n > 0) await s.end(buckets[b])
  const { parts, partOf } = partitionBuckets(buckets, counts, bytes, keys, byteBudget, () => newStream())
  for await (const line of s.lines(p.supStream)) {
    const sup = JSON.parse(line) as SupLine
    await s.write(parts[partOf[splitBucket(sup[2], level)]].supStream, line)
  }
  return parts
}

/**
 * The rows of a supervisions manifest joined with its recordings manifest, in the supervisions' order, into `out`.
 * The recordings are read into `KeyedRecords` (each one compact string, about 20 bytes of index); past `budget.keys`
 * of them (with a spill file), the join goes on partitioned (partitioned-join.ts), in bounded memory whatever the
 * number of recordings, and gives the same rows in the same order:
 * 1. the recordings are written to `KEY_BUCKETS` buckets of a spill file by the hash of their id (those already read
 *    first, in the order read), counted and their bytes summed per bucket; consecutive buckets are grouped into
 *    partitions of at most `budget.keys` recordings and three quarters of `budget.bytes` (so a partition's records
 *    are looked up in memory; a bucket over either is a partition of its own);
 * 2. the supervisions are written, with their ordinal, to their recording id's partition; a supervision that joins
 *    nothing (a bad line, no string `recording_id`) goes, as its row, to a stream of its own;
 * 3. per partition: its recordings are read into `KeyedRecords` (the last one for an id wins, as in memory: an id's
 *    records are all in one bucket, in the order read), its supervisions streamed and joined, their rows written
 *    with their ordinals. A partition still over the budget (one bucket: past about 256 × `budget.keys` recordings)
 *    is first split again, `KEY_BUCKETS` ways by a hash of its own (`splitBucket`), its recordings and supervisions
 *    rewritten to its parts, up to `MAX_SPLIT_LEVELS` times (not when every recording went one way: one id given
 *    again and again is one key in memory);
 * 4. the partitions' rows and the rows of step 2 (each in ordinal order) are merged by ordinal into `out` (past
 *    `MERGE_FAN_IN` partitions, in passes: groups of them merged into a stream each first).
 * The spill file is removed when done, also on an error or abort.
 */
async function joinManifests(input: InputFiles, path: string, recPath: string, split: string | null, out: RowSink, signal: AbortSignal | undefined, paths: NemoPaths, budget: PlanBudget): Promise<LhotseJoin> {
  const keys = Math.max(1, budget.keys ?? DEFAULT_JOIN_KEYS)
  const stats: LhotseJoin = { supervisions: path, recordings: 0, partitions: 1, largestPartition: 0, spilledBytes: 0 }
  let byId: KeyedRecords | null = new KeyedRecords(budget)
  let streams: SpilledStreams | null = null
  const counts = new Array<number>(KEY_BUCKETS).fill(0)
  const bytes = new Array<number>(KEY_BUCKETS).fill(0)
  const toBucket = async (key: string, value: string) => {
    const b = keyBucket(key)
    counts[b]++
    bytes[b] += await streams!.write(b, JSON.stringify([key, value]))
  }
  try {
    for await (const r of records(input, recPath, signal)) {
      const rec = r.value as Recording | null
      if (!rec || typeof rec.id !== 'string') continue
      stats.recordings++
      // what recordingAudio reads of it
      const value = JSON.stringify({ id: rec.id, sources: rec.sources, duration: rec.duration } satisfies Recording)
      if (byId) {
        await byId.set(rec.id, value)
        if (byId.size <= keys || !budget.spill) continue
        // past the budget: what is held goes to the buckets, in the order it was set, and the join is partitioned
        streams = new SpilledStreams(budget.spill)
        for await (const [key, held] of byId.sets()) await toBucket(key, held)
        await byId.close()
        byId = null
      } else await toBucket(rec.id, value)
    }
    if (byId) {
      stats.largestPartition = stats.recordings
      let ordinal = 0
      for await (const r of records(input, path, signal)) {
        const sup = supervisionOf(r, recPath, split, ordinal++)
        await out.add(Array.isArray(sup) ? supervisionRow(input, sup, await byId.get(sup[2]), recPath, split, paths) : sup)
      }
      return stats
    }
    const s = streams!
    // a partition's records fit the budget's bytes too (three quarters: slabs are not filled to the last byte), so
    // they are looked up in memory, not in a spill
    const byteBudget = (budget.bytes ?? Infinity) * 0.75
    // stream numbers: buckets 0…255, then the others as they are made
    let streamCount = KEY_BUCKETS
    const newStream = (chunkBytes?: number) => {
      const n = streamCount++
      if (chunkBytes) s.chunkBytes(n, chunkBytes)
      return n
    }
    const { parts: partitions, partOf: partitionOf } = partitionBuckets(Array.from({ length: KEY_BUCKETS }, (_, b) => b), counts, bytes, keys, byteBudget, () => newStream())
    // the first partitions' supervisions' and rows' streams in longer chunks: 32 MiB over all of them (the merge reads
    // every rows' stream at once, two chunks each), each 64 KiB to 1 MiB; those of a split partition's parts 64 KiB
    const chunk = Math.min(1 << 20, Math.max(64 * 1024, Math.floor((32 << 20) / (partitions.length + 1))))
    for (const p of partitions) s.chunkBytes(p.supStream, chunk)
    const unjoined = newStream(chunk)
    let ordinal = 0
    for await (const r of records(input, path, signal)) {
      const o = ordinal++
      const sup = supervisionOf(r, recPath, split, o)
      if (Array.isArray(sup)) await s.write(partitions[partitionOf[keyBucket(sup[2])]].supStream, JSON.stringify(sup))
      else await s.write(unjoined, JSON.stringify([o, sup]))
    }
    const rowStreams: number[] = []
    stats.partitions = 0
    /** Joins one partition in memory, or, over the budget, splits it again and joins its parts. */
    const joinPart = async (p: JoinPartition, level: number, rowChunk: number): Promise<void> => {
      if ((p.records > keys || p.bytes > byteBudget) && level < MAX_SPLIT_LEVELS) {
        const parts = await splitPartition(s, p, level + 1, keys, byteBudget, newStream)
        // no split when every record went one way (one id given again and again): joined as it is
        if (parts.length > 1) {
          for (const part of parts) await joinPart(part, level + 1, 64 * 1024)
          return
        }
        p = parts[0]
      }
      const part = byId = new KeyedRecords(budget)
      for (const b of p.recordStreams) {
        for await (const line of s.lines(b)) {
          const [key, value] = JSON.parse(line) as [string, string]
          await part.set(key, value)
        }
      }
      const rowStream = newStream(rowChunk)
      rowStreams.push(rowStream)
      stats.partitions++
      stats.largestPartition = Math.max(stats.largestPartition, p.records)
      for await (const line of s.lines(p.supStream)) {
        const sup = JSON.parse(line) as SupLine
        await s.write(rowStream, JSON.stringify([sup[0], supervisionRow(input, sup, await part.get(sup[2]), recPath, split, paths)]))
        signal?.throwIfAborted()
      }
      await part.close()
      byId = null
    }
    for (const p of partitions) await joinPart(p, 0, chunk)
    // the merge reads two chunks of every stream at once: past `MERGE_FAN_IN` streams (split partitions) they are
    // merged a group at a time into fewer streams first, so its memory stays bounded however many partitions there are
    let merging = [...rowStreams, unjoined]
    while (merging.length > MERGE_FAN_IN) {
      const merged: number[] = []
      for (let i = 0; i < merging.length; i += MERGE_FAN_IN) {
        const to = newStream(64 * 1024)
        for await (const [, line] of mergeByOrdinal(merging.slice(i, i + MERGE_FAN_IN).map((n) => ordinalLines(s, n)))) {
          await s.write(to, line)
          signal?.throwIfAborted()
        }
        merged.push(to)
      }
      merging = merged
    }
    for await (const [, line] of mergeByOrdinal(merging.map((n) => ordinalLines(s, n)))) {
      await out.add((JSON.parse(line) as [number, ScannedRow])[1])
      signal?.throwIfAborted()
    }
    stats.spilledBytes = s.spilledBytes
    return stats
  } finally {
    await byId?.close()
    await streams?.close()
  }
}
