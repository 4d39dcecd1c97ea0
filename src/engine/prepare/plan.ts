/**
 * From input rows to the plan (plan-builder.ts decides each row): the scan's rows read as a stream, one at a time,
 * into compact state, so the plan of a 10⁷-row manifest holds a bounded amount of memory; a shard plans only its cut
 * of the input rows. docs/conventions.md "Dataprep".
 */
import { audioRefName, audioSegment, type InputScan } from './inputs/types.ts'
import type { InputFiles } from './inputs/input-files.ts'
import { PlanBuilder, type PlanBuildOptions } from './plan-builder.ts'
import { Fingerprint } from './plan-options.ts'
import type { PrepareOptions, PreparePlan } from './types.ts'

export { fingerprint, maxPartitionValueLength, parseLanguageOptions, parseSplitMap, partitionValue } from './plan-options.ts'

/** How to plan: what `PlanBuildOptions` says, and a shard's cut of the input rows. */
export interface PlanPrepareOptions extends PlanBuildOptions {
  /** Only these input rows, of `of` (a shard: `shardRows`). */
  range?: { first: number; end: number; of: number }
  signal?: AbortSignal
}

/**
 * Decides every row of the scan (or of its `range`). Rows are never dropped silently: each one is in a partition
 * or in `skipped` with a reason.
 * @param input the listed input folder (for missing audio files)
 */
export async function planPrepare(scan: InputScan, input: InputFiles, options: PrepareOptions = {}, build: PlanPrepareOptions = {}): Promise<PreparePlan> {
  const builder = new PlanBuilder(scan.format, input, options, build)
  const range = build.range ? { first: build.range.first, end: build.range.end } : undefined
  for await (const row of scan.rows(range)) {
    builder.add(row)
    if (builder.overBudget) await builder.flush()
    if ((row.index & 0xfff) === 0) build.signal?.throwIfAborted()
  }
  return builder.finish(scan.notes, build.range ?? null)
}

/** Rows of shard `index` of `count` of `rows` input rows: `[⌊index·rows/count⌋, ⌊(index+1)·rows/count⌋)`. */
export function shardRows(rows: number, index: number, count: number): { first: number; end: number; of: number } {
  return { first: Math.floor((index * rows) / count), end: Math.floor(((index + 1) * rows) / count), of: rows }
}

/** Planned rows read at a time while a whole plan is walked. */
const STRETCH = 4096

/** A string that changes whenever the plan would write something else (for resuming). */
export async function planFingerprint(plan: PreparePlan): Promise<string> {
  const fp = new Fingerprint()
  fp.add([plan.format, plan.version, plan.audioFormat].join('\u0000'))
  for (const p of plan.partitions) {
    fp.add('\u0000').add(p.folder)
    for (let at = 0; at < p.rows.length; at += STRETCH) {
      for (const r of await p.rows.read(at, at + STRETCH)) {
        const seg = audioSegment(r.audio)
        fp.add('\u0000').add(`${r.index}\u0001${r.text}\u0001${audioRefName(r.audio)}${seg ? `@${seg.offset}+${seg.duration}` : ''}`)
      }
    }
  }
  return fp.hex()
}
