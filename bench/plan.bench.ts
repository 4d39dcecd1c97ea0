/**
 * Planning benchmark: a synthetic metadata-only dataset of 1,000,000 rows in 10,000 row groups (100 rows
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
import { createFsSource, openDataset, planDataset } from '../src/engine/node.ts'
import type { BenchRow } from './table.ts'
import { benchConfig, consume, PARTITIONS, planSynthetic, ROWS, ROWS_PER_GROUP, TARGET_1M_MS, TARGET_FIRST_BATCH_MS, type ConsumeResult } from './plan-synthetic.ts'
import { startBenchBrowser } from './browser/runner.ts'
import type { PlanReply } from './browser/protocol.ts'

const mb = (bytes: number) => bytes / 2 ** 20

/** Heap in use, after a full GC when node runs with `--expose-gc` (then the checkpoints compare live data only). */
function liveHeap(): number {
  (globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage().heapUsed
}

function row(name: string, r: ConsumeResult, extra: Record<string, string | number> = {}): BenchRow {
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
  const heap = () => process.memoryUsage().heapUsed
  const { train, eval: evalRun } = await planSynthetic(heap, liveHeap)
  return [row('plan: in memory, train mixture (100 partitions)', train), row('plan: in memory, eval one pass', evalRun)]
}

/** The same in-memory workload in Chromium's benchmark Worker (no heap figures there). */
async function inChromium(): Promise<BenchRow[]> {
  const browser = await startBenchBrowser()
  try {
    const reply = await browser.call<PlanReply>({ kind: 'plan' })
    return [row(`plan: Chromium ${browser.version} Worker, train mixture`, reply.train), row(`plan: Chromium ${browser.version} Worker, eval one pass`, reply.eval)]
  } finally {
    await browser.close()
  }
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
    const r = await consume(planDataset(dataset, config, { split: 'dev' }), Infinity, () => process.memoryUsage().heapUsed, liveHeap)
    return [row('plan: parquet (DuckDB-written), eval one pass', r, { 'open ms': openMs, 'row groups': groups, files: dataset.files.length })]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Runs both parts; rows as `npm run bench -- plan` prints them. */
export async function runPlanBench(): Promise<BenchRow[]> {
  return [...await inMemory(), ...await inChromium(), ...await parquet()]
}
