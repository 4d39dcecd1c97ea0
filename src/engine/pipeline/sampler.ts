/**
 * fairseq2 `DataPipeline.sample(pipelines, weights, seed, allow_repeats=True)`
 * (FS2:native/src/fairseq2n/data/sample_data_source.cc; docs/reference-pipeline.md §5).
 */
import { referenceError } from './errors.ts'
import { TorchGenerator } from '../random/torch-generator.ts'
import type { DeferredFill } from './deferred-fill.ts'

/**
 * Index the sampler picks for a draw `u`: the smallest index whose cumsum is ≥ `u` (binary search, as fairseq2),
 * or the last index when `u` exceeds every cumsum.
 */
export function pickPartition(cumsums: readonly number[], u: number): number {
  let lo = 0
  let hi = cumsums.length - 1
  while (hi > lo) {
    const mid = lo + ((hi - lo) >>> 1)
    if (cumsums[mid] < u) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Options of `weightedSample`. */
export interface WeightedSampleOptions {
  /** `sampling_seed` (261 by default in OA). */
  seed: number
  /** Restarts partition `i`'s stream when it ends (`allow_repeats`); without it, an ended stream is an error. */
  reopen?: (index: number) => AsyncIterator<unknown>
  /** Called after every draw with the picked partition index (0-based) and the draw `u`. */
  onDraw?: (index: number, u: number) => void
  /**
   * Pull a source's first item when it is first drawn, and the other sources' in the background once `fill` is
   * started (deferred-fill.ts). The items, draws and order are the eager sampler's; an error waits for the fill and
   * gives way to the fill's (the eager sampler raises that one before its first draw).
   */
  deferFill?: DeferredFill
}

/**
 * Yields items drawn from `sources` with fairseq2's weighted sampler.
 * First call: one item is pulled from every source in order into a buffer (one slot each). Each draw takes
 * `u = (random() & 0xFFFFFF)·2^-24` from a torch generator seeded with `seed`, picks `pickPartition(cumsums, u)`,
 * returns that slot's item and refills the slot from the same source. Ends once every source has ended at least once.
 * @param cumsums float32 cumulative distribution from `samplingDistribution` (same length as `sources`).
 */
export async function* weightedSample<T>(
  sources: AsyncIterator<T>[],
  cumsums: readonly number[],
  options: WeightedSampleOptions,
): AsyncGenerator<T> {
  if (sources.length !== cumsums.length) {
    throw referenceError('mixture-weight', 'ValueError', `The number of \`pipelines\` and the number of \`weights\` must be equal, but are ${sources.length} and ${cumsums.length} instead.`)
  }
  if (sources.length === 0) return
  const generator = new TorchGenerator(options.seed)
  const its = [...sources]
  const epochDone = its.map(() => false)
  const pull = async (i: number): Promise<T> => {
    const r = await its[i].next()
    if (!r.done) return r.value
    epochDone[i] = true
    if (options.reopen) {
      its[i] = options.reopen(i) as AsyncIterator<T>
      const again = await its[i].next()
      if (!again.done) return again.value
    }
    throw referenceError('mixture-empty-partition', 'DataPipelineError', `The data pipeline at index ${i} is empty and cannot be sampled.`)
  }
  if (options.deferFill) {
    yield* deferredDraws(its.length, pull, epochDone, generator, cumsums, options, options.deferFill)
    return
  }
  const buffer: T[] = []
  for (let i = 0; i < its.length; i++) buffer.push(await pull(i))
  // the reference checks for "all done" at the start of every call but the first one always draws
  for (let first = true; first || !epochDone.every(Boolean); first = false) {
    const u = generator.uniformFloat()
    const index = pickPartition(cumsums, u)
    options.onDraw?.(index, u)
    const out = buffer[index]
    buffer[index] = await pull(index)
    yield out
  }
}

/**
 * The draws of `weightedSample` with its first fill deferred: a source's first pull happens when it is drawn or when
 * `fill` runs, whichever comes first; every later pull right after its draw, as in the eager sampler.
 */
async function* deferredDraws<T>(n: number, pull: (i: number) => Promise<T>, epochDone: boolean[], generator: TorchGenerator,
  cumsums: readonly number[], options: WeightedSampleOptions, fill: DeferredFill): AsyncGenerator<T> {
  const firsts: (Promise<T> | undefined)[] = new Array(n).fill(undefined)
  /** 1 once source i's first pull has settled (so `epochDone[i]` is what the eager sampler has after its fill). */
  const firstIn = new Uint8Array(n)
  const firstOf = (i: number): Promise<T> => {
    let p = firsts[i]
    if (!p) {
      p = pull(i)
      firsts[i] = p
      p.then(() => { firstIn[i] = 1; fill.filled++ }, () => { firstIn[i] = 1 })
    }
    return p
  }
  fill.bind(n, async () => {
    for (let i = 0; i < n; i++) {
      if (!firsts[i]) await fill.turn() // (a stream a draw has pulled costs no read: no need to wait)
      await firstOf(i)
    }
  })
  /** Rethrows `error` after the fill, unless the fill fails first (then its error: the eager sampler's). */
  const failWith = async (error: unknown): Promise<never> => {
    await fill.finish()
    throw error
  }
  const taken = new Uint8Array(n)
  const buffer = new Array<T>(n)
  for (let first = true; ; first = false) {
    if (!first) {
      // "all done?" as the eager sampler asks it: a source whose first pull has not settled yet is unknown
      let known = true
      let pending = false
      for (let i = 0; i < n && known; i++) {
        if (epochDone[i]) continue
        if (firstIn[i]) known = false
        else pending = true
      }
      if (known && pending) await fill.finish() // (throws the fill's error: the eager sampler's, before any draw)
      if (known && epochDone.every(Boolean)) return
    }
    const u = generator.uniformFloat()
    const index = pickPartition(cumsums, u)
    options.onDraw?.(index, u)
    let out: T
    try {
      if (taken[index]) out = buffer[index]
      else {
        out = await firstOf(index)
        taken[index] = 1
      }
      buffer[index] = await pull(index)
    } catch (error) {
      return await failWith(error)
    }
    yield out
  }
}

/** Draw counts of the first `n` draws against what the probabilities predict. */
export interface DrawCounts {
  draws: number
  /** Per partition: times picked in the first `draws` draws. */
  sampled: number[]
  /** Per partition: `draws × probability`. */
  expected: number[]
}

/**
 * The sampler's first `n` partition picks, without reading any data (the draws depend only on the seed and
 * the cumsums): "sampled vs expected" for the mixture view.
 * @param probabilities exact per-partition probabilities (`samplingDistribution().probabilities`).
 */
export function firstDraws(cumsums: readonly number[], probabilities: readonly number[], seed: number, n: number): DrawCounts {
  const generator = new TorchGenerator(seed)
  const sampled = cumsums.map(() => 0)
  for (let k = 0; k < n; k++) sampled[pickPartition(cumsums, generator.uniformFloat())]++
  return { draws: n, sampled, expected: probabilities.map((p) => p * n) }
}
