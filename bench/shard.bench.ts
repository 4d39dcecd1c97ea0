/**
 * Shard benchmark, `npm run bench -- shard`:
 * - deep-audit throughput of N shards on this machine (N = 1 … cores): each shard a `mixscope audit --deep
 *   --workers 1 --shard i/N` process, as a job array's tasks are; first every shard alone (one shard's rate), then
 *   all N at once. Target: N at once ≥ 0.9 × N × one shard's rate. Twice: unpinned, and with every shard pinned to one
 *   CPU (`taskset`; alone on CPU 0, together shard i on CPU i), as a job array task given one CPU runs. Dataset: the demo's FLAC corpora (mls, fleurs)
 *   copied 40× and rewritten with snappy by DuckDB (`<MIXSCOPE_BENCH_DATA or bench/.cache>/shard-flac`).
 * - `mixscope merge` of 1,000 audit parts of the 100,000-file synthetic dataset (bench/shard-synthetic.ts,
 *   1,000,000 rows): parts made once by the shards' own code (`auditShard`, one shard after another on one open of
 *   the dataset) and kept in `<MIXSCOPE_BENCH_DATA or bench/.cache>/shard-100k-parts`; the merge timed in its own process, peak RSS from
 *   GNU time. Targets: < 30 s, < 1 GB. Reference in the same run: the unsharded metadata audit of the same dataset,
 *   and whether the two documents are identical. Then one shard task of the 1,000 without and with the dataset index
 *   (written by `mixscope index`, removed again), and whether the two parts are the same.
 * - the wall time of a 50,000-hour deep audit on a 64-task array, projected from the measured one-shard rate.
 * `MIXSCOPE_SHARD_BENCH=deep` or `merge` runs one half (the projection needs both); `MIXSCOPE_BENCH_DATA` puts the data
 * outside the repository.
 */
import { execFile } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs'
import { cp, mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { availableParallelism, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { auditShard, createFsSource, indexFileName, openDataset, stringifyPart } from '../src/engine/node.ts'
import type { AuditPart } from '../src/engine/audit/partial/types.ts'
import type { DatasetSource } from '../src/engine/source/source.ts'
import { ensureShard100k, shardBenchData } from './shard-synthetic.ts'
import type { BenchRow } from './table.ts'

const repo = join(import.meta.dirname, '..')
const bin = join(repo, 'bin', 'mixscope.js')
const cache = shardBenchData
const demoRoot = join(repo, 'public', 'demo', 'version=0')
const flacCopies = 40
const flacRoot = join(cache, 'shard-flac', 'version=0')
const partsDir = join(cache, 'shard-100k-parts')
const partCount = 1000

interface Run { code: number; stdout: string; stderr: string; seconds: number }

function spawnRun(command: string, args: string[]): Promise<Run> {
  const started = performance.now()
  return new Promise((resolve) => {
    execFile(command, args, { cwd: repo, maxBuffer: 256 << 20, timeout: 1_800_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 99) : 0, stdout, stderr, seconds: (performance.now() - started) / 1000 }))
  })
}

/** The demo's FLAC corpora ×40 as corpus=<name>-<copy>, rewritten by DuckDB with snappy (the dataprep's codec). */
async function ensureFlacDataset(): Promise<string> {
  const marker = join(flacRoot, '..', '.complete')
  if (existsSync(marker)) return flacRoot
  await rm(join(flacRoot, '..'), { recursive: true, force: true })
  const duck = await DuckDBInstance.create(':memory:', { threads: '1' })
  const connection = await duck.connect()
  for (const corpus of ['mls', 'fleurs']) {
    const files = (await readdir(join(demoRoot, `corpus=${corpus}`), { recursive: true })).filter((f) => f.endsWith('.parquet'))
    for (const file of files) {
      const first = join(flacRoot, `corpus=${corpus}-0`, file)
      await mkdir(dirname(first), { recursive: true })
      await connection.run(`COPY (SELECT * FROM read_parquet('${join(demoRoot, `corpus=${corpus}`, file)}')) TO '${first}' (FORMAT parquet, COMPRESSION snappy)`)
      for (let i = 1; i < flacCopies; i++) await cp(first, join(flacRoot, `corpus=${corpus}-${i}`, file))
    }
  }
  connection.closeSync()
  writeFileSync(marker, '')
  return flacRoot
}

/** Hours a deep part decoded (Σ audio_size of its rows; every row is decoded). */
function partHours(part: AuditPart): number {
  return part.rows.audio_size.reduce<number>((h, n) => h + (n ?? 0), 0) / 16000 / 3600
}

/**
 * One deep shard in its own process: wall seconds, CPU seconds (user + system, from GNU time), hours decoded. With
 * `cpu`, the process is pinned to that CPU (`taskset`), as a job array task given one CPU is (Slurm
 * `--cpus-per-task=1` with task/affinity or cgroups): unpinned, one shard alone spreads its main thread and its
 * decode worker over every core, so "N × one shard" counts more than N cores.
 */
async function shardRun(root: string, index: number, count: number, out: string, cpu?: number): Promise<{ seconds: number; cpu: number; hours: number }> {
  const audit = ['node', bin, 'audit', root, '--deep', '--workers', '1', '--shard', `${index}/${count}`, '--out', out]
  const r = await spawnRun('/usr/bin/time', ['-v', ...(cpu === undefined ? audit : ['taskset', '-c', String(cpu), ...audit])])
  if (r.code !== 0) throw new Error(`bench shard: shard ${index}/${count} exited ${r.code}: ${r.stderr}`)
  const time = (what: string) => Number(new RegExp(`${what} time \\(seconds\\): ([\\d.]+)`).exec(r.stderr)?.[1] ?? NaN)
  return { seconds: r.seconds, cpu: time('User') + time('System'), hours: partHours(JSON.parse(await readFile(out, 'utf8')) as AuditPart) }
}

/**
 * The fs source with plain open-read-close reads: the shared fs source keeps descriptors until the event loop
 * turns, which 100,000 footer reads in a row outrun (EMFILE); generating the parts does not need its cache.
 */
async function plainFsSource(root: string): Promise<DatasetSource> {
  const source = await createFsSource(root)
  return {
    ...source,
    async read(path, start, end) {
      const fd = openSync(join(root, ...path.split('/')), 'r')
      try {
        const out = new Uint8Array(Math.max(0, end - start))
        const n = readSync(fd, out, 0, out.length, start)
        source.counters.requests++
        source.counters.bytes += n
        return n === out.length ? out : out.subarray(0, n)
      } finally {
        closeSync(fd)
      }
    },
  }
}

/** 1,000 audit parts of the 100,000-file dataset, made once by `auditShard`. */
async function ensureParts(root: string): Promise<{ bytes: number }> {
  const marker = join(partsDir, '.complete.json')
  if (existsSync(marker)) return JSON.parse(await readFile(marker, 'utf8')) as { bytes: number }
  rmSync(partsDir, { recursive: true, force: true })
  mkdirSync(partsDir, { recursive: true })
  const dataset = await openDataset(await plainFsSource(root))
  let bytes = 0
  for (let i = 0; i < partCount; i++) {
    const text = stringifyPart(await auditShard(dataset, { index: i, count: partCount }))
    bytes += text.length
    writeFileSync(join(partsDir, `audit-${String(i).padStart(4, '0')}.json`), text)
  }
  writeFileSync(marker, JSON.stringify({ bytes }))
  return { bytes }
}

/** Runs `node bin/mixscope.js args` under GNU time: wall seconds and peak RSS (bytes). */
async function measured(args: string[]): Promise<Run & { rss: number }> {
  const r = await spawnRun('/usr/bin/time', ['-v', 'node', bin, ...args])
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)
  return { ...r, rss: kb ? Number(kb[1]) * 1024 : NaN }
}

export async function runShardBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const cores = availableParallelism()

  const only = process.env.MIXSCOPE_SHARD_BENCH ?? ''
  if (only !== '' && only !== 'deep' && only !== 'merge') throw new Error(`bench shard: MIXSCOPE_SHARD_BENCH is deep or merge, got ${only}`)
  const tmp = join(cache, 'shard-runs')
  await rm(tmp, { recursive: true, force: true })
  await mkdir(tmp, { recursive: true })

  // deep-audit throughput, N shards on one machine
  let perShard = NaN
  if (only !== 'merge') {
    const root = await ensureFlacDataset()
    await shardRun(root, 0, 8, join(tmp, 'warm.json')) // page cache, tsx's transform cache
    for (const pinned of [false, true]) for (let n = 1; n <= cores; n++) {
      const alone: { seconds: number; cpu: number; hours: number }[] = []
      for (let i = 0; i < n; i++) alone.push(await shardRun(root, i, n, join(tmp, `alone-${n}-${i}.json`), pinned ? 0 : undefined))
      const started = performance.now()
      const together = await Promise.all(Array.from({ length: n }, (_, i) => shardRun(root, i, n, join(tmp, `together-${n}-${i}.json`), pinned ? i : undefined)))
      const wall = (performance.now() - started) / 1000
      const oneRate = alone.reduce((h, a) => h + a.hours, 0) / (alone.reduce((s, a) => s + a.seconds, 0) / 60)
      const hours = together.reduce((h, t) => h + t.hours, 0)
      const rate = hours / (wall / 60)
      if (n === 1 && !pinned) perShard = oneRate
      rows.push({
        benchmark: `deep audit, ${n} shard${n > 1 ? 's' : ''} at once (1 worker each${pinned ? ', pinned to 1 CPU each' : ''})`, 'hours decoded': hours, 'wall s': wall,
        'h/min': rate, 'one shard h/min': oneRate, 'vs N × one': rate / (n * oneRate), target: '≥ 0.9', ok: rate / (n * oneRate) >= 0.9 ? 'yes' : 'NO',
        // CPU per hour decoded: equal alone and together when the shards do not slow each other down, so that a
        // shortfall above is cores the shared machine did not give (the load average is printed with the table)
        'CPU s/h alone': alone.reduce((c, a) => c + a.cpu, 0) / alone.reduce((h, a) => h + a.hours, 0),
        'CPU s/h together': together.reduce((c, t) => c + t.cpu, 0) / hours,
        'load avg': loadavg()[0],
      })
    }
  }
  if (only === 'deep') return rows

  // merge of 1,000 parts of a 100,000-file dataset
  const big = ensureShard100k()
  const parts = await ensureParts(big.root)
  const out = join(tmp, 'merged.json')
  const merge = await measured(['merge', partsDir, '--out', out])
  if (merge.code > 1) throw new Error(`bench merge: exited ${merge.code}: ${merge.stderr.slice(-2000)}`)
  rows.push({
    benchmark: `merge ${partCount} audit parts, ${big.files} files, ${big.rows} rows`, 'parts MB': parts.bytes / 1e6,
    'wall s': merge.seconds, 'peak RSS MB': merge.rss / 1e6, target: '< 30 s, < 1000 MB', ok: merge.seconds < 30 && merge.rss < 1e9 ? 'yes' : 'NO',
  })
  // the parts are of the metadata audit (the placeholder bytes would make every row an audio-check finding)
  const whole = await measured(['audit', big.root, '--no-audio-check', '--json'])
  if (whole.code > 1) {
    rows.push({ benchmark: 'reference: unsharded audit --no-audio-check, same dataset', 'wall s': whole.seconds, ok: `failed (${whole.stderr.trim().split('\n').find((l) => l.startsWith('mixscope')) ?? whole.code})` })
  } else {
    const document = (await readFile(out, 'utf8')).replace(/,\n {2}"timing": \{[\s\S]*\}\n\}\n$/, '\n}\n')
    rows.push({
      benchmark: 'reference: unsharded audit --no-audio-check, same dataset', 'wall s': whole.seconds, 'peak RSS MB': whole.rss / 1e6,
      'merge / audit': merge.seconds / whole.seconds, ok: document === whole.stdout ? 'identical documents' : 'DOCUMENTS DIFFER',
    })
  }

  // one shard's task of the 1,000: without the dataset index (every footer read to make the cut), then with one
  const indexPath = join(big.root, indexFileName)
  rmSync(indexPath, { force: true })
  const shardArgs = ['audit', big.root, '--no-audio-check', '--shard', '3/1000', '--out', join(tmp, 'shard-3.json')]
  const withoutIndex = await measured(shardArgs)
  if (withoutIndex.code !== 0) throw new Error(`bench shard: shard 3/1000 exited ${withoutIndex.code}: ${withoutIndex.stderr.slice(-2000)}`)
  const withoutPart = (await readFile(join(tmp, 'shard-3.json'), 'utf8')).replace(/"timing":\{[^}]*\}/, '')
  const index = await measured(['index', big.root])
  if (index.code > 1) throw new Error(`bench shard: index exited ${index.code}: ${index.stderr.slice(-2000)}`)
  const withIndex = await measured(shardArgs)
  rmSync(indexPath, { force: true })
  if (withIndex.code !== 0) throw new Error(`bench shard: shard 3/1000 with the index exited ${withIndex.code}: ${withIndex.stderr.slice(-2000)}`)
  const samePart = (await readFile(join(tmp, 'shard-3.json'), 'utf8')).replace(/"timing":\{[^}]*\}/, '') === withoutPart
  rows.push({ benchmark: `one shard task (3/1000, metadata), ${big.files} files, no index`, 'wall s': withoutIndex.seconds, 'peak RSS MB': withoutIndex.rss / 1e6, note: 'reads every footer to cut its range' })
  rows.push({ benchmark: '  the same with the dataset index', 'wall s': withIndex.seconds, 'peak RSS MB': withIndex.rss / 1e6, 'vs no index': withIndex.seconds / withoutIndex.seconds,
    ok: samePart ? 'same part' : 'PARTS DIFFER', note: `index written once by "mixscope index" in ${index.seconds.toFixed(1)} s` })

  // projection: a 50,000-hour deep audit on a 64-task array
  const tasks = 64
  const mergePerRow = merge.seconds / big.rows
  for (const cpus of only === 'merge' ? [] : [1, 4]) {
    const efficiency = (rows.find((r) => r.benchmark.startsWith(`deep audit, ${cores} shards`))?.['vs N × one'] as number | undefined) ?? 1
    const rate = perShard * cpus * (cpus > 1 ? efficiency : 1)
    const minutes = 50_000 / (tasks * rate)
    rows.push({
      benchmark: `projection: 50,000 h deep audit, ${tasks} tasks × ${cpus} CPU${cpus > 1 ? 's' : ''}`, 'h/min': tasks * rate,
      'wall s': minutes * 60, 'wall h': minutes / 60, note: cpus > 1 ? `one-shard rate × ${cpus} × ${efficiency.toFixed(2)} (measured N-at-once efficiency)` : 'the measured one-shard rate',
    })
  }
  const clips = 50_000 * 3600 / 10
  rows.push({ benchmark: 'projection: its merge (≈ 18M rows of 10 s)', 'wall s': clips * mergePerRow, note: `${(mergePerRow * 1e6).toFixed(1)} µs per row, as measured above` })
  return rows
}
