/**
 * A sharded dataprep (`prepare --shard i/N --out FILE`, docs/conventions.md "Sharded jobs"): the input rows in
 * reading order (`InputRow.index`) are cut into N contiguous ranges of equal counts (`shardRows`); every shard counts
 * the rows (a manifest's lines, none parsed), plans only its own range, converts its rows' audio and writes the
 * converted clips and its plan's state (`PlanState`: its rows, unshuffled) to its part. `mergePrepareParts` merges
 * the states of shards 0…N−1 in order into the plan of the whole input — the shuffles are taken there, over whole
 * streams — and runs the dataprep's own writer over it, taking each clip from the part that converted it, so the
 * merged folder is the unsharded one byte for byte (docs/interpretations.md "Dataprep").
 *
 * Part layout: the clips' encoded bytes one after the other, then the part's JSON (`stringifyPart`), then its
 * length as a little-endian uint64 and the 16 bytes `MIXSCOPE-PART-1\n`.
 */
import { contentHash } from '../../core/content-hash.ts'
import { MixscopeError } from '../../core/findings.ts'
import { checkPartSet, parsePart, stringifyPart, type NamedPart, type PartHeader } from '../../shard/part.ts'
import type { ShardSpec } from '../../shard/select.ts'
import type { ClipProcessor, ClipResult, StreamedClipConverter } from '../clip.ts'
import type { AudioFormat } from '../encode/types.ts'
import type { InputFiles } from '../inputs/input-files.ts'
import type { InputScan } from '../inputs/types.ts'
import { fingerprint, shardRows } from '../plan.ts'
import { PlanBuilder, type PlanState } from '../plan-builder.ts'
import type { PlanBudget } from '../plan-store.ts'
import { rowConverter, runPrepare, type PrepareProgress } from '../run.ts'
import type { PlannedRow, PrepareOptions, PreparePlan, PrepareReport } from '../types.ts'
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
  /** This shard's plan: its rows' decisions, in reading order (merged, the plan of the whole input). */
  plan: PlanState
}

/** The 16 bytes a binary part ends with. */
export const partMagic = new TextEncoder().encode('MIXSCOPE-PART-1\n')

const utf8 = new TextEncoder()

/** Fingerprint of the input folder's listing (paths and sizes). */
export function inputFingerprint(input: Pick<InputFiles, 'files'>): string {
  return contentHash(utf8.encode(JSON.stringify(input.files.map((f) => [f.path, f.size]))))
}

/** A shard's plan: only the rows of its cut of the input, in reading order. */
export interface ShardPlan {
  plan: PreparePlan
  builder: PlanBuilder
  range: { first: number; end: number; of: number }
}

/**
 * Plans shard `shard` of the input: counts the input rows, cuts them (`shardRows`) and plans only this shard's
 * range (the rows before it are not parsed, the rows after it not read).
 * @param budget memory the plan's rows may hold, and where the rest goes
 */
export async function planShard(scan: InputScan, input: InputFiles, options: PrepareOptions, shard: Pick<ShardSpec, 'index' | 'count'>, budget?: PlanBudget): Promise<ShardPlan> {
  const range = shardRows(await scan.count(), shard.index, shard.count)
  const builder = new PlanBuilder(scan.format, input, options, { budget })
  try {
    for await (const row of scan.rows(range)) {
      builder.add(row)
      if (builder.overBudget) await builder.flush()
    }
    return { plan: builder.finish(scan.notes, range), builder, range }
  } catch (error) {
    await builder.close()
    throw error
  }
}

/** Options of `prepareShard`. */
export interface PrepareShardOptions {
  /** The shard's plan (`planShard`); its spill is removed when the part is written. */
  planned: ShardPlan
  input: InputFiles
  /** The input as the user named it (the part's `dataset.root`). */
  root: string
  processClip: ClipProcessor
  /** Converts long raw-sample files a stretch at a time (`RunPrepareOptions.streamClip`). */
  streamClip?: StreamedClipConverter
  /** Where the part goes: written front to back, then closed. */
  out: OutputFile
  concurrency?: number
  signal?: AbortSignal
  onProgress?: (done: number, total: number) => void
  createdBy?: string
}

/** The fingerprint of what a dataprep is asked to do (every shard of one run has the same). */
export function prepareConfigFingerprint(format: string, options: PrepareOptions): string {
  return fingerprint(JSON.stringify([format, options]))
}

/**
 * Converts a shard's planned rows into a part.
 * @returns the part's JSON (already written to `out`, after the clips)
 */
export async function prepareShard(shard: Pick<ShardSpec, 'index' | 'count'>, options: PrepareShardOptions): Promise<PreparePart> {
  const started = performance.now()
  const { input, out, signal } = options
  const { plan, builder, range } = options.planned
  try {
    const rows = builder.keptRows()
    const convert = rowConverter(input, options.processClip, plan.audioFormat as AudioFormat, options.streamClip)
    const concurrency = Math.max(1, options.concurrency ?? 4)
    const clips: PreparePart['clips'] = []
    let offset = 0
    const queue: { row: PlannedRow; result: Promise<ClipResult> }[] = []
    let pending: PlannedRow[] = []
    let next = 0
    for (let i = 0; i < rows.length; i++) {
      while (queue.length < concurrency && next < rows.length) {
        if (!pending.length) pending = await rows.read(next, next + 1024)
        const row = pending.shift()!
        next++
        queue.push({ row, result: convert(row, signal) })
      }
      const { row, result: pendingResult } = queue.shift()!
      const result = await pendingResult
      signal?.throwIfAborted()
      if (result.ok) {
        await out.write(result.audio)
        clips.push([row.index, offset, result.audio.length, result.audioSize, result.sourceRate, result.sourceChannels, result.sourceFrames])
        offset += result.audio.length
      } else clips.push(result.reason === 'missing-audio' ? [row.index, result.error, result.reason] : [row.index, result.error])
      options.onProgress?.(i + 1, rows.length)
    }
    const fp = prepareConfigFingerprint(plan.format, builder.options)
    const part: PreparePart = {
      format: 'mixscope-part', version: 1, kind: 'prepare',
      shard: { index: shard.index, count: shard.count },
      dataset: { root: options.root, fingerprint: inputFingerprint(input), files: input.files.length, units: range.of },
      config: { fingerprint: fp, description: `${plan.format} input, ${plan.audioFormat}, version=${plan.version}, options ${fp}` },
      range: { first: range.first, end: range.end },
      timing: { seconds: (performance.now() - started) / 1000 },
      createdBy: options.createdBy ?? 'mixscope prepare (hyparquet-writer)',
      clips,
      plan: await builder.state(),
    }
    const json = utf8.encode(stringifyPart(part))
    const tail = new Uint8Array(8 + partMagic.length)
    new DataView(tail.buffer).setBigUint64(0, BigInt(json.length), true)
    tail.set(partMagic, 8)
    await out.write(json)
    await out.write(tail)
    await out.close()
    return part
  } finally {
    await builder.close()
  }
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
  const states = ordered.map(({ name }) => byName.get(name)!.part.plan)
  const missing = ordered.find(({ name }) => !byName.get(name)!.part.plan?.streams)
  if (missing) throw partError(`${missing.name} lacks its plan (a part of an older mixscope?)`)
  const builder = PlanBuilder.merge(states)
  const plan = builder.finish(states[0].notes)
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
