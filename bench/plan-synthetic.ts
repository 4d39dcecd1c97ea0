/**
 * The synthetic planning workload of bench/plan.bench.ts, browser-safe so the same code runs in Node and in the
 * Chromium benchmark Worker: 1,000,000 rows in 10,000 row groups (100 rows each) over 100 mixture partitions,
 * metadata generated per row group (no I/O).
 */
import { getPreset, type MixturePartition, type Plan, planBatches, type WeightEntry } from '../src/engine/node.ts'
import type { PipelineConfig } from '../src/engine/pipeline/config/types.ts'
import type { FragmentMeta } from '../src/engine/pipeline/fragment-rows.ts'

export const ROWS = 1_000_000
export const PARTITIONS = 100
export const GROUPS_PER_PARTITION = 100
export const ROWS_PER_GROUP = ROWS / (PARTITIONS * GROUPS_PER_PARTITION)
export const TARGET_FIRST_BATCH_MS = 200
export const TARGET_1M_MS = 5000

/** Transcripts of 20-139 characters (always ≥ 160 samples per char for the lengths below). */
export const texts = Array.from({ length: 120 }, (_, i) => 'the quick brown fox jumps over the lazy dog '.repeat(4).slice(0, 20 + i))

/** A deterministic length in [32 000, 320 000) samples for row `r` of fragment `f`. */
export const lengthOf = (f: number, r: number) => 32_000 + ((Math.imul(f * 131 + r, 2654435761) >>> 0) % 288_000)

export function syntheticPartitions(): MixturePartition[] {
  return Array.from({ length: PARTITIONS }, (_, p) => ({
    corpus: `corpus${p % 10}`,
    language: `lang${String(p).padStart(3, '0')}`,
    fragments: Array.from({ length: GROUPS_PER_PARTITION }, (_, g) => ({
      path: `corpus=corpus${p % 10}/split=train/language=lang${String(p).padStart(3, '0')}/part-${Math.floor(g / 10)}.parquet`,
      rowGroup: g % 10, rows: ROWS_PER_GROUP, firstRow: (g % 10) * ROWS_PER_GROUP,
    })),
  }))
}

export function benchConfig(): PipelineConfig {
  const c = getPreset('ctc-finetune').config
  c.max_num_batches = null
  c.num_accumulate = 1
  return c
}

/** Consumes a plan until `target` examples are in batches; time to first batch, total time, heap checkpoints. */
export async function consume(plan: Plan, target: number, heapUsed: () => number = () => NaN, liveHeap: () => number = heapUsed): Promise<{ firstMs: number; ms: number; examples: number; batches: number; heapAt100k: number; heapAtEnd: number; heapPeak: number }> {
  const t0 = performance.now()
  let firstMs = NaN
  let examples = 0
  let batches = 0
  let heapAt100k = NaN
  let heapPeak = 0
  for await (const b of plan.batches) {
    if (batches === 0) firstMs = performance.now() - t0
    batches++
    examples += b.examples.length
    if (batches % 500 === 0) heapPeak = Math.max(heapPeak, heapUsed())
    if (Number.isNaN(heapAt100k) && examples >= 100_000) heapAt100k = liveHeap()
    if (examples >= target) break
  }
  const ms = performance.now() - t0
  return { firstMs, ms, examples, batches, heapAt100k, heapAtEnd: liveHeap(), heapPeak: Math.max(heapPeak, heapUsed()) }
}


/** Result of `consume`. */
export type ConsumeResult = Awaited<ReturnType<typeof consume>>

/** Train mixture (100 weighted partitions) and eval (one pass) over the synthetic rows, planned in this thread. */
export async function planSynthetic(heapUsed?: () => number, liveHeap?: () => number): Promise<{ train: ConsumeResult; eval: ConsumeResult }> {
  const partitions = syntheticPartitions()
  const fragmentIndex = new Map<string, number>()
  partitions.forEach((p, pi) => p.fragments.forEach((f, gi) => fragmentIndex.set(`${f.path}#${f.rowGroup}`, pi * GROUPS_PER_PARTITION + gi)))
  const readFragmentMeta = async (f: { path: string; rowGroup: number; rows: number }): Promise<FragmentMeta> => {
    const k = fragmentIndex.get(`${f.path}#${f.rowGroup}`) as number
    const lengths = new Array<number>(f.rows)
    const t = new Array<string>(f.rows)
    for (let r = 0; r < f.rows; r++) {
      lengths[r] = lengthOf(k, r)
      t[r] = texts[(k + r) % texts.length]
    }
    return { lengths, texts: t }
  }
  const weights: WeightEntry[] = partitions.map((p, i) => ({ corpus: p.corpus, language: p.language, weight: (i + 1) / ((PARTITIONS * (PARTITIONS + 1)) / 2) }))
  const train = await consume(planBatches({ partitions, weights, trainStreaming: true, split: 'train', config: benchConfig(), readFragmentMeta }), ROWS, heapUsed, liveHeap)
  const evalRun = await consume(planBatches({ partitions, weights: null, trainStreaming: false, split: 'dev', config: benchConfig(), readFragmentMeta }), Infinity, heapUsed, liveHeap)
  return { train, eval: evalRun }
}
