/**
 * Stats benchmark: full stats of the 2,000-file synthetic dataset with mixscope on local files, mixscope
 * over HTTP (requests and bytes read), and DuckDB summing audio_size per partition on the same files, one thread each.
 * Targets: over HTTP under 1% of the dataset's bytes; locally within 2× of DuckDB's time.
 */
import { DuckDBInstance } from '@duckdb/node-api'
import { computeStats, createFsSource, createHttpSource, openDataset } from '../src/engine/node.ts'
import { startStaticServer } from '../test/helpers/static-server.ts'
import { ensureSyntheticDataset } from './make-synthetic.ts'
import type { BenchRow } from './table.ts'

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now()
  const value = await fn()
  return { ms: performance.now() - t0, value }
}

export async function runStatsBench(): Promise<BenchRow[]> {
  const dataset = await ensureSyntheticDataset()
  const rows: BenchRow[] = []

  const duck = await DuckDBInstance.create(':memory:', { threads: '1' })
  const connection = await duck.connect()
  const glob = `${dataset.root}/**/*.parquet`
  const sql = `SELECT corpus, split, language, count(*) AS n, sum(audio_size) AS s FROM read_parquet('${glob}', hive_partitioning = true) GROUP BY ALL`
  await connection.run(sql) // warm the OS cache for both
  const duckRun = await timed(() => connection.runAndReadAll(sql))
  const duckPartitions = duckRun.value.getRows().length

  await (await openDataset(await createFsSource(dataset.root)).then(computeStats)) // warm-up
  const local = await timed(async () => {
    const source = await createFsSource(dataset.root)
    const report = await computeStats(await openDataset(source))
    return { report, source }
  })

  const server = await startStaticServer({ root: dataset.root })
  try {
    const http = await timed(async () => {
      const source = createHttpSource(`${server.url}/`, { concurrency: 8 })
      const report = await computeStats(await openDataset(source))
      return { report, source }
    })
    const same = JSON.stringify(http.value.report.partitions) === JSON.stringify(local.value.report.partitions)
    rows.push({ benchmark: 'stats: DuckDB read_parquet (1 thread)', files: dataset.files, ms: duckRun.ms, 'x DuckDB': 1, partitions: duckPartitions })
    rows.push({ benchmark: 'stats: mixscope, local files', files: dataset.files, ms: local.ms, 'x DuckDB': local.ms / duckRun.ms,
      partitions: local.value.report.partitions.length, requests: local.value.source.counters.requests,
      'bytes read': local.value.source.counters.bytes, '% of dataset': (100 * local.value.source.counters.bytes) / dataset.bytes })
    rows.push({ benchmark: 'stats: mixscope, HTTP (localhost)', files: dataset.files, ms: http.ms, 'x DuckDB': http.ms / duckRun.ms,
      partitions: http.value.report.partitions.length, requests: http.value.source.counters.requests,
      'bytes read': http.value.source.counters.bytes, '% of dataset': (100 * http.value.source.counters.bytes) / dataset.bytes,
      'same as local': same ? 'yes' : 'NO' })
  } finally {
    await server.close()
  }
  return rows
}
