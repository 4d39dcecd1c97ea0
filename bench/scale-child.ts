/**
 * The scale benchmark's child processes (bench/scale.bench.ts spawns them, so each measurement has its own heap and a
 * server never shares the measured process's event loop):
 * - `server <json>`: a static server (test/helpers/static-server.ts; latency, HTTP/2, hidden paths) printing its URL;
 *   on a `count` IPC message it answers its request count and most requests in flight.
 * - `run <json>`: one measurement, printing one JSON line: time, requests, bytes, peak heap and RSS, the totals.
 */
import { readFileSync } from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'
import {
  buildIndexRows,
  computeStats,
  createFsSource,
  createHttpSource,
  openDataset,
  writeDatasetIndex,
} from '../src/engine/node.ts'
import { cliHttpConcurrency } from '../src/cli/lib/dataset-arg.ts'
import type { DatasetSource } from '../src/engine/source/source.ts'
import { startStaticServer } from '../test/helpers/static-server.ts'
import { createH2Fetch } from '../test/helpers/h2-fetch.ts'

/** What `server` serves. */
export interface ServerJob {
  root: string
  latencyMs?: number
  /** Key and certificate files (PEM): HTTPS over HTTP/2. */
  http2?: { keyFile: string; certFile: string }
  /** Path suffixes answered 404 (an index the no-index runs must not see). */
  hide?: string[]
}

/** One measurement. */
export interface RunJob {
  kind: 'stats' | 'index' | 'duckdb'
  /** A folder, or an http(s) URL of the root (ending in `/`). */
  root: string
  /** Use the dataset index (stats). */
  useIndex?: boolean
  /** HTTP over HTTP/2 (the h2 fetch of test/helpers). */
  h2?: boolean
  concurrency?: number
}

export interface RunResult {
  ms: number
  requests: number
  bytes: number
  heapPeakMB: number
  rssPeakMB: number
  files: number
  rows: number
  samples: number
  partitions: number
  fromIndex?: number
  indexBytes?: number
}

async function serve(job: ServerJob): Promise<void> {
  const http2 = job.http2 ? { key: readFileSync(job.http2.keyFile, 'utf8'), cert: readFileSync(job.http2.certFile, 'utf8') } : undefined
  const server = await startStaticServer({ root: job.root, latencyMs: job.latencyMs, http2, hide: job.hide })
  process.on('message', (m: { type: string }) => {
    if (m.type === 'count') process.send?.({ type: 'count', requests: server.requests, maxActive: server.maxActive })
    if (m.type === 'close') void server.close().then(() => process.exit(0))
  })
  process.send?.({ type: 'ready', url: server.url })
}

async function run(job: RunJob): Promise<RunResult> {
  let heapPeak = 0
  const sample = () => { heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed) }
  const timer = setInterval(sample, 10)
  let sampled = 0
  const onProgress = () => { if (++sampled % 64 === 0) sample() }
  const t0 = performance.now()
  let out: Omit<RunResult, 'heapPeakMB' | 'rssPeakMB' | 'ms'>
  if (job.kind === 'duckdb') {
    const duck = await DuckDBInstance.create(':memory:', { threads: '1' })
    const c = await duck.connect()
    const rows = (await c.runAndReadAll(`SELECT count(DISTINCT filename)::BIGINT AS files, count(*)::BIGINT AS n, sum(audio_size)::BIGINT AS s, ` +
      `count(DISTINCT (corpus, split, language))::BIGINT AS p FROM read_parquet('${job.root}/*/*/*/*.parquet', hive_partitioning = true, filename = true)`)).getRows()[0]
    out = { requests: 0, bytes: 0, files: Number(rows[0]), rows: Number(rows[1]), samples: Number(rows[2]), partitions: Number(rows[3]) }
  } else {
    const h2 = job.h2 ? createH2Fetch() : null
    const source: DatasetSource = /^https?:/.test(job.root)
      ? createHttpSource(job.root, { concurrency: job.concurrency ?? cliHttpConcurrency, ...(h2 ? { fetch: h2.fetch, protocolOf: h2.protocolOf } : {}) })
      : await createFsSource(job.root)
    const dataset = await openDataset(source, { facts: true, useIndex: job.kind === 'stats' ? job.useIndex ?? false : false, onProgress })
    let indexBytes: number | undefined
    if (job.kind === 'index') indexBytes = writeDatasetIndex(await buildIndexRows(dataset)).length
    const report = await computeStats(dataset, { onProgress })
    source.close?.()
    h2?.close()
    out = {
      requests: source.counters.requests, bytes: source.counters.bytes, files: report.totals.files, rows: report.totals.rows,
      samples: report.totals.samples, partitions: report.partitions.length, fromIndex: dataset.described.fromIndex, indexBytes,
    }
  }
  const ms = performance.now() - t0
  sample()
  clearInterval(timer)
  return { ms, ...out, heapPeakMB: heapPeak / 1e6, rssPeakMB: process.resourceUsage().maxRSS / 1024 }
}

if (import.meta.filename === process.argv[1]) {
  const [mode, json] = process.argv.slice(2)
  if (mode === 'server') await serve(JSON.parse(json) as ServerJob)
  else if (mode === 'run') process.stdout.write(JSON.stringify(await run(JSON.parse(json) as RunJob)) + '\n')
  else {
    process.stderr.write('usage: scale-child.ts server|run <json>\n')
    process.exit(2)
  }
}
