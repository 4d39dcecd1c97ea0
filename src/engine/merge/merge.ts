/**
 * `mixscope merge`'s dispatch (docs/conventions.md "Sharded jobs"): the parts of a sharded run read, checked to be of
 * one kind, and merged by that kind's own merge (the audit's `AuditMerger`, the index's `mergeIndexParts`, the
 * dataprep's `mergePrepareParts`). This folder comes after every job whose parts it merges (scripts/engine-layers.cjs).
 */
import { AuditMerger, type AuditMergerOptions, type MergeOptions as AuditMergeOptions } from '../audit/partial/merge.ts'
import type { AuditPart } from '../audit/partial/types.ts'
import type { AuditReport } from '../audit/rows/types.ts'
import { MixscopeError } from '../core/findings.ts'
import { type IndexPart, type MergedIndex, mergeIndexParts } from '../dataset-index/partial.ts'
import { isBinaryPart, mergePrepareParts, type PartBytes, partMagic, type PreparePart, readPartJson } from '../prepare/partial/part.ts'
import type { PlanBudget } from '../prepare/plan-store.ts'
import type { PrepareReport } from '../prepare/types.ts'
import type { OutputSink } from '../prepare/write/sink.ts'
import { checkHeader, type NamedPart, type PartKind, parsePart } from '../shard/part.ts'

/** A merge's result, by the parts' kind; `shardSeconds` are the seconds each shard ran, in shard order. */
export type MergeOutcome =
  | { kind: 'audit'; report: AuditReport; shardSeconds: number[] }
  | { kind: 'index'; index: MergedIndex; shardSeconds: number[] }
  | { kind: 'prepare'; report: PrepareReport; shardSeconds: number[] }

/**
 * Where a merge writes: the dataprep's output folder (only prepare parts write while merging) and the budget of its
 * merged plan; an audit's findings
 * as `audit` holds and streams them (`audit`).
 */
export interface MergeOptions {
  sink?: OutputSink
  /** Memory a dataprep's merged plan may hold, and where the rest goes (Node: `nodePlanBudget`). */
  budget?: PlanBudget
  audit?: AuditMergeOptions
}

/** Parts read and checked to be of one kind, ready to merge. */
export interface PartSet {
  kind: PartKind
  /** Parts read. */
  count: number
  /**
   * Merges the parts by their kind.
   * @throws MixscopeError `bad-parts` (exit 2) for parts that are missing, repeated or do not belong together
   */
  merge(options?: MergeOptions): Promise<MergeOutcome>
  /** Drops what waits for the merge (an audit's fingerprint spill) when `merge` is not called; `merge` does it itself. */
  close(): Promise<void>
}

/** A part's header: a binary part's JSON (the trailer says so), else the whole file as JSON. */
async function readHeader(file: PartBytes): Promise<unknown> {
  const tailLength = Math.min(file.size, 8 + partMagic.length)
  const tail = await file.read(file.size - tailLength, tailLength)
  if (isBinaryPart(tail)) return readPartJson(file)
  return parsePart(file.name, new TextDecoder().decode(await file.read(0, file.size)))
}

/**
 * Reads the parts' headers, in order (an audit's parts are merged as they are read, so only one is held at a time;
 * their fingerprints wait in a spill from `options.spill`, in memory without it).
 * @throws MixscopeError `bad-parts` naming a file that is not a part, or the first two files of different kinds
 */
export async function readPartSet(files: readonly PartBytes[], options: AuditMergerOptions = {}): Promise<PartSet> {
  if (files.length === 0) throw new MixscopeError('merge: no part files given', 'bad-parts', 'usage')
  const audit = new AuditMerger(options)
  try {
    return await readParts(files, audit)
  } catch (error) {
    await audit.close()
    throw error
  }
}

async function readParts(files: readonly PartBytes[], audit: AuditMerger): Promise<PartSet> {
  const prepare: { bytes: PartBytes; part: PreparePart }[] = []
  const index: NamedPart<IndexPart>[] = []
  let first: { name: string; kind: PartKind } | null = null
  for (const file of files) {
    const header = checkHeader(file.name, await readHeader(file))
    if (first && header.kind !== first.kind) throw new MixscopeError(`merge: parts of different kinds: ${first.name} is ${first.kind}, but ${file.name} is ${header.kind}`, 'bad-parts', 'usage')
    first ??= { name: file.name, kind: header.kind }
    // an audit part's fingerprints are in the merge's spill before the next part is read
    if (header.kind === 'audit') await audit.add(file.name, header as AuditPart)
    else if (header.kind === 'prepare') prepare.push({ bytes: file, part: header as PreparePart })
    else index.push({ name: file.name, header: header as IndexPart })
  }
  const kind = first!.kind
  return {
    kind,
    count: files.length,
    async merge(options = {}) {
      if (kind === 'audit') {
        const report = await audit.finish(options.audit)
        return { kind, report, shardSeconds: audit.shardSeconds() }
      }
      if (kind === 'index') {
        const merged = mergeIndexParts(index)
        return { kind, index: merged, shardSeconds: merged.shardSeconds }
      }
      if (!options.sink) throw new MixscopeError('merge: prepare parts are merged into an output folder: give a sink', 'bad-parts', 'usage')
      const report = await mergePrepareParts(prepare, { sink: options.sink, budget: options.budget })
      const shardSeconds = [...prepare].sort((a, b) => a.part.shard.index - b.part.shard.index).map((p) => p.part.timing.seconds)
      return { kind, report, shardSeconds }
    },
    close: () => audit.close(),
  }
}
