/**
 * The planner: the batches one rank of the reference training (or validation) run sees, in order, without audio
 * (docs/reference-pipeline.md §1, §5-§9, §15). Pure: all I/O goes through `readFragmentMeta`.
 */
import { DropCounter, type DropReason } from './drops.ts'
import { referenceError } from './errors.ts'
import { MixscopeError } from '../core/findings.ts'
import type { PlannedExample } from './example.ts'
import { fragmentRows, type FragmentRowsOptions, type ReadFragmentMeta, type RowLabels } from './fragment-rows.ts'
import { peekFirst, primedReads } from './first-reads.ts'
import { afterFirstStartFill, DeferredFill } from './deferred-fill.ts'
import { partitionStreamSeed, rankFragments, singleStreamSeed, type FragmentRef } from './fragments.ts'
import { weightedSample } from './sampler.ts'
import { asrTaskBatches, checkTaskConfig, rowDropReason, type TaskConfig, type TaskTokenizer } from './task.ts'
import { partitionKey, samplingDistribution } from './weights.ts'

/** A mixture partition of the selected files: files in sorted path order, row groups in order. */
export interface MixturePartition {
  corpus: string
  language: string
  fragments: FragmentRef[]
}

/** The config fields the planner reads (reference names; `PipelineConfig` from src/engine/pipeline/config fits). */
export interface PlanConfig extends TaskConfig {
  fragment_streaming: { seed: number }
  sampling_seed: number
  rank: number
  world_size: number
  num_accumulate: number
  max_num_batches: number | null
}

/** One weight per (corpus, language), as `partitionWeightsFromBetas` returns them. */
export interface WeightEntry {
  corpus: string
  language: string
  weight: number
}

/** Inputs of `planBatches`. */
export interface PlanInput {
  /** Partitions in the reference's partition-dict order (first appearance in sorted path order). */
  partitions: MixturePartition[]
  /** Weights from the stats TSV, or `null` when there is no TSV (then no mixture). */
  weights: WeightEntry[] | null
  /** `"train" in split` and sync mode UNTIL_FIRST (docs/reference-pipeline.md §3): infinite shuffled streams. */
  trainStreaming: boolean
  /** Split value for the examples (the parsed split, e.g. `train`). */
  split: string
  config: PlanConfig
  readFragmentMeta: ReadFragmentMeta
  /** Without it, the all-unknown and long-text filters are not applied. */
  tokenizer?: TaskTokenizer
  /**
   * Row groups read ahead per stream (default 1, fairseq2's `nb_prefetch`), started once half of the stream's current
   * row group has been passed.
   */
  prefetchFragments?: number
  /**
   * Rows a mixture keeps decoded over all its partition streams between draws (default `MIXTURE_ROW_BUDGET`): each
   * stream keeps at most `max(MIN_KEPT_ROWS, budget / streams)` rows of its row group and reads it again for more.
   */
  mixtureRowBudget?: number
  /**
   * Put the mixture sampler's first fill (one row group of every partition stream) behind the first batch
   * (deferred-fill.ts): the same batches, the first one after the reads its draws need; `Plan.warmUp` reports the
   * rest of the fill, and any error waits for it. Off by default (the CLI reads in the reference's order).
   */
  deferFirstFill?: boolean
  signal?: AbortSignal
}

/** Rows a mixture keeps decoded, all partition streams together (about 50-100 MB of rows). */
export const MIXTURE_ROW_BUDGET = 1 << 19
/** Rows every mixture stream may keep whatever the budget. */
export const MIN_KEPT_ROWS = 16

/** One batch of this rank. */
export interface PlannedBatch {
  /** 0-based batch index on this rank. */
  index: number
  /** Optimizer step (`index / num_accumulate`, rounded down) and position within it. */
  step: number
  indexInStep: number
  examples: PlannedExample[]
}

/** A mixture partition as the sampler uses it. */
export interface MixtureStream {
  corpus: string
  language: string
  /** Float64 weight from the TSV. */
  weight: number
  /** Exact probability of a draw (float32 cumsums, 24-bit draws). */
  probability: number
  /** numpy seed of its row-group order. */
  seed: number
  /** Row groups in the partition. */
  fragments: number
  /** Draws that picked it so far (live while iterating). */
  sampled: number
}

/** Per-partition rank diagnostics. */
export interface RankDiagnostic {
  corpus: string
  language: string
  fragments: number
  worldSize: number
  /** Row groups this rank reads per pass (eval), or per precomputed epoch on average (train). */
  fragmentsThisRank: number
  /** A sentence when the partition has fewer row groups than ranks, else `null`. */
  note: string | null
}

/** What `planBatches` returns; `batches` is lazy and cancelable. */
export interface Plan {
  batches: AsyncGenerator<PlannedBatch>
  drops: DropCounter
  /** `null` when a single stream is used. */
  mixture: MixtureStream[] | null
  /** Partitions of the split left out of the mixture because the TSV has no weight for them. */
  unweighted: { corpus: string; language: string }[]
  diagnostics: RankDiagnostic[]
  /**
   * Row groups and rows read so far (each row group counted once), and the reads of a row group again for rows past
   * the ones a mixture stream keeps.
   */
  io: { fragments: number; rows: number; rereads: number }
  /**
   * With `deferFirstFill` and a mixture: the sampler's first fill, going on behind the batches (until it has
   * `settled` without an `error`, the batches are those of a run whose start has not been fully checked); else `null`.
   */
  warmUp: DeferredFill | null
}

/**
 * Plans this rank's batches.
 * - mixture (train streaming, weights, > 1 partition): partitions with a weight, in order; partition i (1-based)
 *   streams its row groups with seed `fragment_streaming.seed + world_size + i`, sharded by rank; its first row is
 *   dropped (warm-up); rows are drawn with the weighted sampler seeded with `sampling_seed`;
 * - otherwise one stream over all partitions' row groups (partition order, then file order), shuffled with
 *   `seed + world_size` when train streaming, else one pass in order; sharded by rank;
 * - then the AsrTask (§8) and grouping into steps of `num_accumulate`; `max_num_batches` batches at most.
 * @throws (synchronously) the reference's build-time errors: task config, bucket table, mixture weights.
 */
export function planBatches(input: PlanInput): Plan {
  const { config, partitions, split } = input
  checkTaskConfig(config)
  const drops = new DropCounter()
  const io = { fragments: 0, rows: 0, rereads: 0 }
  // an infinite (train) stream whose every row is dropped by the per-row filters would make the reference wait
  // forever: once three passes' worth of rows entered the task and none passed those filters, stop with the drop
  // counts. Rows are judged as they are read (`rowDropReason`), not as they leave the example shuffle window, so a
  // window larger than the data never trips the guard.
  const selectedRows = partitions.reduce((n, p) => n + p.fragments.reduce((m, f) => m + f.rows, 0), 0)
  const guard = input.trainStreaming ? passGuard(rowDropReason(config, input.tokenizer), selectedRows) : null
  const rowOptions: FragmentRowsOptions = {
    prefetch: input.prefetchFragments ?? 1,
    signal: input.signal,
    onFragmentRead: (_f: FragmentRef, rows: number) => {
      io.fragments++
      io.rows += rows
    },
    onFragmentReread: () => { io.rereads++ },
  }
  const { rank, world_size: worldSize } = config
  const weightOf = new Map((input.weights ?? []).map((w) => [partitionKey(w.corpus, w.language), w.weight]))
  const mixed = input.weights !== null && input.trainStreaming && partitions.length > 1
  let rows: AsyncGenerator<PlannedExample>
  let mixture: MixtureStream[] | null = null
  let unweighted: { corpus: string; language: string }[] = []
  let warmUp: DeferredFill | null = null
  if (mixed) {
    const kept = partitions.filter((p) => weightOf.has(partitionKey(p.corpus, p.language)))
    for (const p of kept) {
      if (p.fragments.every((f) => f.rows === 0)) throw emptyPartition(p.corpus, p.language)
    }
    unweighted = partitions.filter((p) => !weightOf.has(partitionKey(p.corpus, p.language))).map(({ corpus, language }) => ({ corpus, language }))
    const dist = samplingDistribution(kept.map((p) => weightOf.get(partitionKey(p.corpus, p.language)) as number))
    mixture = kept.map((p, i) => ({
      corpus: p.corpus, language: p.language, weight: weightOf.get(partitionKey(p.corpus, p.language)) as number,
      probability: dist.probabilities[i], seed: partitionStreamSeed(config.fragment_streaming.seed, worldSize, i + 1),
      fragments: p.fragments.length, sampled: 0,
    }))
    // every stream keeps a share of the row budget; the sampler's first call reads every stream's first row group,
    // a window of them at a time (first-reads.ts)
    const keepRows = Math.max(MIN_KEPT_ROWS, Math.floor((input.mixtureRowBudget ?? MIXTURE_ROW_BUDGET) / Math.max(1, kept.length)))
    const orders = kept.map((p, i) => peekFirst(rankFragments(p.fragments, true, (mixture as MixtureStream[])[i].seed, rank, worldSize)))
    warmUp = input.deferFirstFill ? new DeferredFill() : null
    const reads = primedReads(orders.map((o) => o.first), input.readFragmentMeta, undefined, input.signal, warmUp ?? undefined)
    const streams = kept.map((p, i) => warmedUp(fragmentRows(orders[i].order, reads[i],
      { corpus: p.corpus, language: p.language, split }, { ...rowOptions, keepRows }), p, drops))
    const m = mixture
    rows = weightedSample(streams, dist.cumsums, { seed: config.sampling_seed, onDraw: (i) => { m[i].sampled++ }, deferFill: warmUp ?? undefined })
  } else {
    if (input.trainStreaming && partitions.every((p) => p.fragments.every((f) => f.rows === 0))) {
      throw new MixscopeError('pipeline: the selected files hold no rows; the reference\'s infinite training stream would never yield a batch', 'no-rows')
    }
    const all: FragmentRef[] = []
    const labelOf = new Map<FragmentRef, RowLabels>()
    for (const p of partitions) {
      for (const f of p.fragments) {
        all.push(f)
        labelOf.set(f, { corpus: p.corpus, language: p.language, split })
      }
    }
    const seed = singleStreamSeed(config.fragment_streaming.seed, worldSize)
    rows = fragmentRows(rankFragments(all, input.trainStreaming, seed, rank, worldSize), input.readFragmentMeta,
      (f) => labelOf.get(f) as RowLabels, rowOptions)
  }
  const taskBatches = asrTaskBatches(guard ? guard(rows, drops) : rows, config, { drops, tokenizer: input.tokenizer })
  const batches = numberBatches(warmUp ? afterFirstStartFill(taskBatches, warmUp) : taskBatches, config)
  return { batches, drops, mixture, unweighted, diagnostics: rankDiagnostics(partitions, input.trainStreaming, rank, worldSize), io, warmUp }
}

/**
 * The planner's "does anything pass?" guard for infinite streams: forwards rows, judging each with the task's per-row
 * filters until one passes; when more than `3 × selectedRows` rows entered and none passed, throws
 * `everything-dropped` with the verdicts so far. After the first passing row it only forwards.
 */
function passGuard(dropReason: (e: PlannedExample) => DropReason | null, selectedRows: number) {
  return async function* (rows: AsyncGenerator<PlannedExample>, drops: DropCounter): AsyncGenerator<PlannedExample> {
    let failed = 0
    let open = true
    const verdicts = new Map<DropReason, number>()
    for await (const e of rows) {
      if (open) {
        const reason = dropReason(e)
        if (reason === null) open = false
        else {
          verdicts.set(reason, (verdicts.get(reason) ?? 0) + 1)
          if (++failed > 3 * selectedRows) {
            const warmUp = drops.total('warm-up')
            throw new MixscopeError(`pipeline: no example passed the filters in ${failed} rows (three passes over the ${selectedRows} selected rows): ` +
              `${[...verdicts].map(([r, n]) => `${r} ${n}`).join(', ')}${warmUp ? ` (and warm-up ${warmUp})` : ''}; the training stream would never yield a batch (check min_audio_len, max_audio_len, min_samples_per_char)`, 'everything-dropped')
          }
        }
      }
      yield e
    }
  }
}

/** OA's warm-up `next()` on a partition stream with no rows raises `StopIteration` (re-raised by the thread pool). */
function emptyPartition(corpus: string, language: string) {
  return referenceError('empty-partition', 'StopIteration', `partition ${corpus}/${language} has no rows, so its warm-up next() finds nothing.`)
}

/** Drops the first row of a partition stream (OA's warm-up `next(iter(pipeline))`), counting it. */
async function* warmedUp(rows: AsyncGenerator<PlannedExample>, partition: MixturePartition, drops: DropCounter): AsyncGenerator<PlannedExample> {
  const first = await rows.next()
  if (first.done) throw emptyPartition(partition.corpus, partition.language)
  drops.add('warm-up', first.value.corpus, first.value.language, first.value.length)
  yield* rows
}

async function* numberBatches(batches: AsyncGenerator<PlannedExample[]>, config: PlanConfig): AsyncGenerator<PlannedBatch> {
  const limit = config.max_num_batches ?? Infinity
  const k = Math.max(1, config.num_accumulate)
  let index = 0
  if (limit <= 0) return
  for await (const examples of batches) {
    yield { index, step: Math.floor(index / k), indexInStep: index % k, examples }
    if (++index >= limit) return
  }
}

/**
 * Row groups per partition against the number of ranks. Eval shards the single flattened stream (partition order,
 * then file order), so `fragmentsThisRank` is exact there; train gives each rank `n / W` row groups per epoch on
 * average (mixture: per partition stream; single stream: over the global permutation).
 */
export function rankDiagnostics(partitions: MixturePartition[], trainStreaming: boolean, rank: number, worldSize: number): RankDiagnostic[] {
  let offset = 0
  return partitions.map((p) => {
    const n = p.fragments.length
    // global indices offset .. offset+n-1 that are ≡ rank (mod W)
    const first = offset + ((rank - (offset % worldSize) + worldSize) % worldSize)
    const exact = first >= offset + n ? 0 : Math.floor((offset + n - 1 - first) / worldSize) + 1
    offset += n
    let note: string | null = null
    if (!trainStreaming && exact === 0) {
      note = `${p.corpus}/${p.language} has ${n} row group(s) for ${worldSize} ranks: rank ${rank} reads none of it`
    } else if (trainStreaming && n < worldSize) {
      note = `${p.corpus}/${p.language} has ${n} row group(s) for ${worldSize} ranks: ranks read the same row groups at the same time, from different epochs' permutations`
    }
    return { corpus: p.corpus, language: p.language, fragments: n, worldSize, fragmentsThisRank: trainStreaming ? n / worldSize : exact, note }
  })
}
