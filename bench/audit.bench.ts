/**
 * Audit benchmark: metadata audit of the 2,000-file synthetic dataset (open + audit, local files), and
 * deep-audit throughput in hours of audio per minute on FLAC: the demo's FLAC partitions (mls, fleurs) copied 10×
 * under `bench/.cache/audit-flac/version=0`, decoded by the Node worker pool (all cores), in one thread, and in
 * Chromium's Worker over HTTP (one thread, WebCodecs).
 * Targets: metadata < 2 s; deep ≥ 10 h of audio per minute with both cores.
 */
import { cp, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import {
  auditDataset,
  buildManifest,
  createFsSource,
  formatManifest,
  manifestName,
  openDataset,
} from '../src/engine/node.ts'
import { createHelperPool, measureWith } from '../src/cli/lib/helper-pool.ts'
import { ensureSyntheticDataset } from './make-synthetic.ts'
import type { BenchRow } from './table.ts'
import { startBenchBrowser } from './browser/runner.ts'
import type { AuditReply } from './browser/protocol.ts'

const copies = 10
const flacRoot = join(import.meta.dirname, '.cache', 'audit-flac', 'version=0')
const demoRoot = join(import.meta.dirname, '..', 'public', 'demo', 'version=0')

/**
 * The FLAC dataset: demo corpora mls and fleurs (all FLAC) as corpus=<name>-<copy>, each file rewritten by DuckDB
 * with snappy, as the reference dataprep writes (the demo itself uses zstd to stay small, and zstd's pure-JS
 * decompressor would dominate the timing).
 */
async function ensureFlacDataset(): Promise<string> {
  const marker = join(flacRoot, '..', '.complete-snappy')
  if (await stat(marker).then(() => true, () => false)) return flacRoot
  await rm(join(flacRoot, '..'), { recursive: true, force: true })
  const duck = await DuckDBInstance.create(':memory:', { threads: '1' })
  const connection = await duck.connect()
  for (const corpus of ['mls', 'fleurs']) {
    const files = (await readdir(join(demoRoot, `corpus=${corpus}`), { recursive: true })).filter((f) => f.endsWith('.parquet'))
    for (let i = 0; i < copies; i++) {
      for (const file of files) {
        const to = join(flacRoot, `corpus=${corpus}-${i}`, file)
        await mkdir(dirname(to), { recursive: true })
        await connection.run(`COPY (SELECT * FROM read_parquet('${join(demoRoot, `corpus=${corpus}`, file)}')) TO '${to}' (FORMAT parquet, COMPRESSION snappy)`)
      }
    }
  }
  connection.closeSync()
  await cp(join(demoRoot, '..', 'README.md'), marker)
  return flacRoot
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now()
  const value = await fn()
  return { ms: performance.now() - t0, value }
}

export async function runAuditBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const synthetic = await ensureSyntheticDataset()
  await auditDataset(await openDataset(await createFsSource(synthetic.root))) // warm the OS cache
  const meta = await timed(async () => auditDataset(await openDataset(await createFsSource(synthetic.root))))
  rows.push({ benchmark: 'audit: metadata, 2,000-file synthetic (open + audit)', files: meta.value.totals.files, rows: meta.value.totals.rows,
    ms: meta.ms, target: '< 2000 ms', ok: meta.ms < 2000 ? 'yes' : 'NO' })

  const root = await ensureFlacDataset()
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.parquet')).length
  const workers = availableParallelism()
  const pool = createHelperPool(workers)
  const measure = measureWith(pool)
  try {
    await measure({ path: 'warm-up', rowGroup: 0, rows: [] }) // workers load the engine before timing
    const deep = await timed(async () => auditDataset(await openDataset(await createFsSource(root)), { deep: true, measure, concurrency: workers * 2 }))
    const perMinute = deep.value.totals.hours_decoded / (deep.ms / 60_000)
    rows.push({ benchmark: `audit: deep, FLAC, ${workers} workers`, files, rows: deep.value.totals.rows_decoded,
      ms: deep.ms, 'hours decoded': deep.value.totals.hours_decoded, 'h/min': perMinute, target: '≥ 10 h/min', ok: perMinute >= 10 ? 'yes' : 'NO' })
  } finally {
    await pool.close()
  }
  const single = await timed(async () => auditDataset(await openDataset(await createFsSource(root)), { deep: true, concurrency: 1 }))
  rows.push({ benchmark: 'audit: deep, FLAC, this thread', files, rows: single.value.totals.rows_decoded, ms: single.ms,
    'hours decoded': single.value.totals.hours_decoded, 'h/min': single.value.totals.hours_decoded / (single.ms / 60_000) })

  // the same deep audit in Chromium's Worker, over HTTP (WebCodecs decodes FLAC there), one thread
  const manifest = join(root, manifestName)
  await writeFile(manifest, formatManifest(buildManifest(await (await createFsSource(root)).list())))
  const browser = await startBenchBrowser()
  try {
    const reply = await browser.call<AuditReply>({ kind: 'audit', url: 'audit-flac/version=0/' })
    rows.push({ benchmark: `audit: deep, FLAC, Chromium ${browser.version} Worker (HTTP)`, files, rows: reply.rowsDecoded, ms: reply.ms,
      'hours decoded': reply.hoursDecoded, 'h/min': reply.hoursDecoded / (reply.ms / 60_000) })
  } finally {
    await browser.close()
  }
  return rows
}
