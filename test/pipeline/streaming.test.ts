import { describe, expect, it } from 'vitest'
import { planBatches, type PlanConfig, type PlanInput, type PlannedBatch } from '../../src/engine/pipeline/plan-batches.ts'
import type { FragmentMeta } from '../../src/engine/pipeline/fragment-rows.ts'
import type { FragmentRef } from '../../src/engine/pipeline/fragments.ts'
import { collect } from '../../src/engine/pipeline/iterables.ts'
import { defaultPipelineConfig } from '../../src/engine/pipeline/config/defaults.ts'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'

/** A generated dataset: `partitions` (corpus, language) of files with row groups of 1..`maxRows` rows. */
function generated(seed: number, partitionCount: number, maxRows: number) {
  const random = mulberry32(seed)
  const meta = new Map<FragmentRef, FragmentMeta>()
  const partitions = Array.from({ length: partitionCount }, (_, p) => {
    const fragments: FragmentRef[] = []
    for (let file = 0; file < 1 + Math.floor(random() * 3); file++) {
      let firstRow = 0
      for (let rowGroup = 0; rowGroup < 1 + Math.floor(random() * 4); rowGroup++) {
        const rows = 1 + Math.floor(random() * maxRows)
        const f = { path: `corpus=c${p % 3}/split=train/language=l${p}/part-${file}.parquet`, rowGroup, rows, firstRow }
        firstRow += rows
        fragments.push(f)
        // 1-17 s, a few below the 2 s minimum; 5-40 characters
        const lengths = Array.from({ length: rows }, () => 16_000 + Math.floor(random() * 256_000))
        const texts = Array.from({ length: rows }, () => 'x'.repeat(5 + Math.floor(random() * 35)))
        meta.set(f, { lengths, texts })
      }
    }
    return { corpus: `c${p % 3}`, language: `l${p}`, fragments }
  })
  const weights = partitions.map((p, i) => ({ corpus: p.corpus, language: p.language, weight: (i + 1) / 10 }))
  return { partitions, weights, meta }
}

function config(extra: Partial<PlanConfig>): PlanConfig {
  return {
    ...defaultPipelineConfig(), min_audio_len: 32_000, max_audio_len: 320_000, max_num_elements: 960_000,
    example_shuffle_window: 1, batch_shuffle_window: 1, max_num_batches: 12, ...extra,
  }
}

const linesOf = (batches: PlannedBatch[]) => batches.map((b) => `${b.index} ${b.step} ${b.examples.map((e) => `${e.file}:${e.row}:${e.length}:${e.text.length}`).join(' ')}`)

/** Runs a plan with reads counted per row group. */
async function run(input: Omit<PlanInput, 'readFragmentMeta'>, meta: Map<FragmentRef, FragmentMeta>, options: Partial<PlanInput> = {}) {
  const reads = new Map<FragmentRef, number>()
  const plan = planBatches({
    ...input,
    ...options,
    readFragmentMeta: async (f) => {
      reads.set(f, (reads.get(f) ?? 0) + 1)
      await new Promise((resolve) => setTimeout(resolve, 0))
      return meta.get(f)!
    },
  })
  const batches = await collect(plan.batches)
  return { plan, batches, lines: linesOf(batches), reads }
}

const modes = [
  { name: 'mixture', weights: true, trainStreaming: true },
  { name: 'train single stream', weights: false, trainStreaming: true },
  { name: 'eval', weights: false, trainStreaming: false },
] as const

const configs: Partial<PlanConfig>[] = [
  {},
  { example_shuffle_window: 7, batch_shuffle_window: 3, seed: 11 },
  { batching_strategy: 'STATIC', batch_size: 5, example_shuffle_window: 20, seed: 5 },
  { world_size: 3, rank: 2, sampling_seed: 7, num_accumulate: 2 },
]

describe('streamed planning gives the batches of a plan that keeps every row group it reads whole', () => {
  for (const seed of [1, 2, 3]) {
    for (const mode of modes) {
      it(`seed ${seed}, ${mode.name}`, async () => {
        const data = generated(seed, 6, 60)
        for (const extra of configs) {
          const input = { partitions: data.partitions, weights: mode.weights ? data.weights : null, trainStreaming: mode.trainStreaming, split: 'train', config: config(extra) }
          // the whole pass: every row group kept whole once read, read ahead from its first row
          const whole = await run(input, data.meta, { mixtureRowBudget: Infinity, prefetchFragments: 4 })
          expect(whole.batches.length).toBeGreaterThan(0)
          expect(whole.plan.io.rereads).toBe(0)
          for (const options of [{}, { prefetchFragments: 0 }, { mixtureRowBudget: 1 }, { mixtureRowBudget: 1, prefetchFragments: 0 }]) {
            const streamed = await run(input, data.meta, options)
            expect(streamed.lines, JSON.stringify({ extra, options })).toEqual(whole.lines)
            expect(streamed.plan.drops.list()).toEqual(whole.plan.drops.list())
            expect(streamed.plan.mixture?.map((m) => m.sampled)).toEqual(whole.plan.mixture?.map((m) => m.sampled))
          }
        }
      })
    }
  }
})

describe('a mixture reads only the row groups its batches need', () => {
  // 40 partitions whose row groups hold 64 rows: a few batches take a few rows from each partition
  const random = mulberry32(9)
  const meta = new Map<FragmentRef, FragmentMeta>()
  const partitions = Array.from({ length: 40 }, (_, p) => ({
    corpus: 'c', language: `l${p}`,
    fragments: Array.from({ length: 10 }, (_, g) => {
      const f = { path: `l${p}.parquet`, rowGroup: g, rows: 64, firstRow: 64 * g }
      meta.set(f, { lengths: Array.from({ length: 64 }, () => 40_000 + Math.floor(random() * 200_000)), texts: Array(64).fill('some words here') })
      return f
    }),
  }))
  const input = {
    partitions, weights: partitions.map((p) => ({ corpus: p.corpus, language: p.language, weight: 1 / 40 })),
    trainStreaming: true, split: 'train', config: config({ max_num_batches: 3 }),
  }

  it('reads one row group per partition for three batches, with or without read-ahead', async () => {
    for (const prefetchFragments of [0, 1, 2]) {
      const { plan, reads } = await run(input, meta, { prefetchFragments })
      const sampled = plan.mixture!.map((m) => m.sampled)
      // warm-up row + buffered row + draws stay inside the first row group of every partition, before its half
      expect(Math.max(...sampled) + 2).toBeLessThanOrEqual(32)
      expect(reads.size).toBe(40)
      expect([...reads.values()].every((n) => n === 1)).toBe(true)
      expect(plan.io.fragments).toBe(40)
    }
  })

  it('keeps a share of the row budget per stream and reads a row group again for the rest', async () => {
    const full = await run({ ...input, config: config({ max_num_batches: 60 }) }, meta, { prefetchFragments: 0 })
    const bounded = await run({ ...input, config: config({ max_num_batches: 60 }) }, meta, { prefetchFragments: 0, mixtureRowBudget: 40 * 16 })
    expect(bounded.lines).toEqual(full.lines)
    expect(bounded.plan.io.rereads).toBeGreaterThan(0)
    expect(full.plan.io.rereads).toBe(0)
    const total = (m: Map<FragmentRef, number>) => [...m.values()].reduce((a, b) => a + b, 0)
    expect(total(bounded.reads)).toBe(bounded.plan.io.fragments + bounded.plan.io.rereads)
    expect(total(full.reads)).toBe(full.plan.io.fragments)
    // the same row groups, some of them read again
    expect(new Set(bounded.reads.keys())).toEqual(new Set(full.reads.keys()))
  })

  it('an eval pass with a batch limit reads no row group past the last one it hands rows from, without read-ahead', async () => {
    const evalInput = { ...input, weights: null, trainStreaming: false, config: config({ max_num_batches: 2 }) }
    const { batches, reads } = await run(evalInput, meta, { prefetchFragments: 0 })
    const last = batches.at(-1)!.examples.at(-1)!
    const order = partitions.flatMap((p) => p.fragments)
    const lastIndex = order.findIndex((f) => f.path === last.file && f.rowGroup === last.row_group)
    expect(Math.max(...[...reads.keys()].map((f) => order.indexOf(f)))).toBe(lastIndex)
  })
})

describe('an unusable cell raises when its row reaches the stage that reads it, as the reference does', () => {
  const f: FragmentRef = { path: 'corpus=c/split=train/language=l0/part-0.parquet', rowGroup: 0, rows: 64, firstRow: 0 }
  const g: FragmentRef = { ...f, path: 'corpus=c/split=train/language=l1/part-0.parquet' }
  const cell = (stage: 'length-filter' | 'empty-text-filter', row: number) => [row, { stage, message: `row ${row} is null (${stage})` }] as const
  const metaWith = (invalid: (readonly [number, { stage: 'length-filter' | 'empty-text-filter'; message: string }])[]) => new Map<FragmentRef, FragmentMeta>([f, g].map((x) => [x, {
    lengths: Array.from({ length: 64 }, (_, i) => (invalid.some(([r, c]) => x === f && r === i && c.stage === 'length-filter') ? NaN : 100_000)),
    texts: Array(64).fill('words words words'),
    invalid: x === f ? new Map(invalid) : undefined,
  }]))
  const staticConfig = (max: number) => config({ batching_strategy: 'STATIC', batch_size: 2, max_num_batches: max })
  const single = (max: number) => ({ partitions: [{ corpus: 'c', language: 'l0', fragments: [f] }], weights: null, trainStreaming: false, split: 'train', config: staticConfig(max) })

  it('a null length past the rows the batches take does not stop them; reached, it names the row', async () => {
    const meta = metaWith([cell('length-filter', 5)])
    expect((await run(single(2), meta)).batches.length).toBe(2)
    await expect(run(single(4), meta)).rejects.toThrow('row 5 is null (length-filter)')
  })

  it('a null text raises at the empty-text filter, and not at all on a row the length filter drops', async () => {
    await expect(run(single(4), metaWith([cell('empty-text-filter', 3)]))).rejects.toThrow('row 3 is null (empty-text-filter)')
    const dropped = metaWith([cell('empty-text-filter', 3)])
    ;(dropped.get(f)!.lengths as number[])[3] = 1000 // below min_audio_len
    const { batches, plan } = await run(single(4), dropped)
    expect(batches.flatMap((b) => b.examples.map((e) => e.row))).toEqual([0, 1, 2, 4, 5, 6, 7, 8])
    expect(plan.drops.total('length-below-min')).toBe(1)
  })

  it('a mixture stream\'s warm-up row is thrown away unfiltered, whatever it holds', async () => {
    const meta = metaWith([cell('length-filter', 0), cell('length-filter', 40)])
    const partitions = [{ corpus: 'c', language: 'l0', fragments: [f] }, { corpus: 'c', language: 'l1', fragments: [g] }]
    const { batches, plan } = await run({
      partitions, weights: [{ corpus: 'c', language: 'l0', weight: 0.5 }, { corpus: 'c', language: 'l1', weight: 0.5 }],
      trainStreaming: true, split: 'train', config: staticConfig(3),
    }, meta)
    expect(batches.length).toBe(3)
    expect(plan.drops.total('warm-up')).toBe(2)
  })
})

describe('the sampler\'s first fill put behind the first batch (deferFirstFill) changes reads, never batches or errors', () => {
  it('gives the eager plan\'s batches, drops and draws, and the warm-up reads every stream\'s first row group', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const data = generated(seed, 9, 60)
      for (const extra of configs) {
        const input = { partitions: data.partitions, weights: data.weights, trainStreaming: true, split: 'train', config: config(extra) }
        for (const options of [{}, { mixtureRowBudget: 1, prefetchFragments: 0 }]) {
          const eager = await run(input, data.meta, options)
          const deferred = await run(input, data.meta, { ...options, deferFirstFill: true })
          const why = JSON.stringify({ seed, extra, options })
          expect(deferred.lines, why).toEqual(eager.lines)
          await deferred.plan.warmUp!.start()
          expect(deferred.plan.warmUp!.filled, why).toBe(data.partitions.length)
          expect(deferred.plan.drops.list(), why).toEqual(eager.plan.drops.list())
          expect(deferred.plan.mixture?.map((m) => m.sampled), why).toEqual(eager.plan.mixture?.map((m) => m.sampled))
          expect(new Set(deferred.reads.keys()), why).toEqual(new Set(eager.reads.keys()))
        }
      }
    }
  })

  it('reads only the streams its first batch draws before that batch', async () => {
    const data = generated(5, 60, 40)
    const input = { partitions: data.partitions, weights: data.weights, trainStreaming: true, split: 'train', config: config({ max_num_batches: 1 }) }
    const eager = await run(input, data.meta)
    const plan = planBatches({ ...input, deferFirstFill: true, readFragmentMeta: async (f) => data.meta.get(f)! })
    const first = await plan.batches.next()
    const drawn = plan.mixture!.filter((m) => m.sampled > 0).length
    expect(linesOf([first.value as PlannedBatch])).toEqual(eager.lines)
    expect(drawn).toBeLessThan(60)
    // the fill starts with the first batch; the reads before it were the drawn streams' own
    expect(plan.warmUp!.isStarted).toBe(true)
    expect(eager.plan.io.fragments).toBeGreaterThanOrEqual(60)
    await plan.warmUp!.start()
    expect(plan.warmUp!.filled).toBe(60)
  })

  it('gives way to the batches: no fill read while batches are pulled one after another, the rest once they stop', async () => {
    const data = generated(8, 60, 40)
    const input = { partitions: data.partitions, weights: data.weights, trainStreaming: true, split: 'train', config: config({ max_num_batches: 50 }) }
    const read: FragmentRef[] = []
    const plan = planBatches({
      ...input, deferFirstFill: true,
      readFragmentMeta: async (f) => {
        read.push(f)
        await new Promise((resolve) => setTimeout(resolve, 0)) // (tasks pass while a batch waits: the fill must still wait)
        return data.meta.get(f)!
      },
    })
    for (let i = 0; i < 4; i++) expect((await plan.batches.next()).done).toBe(false)
    expect(plan.warmUp!.isStarted).toBe(true)
    const drawn = new Set(plan.mixture!.flatMap((m, p) => (m.sampled > 0 ? data.partitions[p].fragments : [])))
    expect(drawn.size).toBeGreaterThan(0)
    expect(read.filter((f) => !drawn.has(f))).toEqual([])
    // nobody waits for a batch now: the fill reads every other stream's first row group
    await plan.warmUp!.start()
    expect(plan.warmUp!.filled).toBe(60)
    expect(read.filter((f) => !drawn.has(f)).length).toBeGreaterThan(0)
    await plan.batches.return(undefined)
  })

  it('a first row group that fails to read stops the plan with the eager plan\'s error, batches or not', async () => {
    for (const seed of [1, 2, 3, 6, 7]) {
      const data = generated(seed, 12, 30)
      const input = { partitions: data.partitions, weights: data.weights, trainStreaming: true, split: 'train', config: config({ max_num_batches: 6 }) }
      // break the first row group (in stream order) of two partitions
      for (const broken of [[3, 8], [0, 11], [5]]) {
        const bad = new Set<FragmentRef>()
        const eagerFirsts = await run(input, data.meta)
        for (const p of broken) for (const f of data.partitions[p].fragments) if ([...eagerFirsts.reads.keys()].includes(f)) bad.add(f)
        const read = async (f: FragmentRef) => {
          await new Promise((resolve) => setTimeout(resolve, 0))
          if (bad.has(f)) throw new Error(`cannot read ${f.path} row group ${f.rowGroup}`)
          return data.meta.get(f)!
        }
        const eager = planBatches({ ...input, readFragmentMeta: read })
        const eagerError = await collect(eager.batches).then(() => null, (e: Error) => e.message)
        expect(eagerError, JSON.stringify({ seed, broken })).not.toBeNull()
        const deferred = planBatches({ ...input, deferFirstFill: true, readFragmentMeta: read })
        const deferredError = await collect(deferred.batches).then(() => null, (e: Error) => e.message)
        expect(deferredError, JSON.stringify({ seed, broken })).toBe(eagerError)
        await expect(deferred.warmUp!.start()).rejects.toThrow(eagerError!)
      }
    }
  })
})
