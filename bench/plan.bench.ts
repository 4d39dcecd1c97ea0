/**
 * Planning benchmark (issue 3): a synthetic metadata-only dataset of 1,000,000 rows in 10,000 row groups (100 rows
 * each) over 100 mixture partitions, planned in Node.
 * - in memory: `planBatches` with a fake `readFragmentMeta` (lengths and texts generated per row group), train
 *   mixture (100 weighted partitions) and eval (one pass);
 * - parquet: the same rows written by DuckDB (`audio_size`, `text` and a 1-byte `audio_bytes`), opened and planned
 *   with `planDataset` through the fs source (DuckDB decides the row-group sizes; the row says how many it wrote).
 * Targets: first batch < 200 ms, 1,000,000 examples planned < 5 s, memory independent of stream length
 * (live heap after 100k vs after 1M examples; run `node --expose-gc --import tsx bench/run.ts plan` for GC'd figures).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { getPreset } from '../src/engine/config/presets.ts'
import type { PipelineConfig } from '../src/engine/config/types.ts'
import { openDataset } from '../src/engine/discovery/open.ts'
import { createFsSource } from '../src/engine/node/fs-source.ts'
import { planDataset } from '../src/engine/plan/plan-dataset.ts'
import type { FragmentMeta } from '../src/engine/pipeline/fragment-rows.ts'
import { planBatches, type MixturePartition, type Plan, type WeightEntry } from '../src/engine/pipeline/plan.ts'
import type { BenchRow } from './table.ts'

const ROWS = 1_000_000
const PARTITIONS = 100
const GROUPS_PER_PARTITION = 100
const ROWS_PER_GROUP = ROWS / (PARTITIONS * GROUPS_PER_PARTITION)
const TARGET_FIRST_BATCH_MS = 200
const TARGET_1M_MS = 5000

/** Transcripts of 20-139 characters (always ≥ 160 samples per char for the lengths below). */
const texts = Array.from({ length: 120 }, (_, i) => 'the quick brown fox jumps over the lazy dog '.repeat(4).slice(0, 20 + i))

/** A deterministic length in [32 000, 320 000) samples for row `r` of fragment `f`. */
const lengthOf = (f: number, r: number) => 32_000 + ((Math.imul(f * 131 + r, 2654435761) >>> 0) % 288_000)

function syntheticPartitions(): MixturePartition[] {
  return Array.from({ length: PARTITIONS }, (_, p) => ({
    corpus: `corpus${p % 10}`,
    language: `lang${String(p).padStart(3, '0')}`,
    fragments: Array.from({ length: GROUPS_PER_PARTITION }, (_, g) => ({
      path: `corpus=corpus${p % 10}/split=train/language=lang${String(p).padStart(3, '0')}/part-${Math.floor(g / 10)}.parquet`,
      rowGroup: g % 10, rows: ROWS_PER_GROUP, firstRow: (g % 10) * ROWS_PER_GROUP,
    })),
  }))
}

function benchConfig(): PipelineConfig {
  const c = getPreset('ctc-finetune').config
  c.max_num_batches = null
  c.num_accumulate = 1
  return c
}

/** Consumes a plan until `target` examples are in batches; time to first batch, total time, heap checkpoints. */
async function consume(plan: Plan, target: number): Promise<{ firstMs: number; ms: number; examples: number; batches: number; heapAt100k: number; heapAtEnd: number; heapPeak: number }> {
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
    if (batches % 500 === 0) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)
    if (Number.isNaN(heapAt100k) && examples >= 100_000) heapAt100k = liveHeap()
    if (examples >= target) break
  }
  const ms = performance.now() - t0
  return { firstMs, ms, examples, batches, heapAt100k, heapAtEnd: liveHeap(), heapPeak: Math.max(heapPeak, process.memoryUsage().heapUsed) }
}

const mb = (bytes: number) => bytes / 2 ** 20

/** Heap in use, after a full GC when node runs with `--expose-gc` (then the checkpoints compare live data only). */
function liveHeap(): number {
  (globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage().heapUsed
}

function row(name: string, r: Awaited<ReturnType<typeof consume>>, extra: Record<string, string | number> = {}): BenchRow {
  return {
    benchmark: name, examples: r.examples, batches: r.batches,
    'first batch ms': r.firstMs, 'x 200 ms': r.firstMs / TARGET_FIRST_BATCH_MS,
    'total ms': r.ms, 'x 5 s per 1M': (r.ms / TARGET_1M_MS) * (ROWS / r.examples),
    'examples/s': r.examples / (r.ms / 1000),
    'heap@100k MB': mb(r.heapAt100k), 'heap@end MB': mb(r.heapAtEnd), 'heap peak MB': mb(r.heapPeak),
    gc: typeof (globalThis as { gc?: unknown }).gc === 'function' ? 'forced' : 'no', ...extra,
  }
}

async function inMemory(): Promise<BenchRow[]> {
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
  const rows: BenchRow[] = []
  const train = await consume(planBatches({ partitions, weights, trainStreaming: true, split: 'train', config: benchConfig(), readFragmentMeta }), ROWS)
  rows.push(row('plan: in memory, train mixture (100 partitions)', train))
  const evalRun = await consume(planBatches({ partitions, weights: null, trainStreaming: false, split: 'dev', config: benchConfig(), readFragmentMeta }), Infinity)
  rows.push(row('plan: in memory, eval one pass', evalRun))
  return rows
}

/** The same shape as parquet through DuckDB: one file per partition, audio_size + text + a 1-byte audio_bytes. */
async function writeParquetDataset(root: string): Promise<void> {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' })
  const c = await db.connect()
  await c.run(`COPY (
      SELECT 'corpus' || (p % 10) AS corpus, 'dev' AS split, 'lang' || lpad(p::VARCHAR, 3, '0') AS language,
        (32000 + (hash(p * 10000 + i) % 288000))::BIGINT AS audio_size,
        substr(repeat('the quick brown fox jumps over the lazy dog ', 4), 1, 20 + ((p + i) % 120)) AS text,
        [0]::TINYINT[] AS audio_bytes
      FROM range(${PARTITIONS}) a(p), range(${ROWS / PARTITIONS}) b(i) ORDER BY p, i)
    TO '${root}' (FORMAT parquet, PARTITION_BY (corpus, split, language), ROW_GROUP_SIZE ${ROWS_PER_GROUP}, COMPRESSION snappy)`)
  c.closeSync()
  db.closeSync()
}

async function parquet(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'mixscope-plan-bench-'))
  try {
    const root = join(dir, 'version=0')
    await writeParquetDataset(root)
    const t0 = performance.now()
    const dataset = await openDataset(await createFsSource(root))
    const openMs = performance.now() - t0
    const groups = dataset.files.reduce((n, f) => n + f.rowGroups.length, 0)
    const config = benchConfig()
    config.sync_mode = 'UNTIL_LAST'
    const r = await consume(planDataset(dataset, config, { split: 'dev' }), Infinity)
    return [row('plan: parquet (DuckDB-written), eval one pass', r, { 'open ms': openMs, 'row groups': groups, files: dataset.files.length })]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Runs both parts; rows as `npm run bench -- plan` prints them. */
export async function runPlanBench(): Promise<BenchRow[]> {
  return [...await inMemory(), ...await parquet()]
}
