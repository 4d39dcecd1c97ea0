/**
 * A sharded dataprep (`prepare --shard i/N --out FILE`, docs/conventions.md "Sharded jobs"): the input rows in
 * reading order (`InputRow.index`) are cut into N contiguous ranges of equal counts (`shardRows`); every shard counts
 * the rows (a manifest's lines, none parsed), plans only its own range, converts its rows' audio and writes the
 * converted clips and its plan's state (`PlanState`: its rows, unshuffled) to its part. `mergePrepareParts` merges
 * the states of shards 0…N−1 in order into the plan of the whole input — the shuffles are taken there, over whole
 * streams — and runs the dataprep's own writer over it, taking each clip from the part that converted it, so the
 * merged folder is the unsharded one byte for byte (docs/interpretations.md "Dataprep").
 *
 * Part layout, written front to back and read back in pieces (no string or array of it grows with the row count):
 * 1. the clips' encoded bytes one after the other;
 * 2. the failures section: one JSON line per row whose audio could not be converted, `[message]` or
 *    `[message, "missing-audio"]`;
 * 3. the clips section: per converted or failed row, in reading order, 7 little-endian float64
 *    (`CLIP_BYTES`): `[input index, offset, length, audio_size, source rate, source channels, source frames]`, or for
 *    a failure `[input index, −1, offset of its line in the failures section, the line's length, 0, 0, 0]`;
 * 4. the plan section: the lines of the shard's plan state (`PlanState`);
 * 5. the part's header JSON (`stringifyPart`: the envelope, the plan state without its rows, where the sections
 *    are), then its length as a little-endian uint64 and the 16 bytes `MIXSCOPE-PART-1\n`.
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
import { RecordStore, type PlanBudget, type PlanSpill } from '../plan-store.ts'
import { rowConverter, runPrepare, type PrepareProgress } from '../run.ts'
import type { PlannedRow, PrepareOptions, PreparePlan, PrepareReport } from '../types.ts'
import type { OutputFile, OutputSink } from '../write/sink.ts'

/** Bytes of one entry of a part's clips section: 7 little-endian float64. */
export const CLIP_BYTES = 56

/** A stretch of a part file: `length` bytes from byte `offset` of the file. */
export interface PartSection {
  offset: number
  length: number
}

/** One shard's dataprep part (its header JSON; the clips' bytes and the sections precede it in the file). */
export interface PreparePart extends PartHeader {
  kind: 'prepare'
  /** The `createdBy` of the parquet files (the merge writes them). */
  createdBy: string
  /** Where the sections are (see the module comment); `clips.count` entries, `clips.failed` of them failures. */
  sections: { failures: PartSection; clips: PartSection & { count: number; failed: number }; plan: PartSection }
  /** This shard's plan: its rows' decisions (in the plan section, in reading order), merged: the plan of the whole input. */
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
  /** Memory the clips entries and failures may hold until the part's sections are written (Node: `nodePlanBudget`). */
  budget?: PlanBudget
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
  const clips = new ClipColumns(options.budget)
  const failures = new RecordStore(options.budget)
  try {
    const rows = builder.keptRows()
    const convert = rowConverter(input, options.processClip, plan.audioFormat as AudioFormat, options.streamClip)
    const concurrency = Math.max(1, options.concurrency ?? 4)
    let offset = 0
    let written = 0
    const write = async (bytes: Uint8Array) => { await out.write(bytes); written += bytes.length }
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
        await write(result.audio)
        await clips.push(row.index, offset, result.audio.length, result.audioSize, result.sourceRate, result.sourceChannels, result.sourceFrames)
        offset += result.audio.length
      } else {
        await clips.push(row.index, -1, failures.append(JSON.stringify(result.reason === 'missing-audio' ? [result.error, result.reason] : [result.error])), 0, 0, 0, 0)
        if (failures.overBudget) await failures.flush()
      }
      options.onProgress?.(i + 1, rows.length)
    }
    // the failures' lines, then the clips, their failures pointing at their lines
    const failuresAt = written
    const lineAt = new Float64Array(failures.length)
    const lineLength = new Float64Array(failures.length)
    for (let k = 0; k < failures.length;) {
      const lines: Uint8Array[] = []
      let size = 0
      for (; k < failures.length && size < STRETCH_BYTES; k++) {
        const bytes = utf8.encode((await failures.get(k)) + '\n')
        lineAt[k] = written - failuresAt + size
        lineLength[k] = bytes.length - 1
        lines.push(bytes)
        size += bytes.length
      }
      await write(concat(lines, size))
    }
    const failuresSection = { offset: failuresAt, length: written - failuresAt }
    const clipsAt = written
    for (let k = 0, c = 0; k < clips.length; c++) {
      const entries = await clips.chunk(c)
      const n = Math.min(clips.perChunk, clips.length - k)
      const bytes = new Uint8Array(n * CLIP_BYTES)
      const view = new DataView(bytes.buffer)
      for (let j = 0; j < n; j++, k++) {
        const entry = entries.subarray(j * 7, j * 7 + 7)
        for (let v = 0; v < 7; v++) view.setFloat64(j * CLIP_BYTES + v * 8, entry[v], true)
        // a failure points at its line
        if (entry[1] < 0) { view.setFloat64(j * CLIP_BYTES + 16, lineAt[entry[2]], true); view.setFloat64(j * CLIP_BYTES + 24, lineLength[entry[2]], true) }
      }
      await write(bytes)
    }
    const clipsSection = { offset: clipsAt, length: written - clipsAt, count: clips.length, failed: failures.length }
    const planAt = written
    const state = await builder.writeState(write)
    const fp = prepareConfigFingerprint(plan.format, builder.options)
    const part: PreparePart = {
      format: 'mixscope-part', version: 1, kind: 'prepare',
      shard: { index: shard.index, count: shard.count },
      dataset: { root: options.root, fingerprint: inputFingerprint(input), files: input.files.length, units: range.of },
      config: { fingerprint: fp, description: `${plan.format} input, ${plan.audioFormat}, version=${plan.version}, options ${fp}` },
      range: { first: range.first, end: range.end },
      timing: { seconds: (performance.now() - started) / 1000 },
      createdBy: options.createdBy ?? 'mixscope prepare (hyparquet-writer)',
      sections: { failures: failuresSection, clips: clipsSection, plan: { offset: planAt, length: written - planAt } },
      plan: state,
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
    await clips.close()
    await failures.close()
  }
}

/** Bytes written or read at a time for a part's sections. */
const STRETCH_BYTES = CLIP_BYTES * 8192

function concat(pieces: Uint8Array[], size: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]
  const out = new Uint8Array(size)
  let at = 0
  for (const p of pieces) { out.set(p, at); at += p.length }
  return out
}

/**
 * A part's clips entries as they are converted, 7 doubles each, in chunks of 448 KiB (or the budget's `slabBytes`:
 * `perChunk` entries; a chunk is written as one stretch of the clips section); past `budget.bytes`,
 * full chunks go to the budget's spill (the clips section is written after the clips' bytes, so the entries wait).
 */
class ClipColumns {
  private readonly chunks: { data: Float64Array | null; spilledAt: number }[] = []
  private readonly budget: number
  private spill: PlanSpill | null = null
  private resident = 0
  private spilled = 0
  length = 0
  /** Entries per chunk. */
  readonly perChunk: number

  constructor(private readonly options: PlanBudget = {}) {
    this.budget = options.spill ? options.bytes ?? Infinity : Infinity
    this.perChunk = Math.max(1, Math.floor((options.slabBytes ?? STRETCH_BYTES) / CLIP_BYTES))
  }

  async push(...values: number[]): Promise<void> {
    const at = this.length % this.perChunk
    if (at === 0) {
      this.chunks.push({ data: new Float64Array(7 * this.perChunk), spilledAt: -1 })
      this.resident += 7 * this.perChunk * 8
    }
    this.chunks[this.chunks.length - 1].data!.set(values, at * 7)
    this.length++
    while (this.resident > this.budget && this.spilled < this.chunks.length - 1) {
      const chunk = this.chunks[this.spilled++]
      this.spill ??= await this.options.spill!()
      chunk.spilledAt = await this.spill.append(new Uint8Array(chunk.data!.buffer))
      chunk.data = null
      this.resident -= 7 * this.perChunk * 8
    }
  }

  /** The entries of chunk `c` (7 doubles each; the last chunk's tail past `length` is zeros). */
  async chunk(c: number): Promise<Float64Array> {
    const chunk = this.chunks[c]
    if (chunk.data) return chunk.data
    const bytes = await this.spill!.read(chunk.spilledAt, 7 * this.perChunk * 8)
    return new Float64Array(bytes.buffer, bytes.byteOffset, 7 * this.perChunk)
  }

  async close(): Promise<void> {
    await this.spill?.close()
    this.spill = null
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
  /** Memory the merged plan's rows may hold, and where the rest goes (default: all in memory). */
  budget?: PlanBudget
}

/**
 * The lines of `length` bytes of `file` from `offset`, read `piece` bytes at a time (default 448 KiB; a line may
 * span pieces). Memory: a piece and the line being read.
 */
export async function* sectionLines(file: PartBytes, offset: number, length: number, piece = STRETCH_BYTES): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  let rest = ''
  for (let at = 0; at < length; at += piece) {
    const text = rest + decoder.decode(await file.read(offset + at, Math.min(piece, length - at)), { stream: true })
    const lines = text.split('\n')
    rest = lines.pop()!
    yield* lines
  }
  rest += decoder.decode()
  if (rest) yield rest
}

/** Clips entries per block of a part's sparse index (a lookup reads one block: `CLIP_BYTES` × this). */
const BLOCK = 64
/** Blocks of clips entries kept, across parts. */
const BLOCKS_KEPT = 1024

/**
 * Finds the clip of an input row among the parts' clips sections: the part by its range of input rows, then the
 * block of `BLOCK` entries by a sparse index of each block's first input index (entries are in reading order), then
 * the entry in that block, read from the file (a few recent blocks kept). Memory: 4 bytes per `BLOCK` rows.
 */
class ClipFinder {
  private readonly parts: { file: PartBytes; part: PreparePart; firsts: Int32Array }[] = []
  private readonly blocks = new Map<string, Promise<DataView>>()

  async add(file: PartBytes, part: PreparePart): Promise<void> {
    const { offset, count } = part.sections.clips
    const firsts = new Int32Array(Math.ceil(count / BLOCK))
    for (let k = 0; k < count; k += STRETCH_BYTES / CLIP_BYTES) {
      const n = Math.min(count - k, STRETCH_BYTES / CLIP_BYTES)
      const bytes = await file.read(offset + k * CLIP_BYTES, n * CLIP_BYTES)
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
      for (let j = 0; j < n; j += BLOCK) firsts[(k + j) / BLOCK] = view.getFloat64(j * CLIP_BYTES, true)
    }
    this.parts.push({ file, part, firsts })
  }

  /** The clip of input row `index`, or null when no part holds it. */
  async find(index: number): Promise<ClipResult | null> {
    // parts are added in shard order: the last one whose range starts at or before `index`
    let lo = 0
    let hi = this.parts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.parts[mid].part.range.first <= index) lo = mid
      else hi = mid - 1
    }
    const p = this.parts[lo]
    if (!p || p.firsts.length === 0) return null
    let b = 0
    let e = p.firsts.length - 1
    while (b < e) {
      const mid = (b + e + 1) >> 1
      if (p.firsts[mid] <= index) b = mid
      else e = mid - 1
    }
    const view = await this.block(lo, b)
    const n = view.byteLength / CLIP_BYTES
    let at = -1
    for (let l = 0, h = n - 1; l <= h;) {
      const mid = (l + h) >> 1
      const v = view.getFloat64(mid * CLIP_BYTES, true)
      if (v === index) { at = mid; break }
      if (v < index) l = mid + 1
      else h = mid - 1
    }
    if (at < 0) return null
    const f = (c: number) => view.getFloat64(at * CLIP_BYTES + c * 8, true)
    const { file, part } = p
    if (f(1) < 0) {
      const line = new TextDecoder().decode(await file.read(part.sections.failures.offset + f(2), f(3)))
      const [error, reason] = JSON.parse(line) as [string, 'missing-audio'?]
      return { ok: false, error, ...(reason ? { reason } : {}) }
    }
    return { ok: true, audio: await file.read(f(1), f(2)), audioSize: f(3), sourceRate: f(4), sourceChannels: f(5), sourceFrames: f(6) }
  }

  private block(p: number, b: number): Promise<DataView> {
    const key = `${p}:${b}`
    let hit = this.blocks.get(key)
    if (hit) this.blocks.delete(key)
    else {
      const { file, part } = this.parts[p]
      const { offset, count } = part.sections.clips
      const n = Math.min(BLOCK, count - b * BLOCK)
      hit = file.read(offset + b * BLOCK * CLIP_BYTES, n * CLIP_BYTES).then((bytes) => new DataView(bytes.buffer, bytes.byteOffset, bytes.length))
      if (this.blocks.size >= BLOCKS_KEPT) this.blocks.delete(this.blocks.keys().next().value!)
    }
    this.blocks.set(key, hit)
    return hit
  }
}

/**
 * Writes the dataset of a sharded dataprep from its parts (any order). The parts' plans are read a stretch at a time
 * into the merged plan's store (spilled past `budget`); each clip is read from its part when the writer asks for it.
 * @returns the report `prepare` gives for the whole input
 * @throws MixscopeError (`bad-parts`, exit class usage) when the parts are not exactly shards 0…N−1 of one dataprep
 */
export async function mergePrepareParts(parts: readonly { bytes: PartBytes; part: PreparePart }[], options: MergePrepareOptions): Promise<PrepareReport> {
  const ordered = checkPartSet(parts.map((p) => ({ name: p.bytes.name, header: p.part })) as NamedPart<PreparePart>[])
  const byName = new Map(parts.map((p) => [p.bytes.name, p]))
  const first = byName.get(ordered[0].name)!
  const missing = ordered.find(({ name }) => !byName.get(name)!.part.sections?.plan || !Number.isInteger(byName.get(name)!.part.plan?.skipped))
  if (missing) throw partError(`${missing.name} lacks its plan section (a part of an older mixscope? run its shard again)`)
  const merger = PlanBuilder.merger(first.part.plan, { budget: options.budget })
  const clips = new ClipFinder()
  try {
    for (const { name } of ordered) {
      const { bytes, part } = byName.get(name)!
      const lines = sectionLines(bytes, part.sections.plan.offset, part.sections.plan.length)
      await merger.add(part.plan, lines)
      await clips.add(bytes, part)
    }
    const plan = merger.builder.finish(first.part.plan.notes)
    const convert = async (row: PlannedRow): Promise<ClipResult> => {
      const clip = await clips.find(row.index)
      if (!clip) throw partError(`no part holds input row ${row.index} (${row.where})`)
      return clip
    }
    return await runPrepare({
      plan, sink: options.sink, processClip: () => Promise.reject(new Error('merge: no clip is converted again')), convert,
      concurrency: options.concurrency ?? 8, signal: options.signal, onProgress: options.onProgress, createdBy: first.part.createdBy,
    })
  } finally {
    await merger.builder.close()
  }
}
