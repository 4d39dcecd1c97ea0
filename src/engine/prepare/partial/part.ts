/**
 * A sharded dataprep (`prepare --shard i/N --out FILE`, docs/conventions.md "Sharded jobs"): every shard plans the
 * whole input (transcripts, languages, the reference's shuffles: no audio is read for that), converts the audio of
 * one contiguous range of input rows in reading order (`InputRow.index`), balanced by the input audio's bytes, and
 * writes the converted clips to its part. `mergePrepareParts` then runs the dataprep's own writer over shard 0's
 * plan, taking each clip from the part that converted it: streams, shuffles, files, row groups and the stats TSV
 * are decided once, on the whole plan, so the merged folder is the unsharded one byte for byte
 * (docs/interpretations.md "Dataprep").
 *
 * Part layout: the clips' encoded bytes one after the other, then the part's JSON (`stringifyPart`), then its
 * length as a little-endian uint64 and the 16 bytes `MIXSCOPE-PART-1\n`.
 */
import { contentHash } from '../../core/content-hash.ts'
import { MixscopeError } from '../../core/findings.ts'
import { shardRange } from '../../shard/balance.ts'
import { checkPartSet, parsePart, stringifyPart, type NamedPart, type PartHeader } from '../../shard/part.ts'
import type { ShardSpec } from '../../shard/select.ts'
import type { ClipProcessor, ClipResult } from '../clip.ts'
import type { AudioFormat } from '../encode/types.ts'
import type { InputFiles } from '../inputs/input-files.ts'
import { planFingerprint } from '../plan.ts'
import { rowConverter, runPrepare, type PrepareProgress } from '../run.ts'
import type { PlannedRow, PreparePlan, PrepareReport } from '../types.ts'
import type { OutputFile, OutputSink } from '../write/sink.ts'

/** A converted clip in a part: `[input index, offset, length, audio_size, source rate, source channels, source frames]`. */
export type PartClip = [number, number, number, number, number, number, number]
/** A row whose audio could not be converted: `[input index, message]`, or `[input index, message, 'missing-audio']`. */
export type PartFailure = [number, string] | [number, string, 'missing-audio']

/** Whether a part's entry is a failure (a clip has seven numbers). */
export function isPartFailure(c: PartClip | PartFailure): c is PartFailure {
  return typeof c[1] === 'string'
}

/** One shard's dataprep part (its JSON; the clips' bytes precede it in the file). */
export interface PreparePart extends PartHeader {
  kind: 'prepare'
  /** The `createdBy` of the parquet files (the merge writes them). */
  createdBy: string
  /** Rows of this shard in reading order. */
  clips: (PartClip | PartFailure)[]
  /** The whole plan: only in shard 0. */
  plan: PreparePlan | null
}

/** The 16 bytes a binary part ends with. */
export const partMagic = new TextEncoder().encode('MIXSCOPE-PART-1\n')

const utf8 = new TextEncoder()

/** Planned rows in reading order (input index), with the weights shards balance: the input audio's bytes. */
export function plannedUnits(plan: PreparePlan, input: Pick<InputFiles, 'sizes'>): { rows: PlannedRow[]; bytes: number[] } {
  const rows = plan.partitions.flatMap((p) => p.rows).sort((a, b) => a.index - b.index)
  const perFile = new Map<string, number>()
  for (const r of rows) if (r.audio.kind === 'parquet') perFile.set(r.audio.file, (perFile.get(r.audio.file) ?? 0) + 1)
  const bytes = rows.map((r) => r.audio.kind === 'file' ? input.sizes.get(r.audio.path) ?? 0 : r.audio.kind === 'member' ? r.audio.end - r.audio.start : (input.sizes.get(r.audio.file) ?? 0) / perFile.get(r.audio.file)!)
  return { rows, bytes }
}

/** Fingerprint of the input folder's listing (paths and sizes). */
export function inputFingerprint(input: Pick<InputFiles, 'files'>): string {
  return contentHash(utf8.encode(JSON.stringify(input.files.map((f) => [f.path, f.size]))))
}

/** Options of `prepareShard`. */
export interface PrepareShardOptions {
  plan: PreparePlan
  input: InputFiles
  /** The input as the user named it (the part's `dataset.root`). */
  root: string
  processClip: ClipProcessor
  /** Where the part goes: written front to back, then closed. */
  out: OutputFile
  concurrency?: number
  signal?: AbortSignal
  onProgress?: (done: number, total: number) => void
  createdBy?: string
}

/**
 * Converts shard `shard`'s rows into a part.
 * @returns the part's JSON (already written to `out`, after the clips)
 */
export async function prepareShard(shard: Pick<ShardSpec, 'index' | 'count'>, options: PrepareShardOptions): Promise<PreparePart> {
  const started = performance.now()
  const { plan, input, out, signal } = options
  const units = plannedUnits(plan, input)
  const range = shardRange(units.bytes, shard.index, shard.count)
  const rows = units.rows.slice(range.first, range.end)
  const convert = rowConverter(input, options.processClip, plan.audioFormat as AudioFormat)
  const concurrency = Math.max(1, options.concurrency ?? 4)
  const clips: PreparePart['clips'] = []
  let offset = 0
  const queue: Promise<ClipResult>[] = []
  let next = 0
  for (let i = 0; i < rows.length; i++) {
    while (queue.length < concurrency && next < rows.length) queue.push(convert(rows[next++], signal))
    const result = await queue.shift()!
    signal?.throwIfAborted()
    if (result.ok) {
      await out.write(result.audio)
      clips.push([rows[i].index, offset, result.audio.length, result.audioSize, result.sourceRate, result.sourceChannels, result.sourceFrames])
      offset += result.audio.length
    } else clips.push(result.reason === 'missing-audio' ? [rows[i].index, result.error, result.reason] : [rows[i].index, result.error])
    options.onProgress?.(i + 1, rows.length)
  }
  const fp = planFingerprint(plan)
  const part: PreparePart = {
    format: 'mixscope-part', version: 1, kind: 'prepare',
    shard: { index: shard.index, count: shard.count },
    dataset: { root: options.root, fingerprint: inputFingerprint(input), files: input.files.length, units: units.rows.length },
    config: { fingerprint: fp, description: `${plan.format} input, ${plan.audioFormat}, version=${plan.version}, plan ${fp}` },
    range,
    timing: { seconds: (performance.now() - started) / 1000 },
    createdBy: options.createdBy ?? 'mixscope prepare (hyparquet-writer)',
    clips,
    plan: shard.index === 0 ? plan : null,
  }
  const json = utf8.encode(stringifyPart(part))
  const tail = new Uint8Array(8 + partMagic.length)
  new DataView(tail.buffer).setBigUint64(0, BigInt(json.length), true)
  tail.set(partMagic, 8)
  await out.write(json)
  await out.write(tail)
  await out.close()
  return part
}

/** Random access to one part file. */
export interface PartBytes {
  /** Where it was read from (a path). */
  name: string
  size: number
  read(offset: number, length: number): Promise<Uint8Array>
}

function partError(message: string): MixscopeError {
  return new MixscopeError(`merge: ${message}`, 'bad-parts', 'usage')
}

/** Whether `tail` (a file's last bytes, at least 16) ends with the binary part magic. */
export function isBinaryPart(tail: Uint8Array): boolean {
  if (tail.length < partMagic.length) return false
  const end = tail.subarray(tail.length - partMagic.length)
  return end.every((b, i) => b === partMagic[i])
}

/** Reads the JSON of a binary part. @throws MixscopeError naming the file when it is not one */
export async function readPartJson(file: PartBytes): Promise<unknown> {
  const n = 8 + partMagic.length
  if (file.size < n) throw partError(`${file.name} is not a mixscope part file (${file.size} bytes)`)
  const tail = await file.read(file.size - n, n)
  if (!isBinaryPart(tail)) throw partError(`${file.name} is not a mixscope part file (no part trailer: cut short while written?)`)
  const length = Number(new DataView(tail.buffer, tail.byteOffset, 8).getBigUint64(0, true))
  if (length > file.size - n) throw partError(`${file.name} is damaged: its JSON would be ${length} bytes of ${file.size}`)
  const json = await file.read(file.size - n - length, length)
  return parsePart(file.name, new TextDecoder().decode(json))
}

/** Options of `mergePrepareParts`. */
export interface MergePrepareOptions {
  sink: OutputSink
  signal?: AbortSignal
  onProgress?: (progress: PrepareProgress) => void
  concurrency?: number
}

/**
 * Writes the dataset of a sharded dataprep from its parts (any order).
 * @returns the report `prepare` gives for the whole input
 * @throws MixscopeError (`bad-parts`, exit class usage) when the parts are not exactly shards 0…N−1 of one dataprep
 */
export async function mergePrepareParts(parts: readonly { bytes: PartBytes; part: PreparePart }[], options: MergePrepareOptions): Promise<PrepareReport> {
  const ordered = checkPartSet(parts.map((p) => ({ name: p.bytes.name, header: p.part })) as NamedPart<PreparePart>[])
  const byName = new Map(parts.map((p) => [p.bytes.name, p]))
  const first = byName.get(ordered[0].name)!
  const plan = first.part.plan
  if (!plan) throw partError(`${first.bytes.name} is shard 0 but lacks the plan`)
  const where = new Map<number, { file: PartBytes; clip: PartClip | PartFailure }>()
  for (const { name } of ordered) {
    const { bytes, part } = byName.get(name)!
    for (const clip of part.clips) where.set(clip[0], { file: bytes, clip })
  }
  const convert = async (row: PlannedRow): Promise<ClipResult> => {
    const at = where.get(row.index)
    if (!at) throw partError(`no part holds input row ${row.index} (${row.where})`)
    const c = at.clip
    if (isPartFailure(c)) return { ok: false, error: c[1], ...(c[2] ? { reason: c[2] } : {}) }
    const [, offset, length, audioSize, sourceRate, sourceChannels, sourceFrames] = c
    return { ok: true, audio: await at.file.read(offset, length), audioSize, sourceRate, sourceChannels, sourceFrames }
  }
  return runPrepare({
    plan, sink: options.sink, processClip: () => Promise.reject(new Error('merge: no clip is converted again')), convert,
    concurrency: options.concurrency ?? 8, signal: options.signal, onProgress: options.onProgress, createdBy: first.part.createdBy,
  })
}
