/**
 * Fragment (row-group) streams of fairseq2's `ParquetFragmentStreamer` as OA configures it
 * (docs/reference-pipeline.md §6): train = 100 precomputed numpy permutations replayed forever, eval = one pass in order;
 * both sharded by rank at row-group level.
 */
import { NumpyRandomState } from '../random/numpy-random-state.ts'

/** One fragment: a row group of one file. */
export interface FragmentRef {
  /** File path relative to the dataset root (as in example ids). */
  path: string
  /** 0-based row group within the file. */
  rowGroup: number
  /** Rows in the row group. */
  rows: number
  /** Index of the row group's first row within the file. */
  firstRow: number
}

/** Epochs fairseq2 precomputes when `nb_epochs` is None (train streaming). */
export const TRAIN_PRECOMPUTED_EPOCHS = 100

/**
 * Indices into the fragment list `F` (length `n`) in train order, forever: `epochs` consecutive
 * `RandomState(seed).permutation(n)` draws concatenated, then the same sequence again (`repeat(None)`).
 * Yields nothing when `n` is 0.
 * @param seed numpy seed, e.g. `fragment_streaming.seed + world_size + i`.
 */
export function* trainFragmentOrder(n: number, seed: number, epochs = TRAIN_PRECOMPUTED_EPOCHS): Generator<number> {
  if (n === 0) return
  for (;;) {
    const rng = new NumpyRandomState(seed)
    for (let e = 0; e < epochs; e++) yield* rng.permutation(n)
  }
}

/** Indices `0..n-1` once (eval: files in order, row groups in order, one epoch). */
export function* evalFragmentOrder(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i
}

/**
 * fairseq2 `shard(rank, world_size, allow_uneven=True)`: item `i` (0-based) of the stream goes to rank `i mod W`;
 * the final partial group still yields. The count continues across repeat boundaries.
 */
export function* shardStream<T>(source: Iterable<T>, rank: number, worldSize: number): Generator<T> {
  if (!Number.isSafeInteger(worldSize) || worldSize < 1 || !Number.isSafeInteger(rank) || rank < 0 || rank >= worldSize) {
    throw new RangeError(`pipeline: rank must be in [0, world_size), got rank ${rank} with world_size ${worldSize}`)
  }
  let i = 0
  for (const item of source) {
    if (i % worldSize === rank) yield item
    i = (i + 1) % worldSize
  }
}

/**
 * The fragments this rank reads, in order: train (infinite) or eval (one pass).
 * @param fragments `F`: files in the given order, row groups in order.
 * @param seed numpy seed for train; ignored for eval.
 */
export function* rankFragments(fragments: readonly FragmentRef[], train: boolean, seed: number, rank: number, worldSize: number): Generator<FragmentRef> {
  const order = train ? trainFragmentOrder(fragments.length, seed) : evalFragmentOrder(fragments.length)
  for (const i of shardStream(order, rank, worldSize)) yield fragments[i]
}

/** Seed of mixture partition `i` (1-based): `fragment_streaming.seed + world_size + i` (first reader built). */
export function partitionStreamSeed(baseSeed: number, worldSize: number, partitionIndex1: number): number {
  return baseSeed + worldSize + partitionIndex1
}

/** Seed of the single stream (no mixture): `fragment_streaming.seed + world_size`. */
export function singleStreamSeed(baseSeed: number, worldSize: number): number {
  return baseSeed + worldSize
}
