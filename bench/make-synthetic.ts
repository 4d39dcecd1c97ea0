/**
 * The synthetic benchmark dataset: 2,000 parquet files (500 languages × 2 corpora × 2 splits) in the dataprep
 * layout under `bench/.cache/synthetic/version=0`, 4 row groups × 3 rows per file, `audio_bytes` list<int8> of
 * random bytes (24–36 KB per row), plus `_manifest.json` and `language_distribution_0.tsv` beside the root.
 *
 * Built once: a marker file records the result and later calls return it. Written by DuckDB, two single-threaded
 * instances in parallel (one per core); payload bytes come from DuckDB's `random()`, row lengths from a fixed seed.
 * Run: `npx tsx bench/make-synthetic.ts`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import type { DuckDBConnection } from '@duckdb/node-api'
import {
  buildManifest,
  createFsSource,
  formatManifest,
  manifestName,
  mulberry32 as makeRng,
} from '../src/engine/node.ts'
import type { SourceFile } from '../src/engine/source/source.ts'

/** Where the dataset lives (ignored by git). */
export const syntheticDir = join(import.meta.dirname, '.cache', 'synthetic')
const markerPath = join(syntheticDir, '.complete.json')

const languageCount = 500
const corpora = ['mls', 'commonvoice']
const splits = ['train', 'dev']
const rowGroups = 4
const rowsPerGroup = 3
/** Payload length range per row, bytes. */
const payloadBytes: [number, number] = [24_000, 36_000]

/** What `ensureSyntheticDataset` returns. */
export interface SyntheticDataset {
  /** Absolute path of the dataset root (`…/version=0`). */
  root: string
  /** Parquet files written. */
  files: number
  /** Bytes of all files under the root, manifest included. */
  bytes: number
}

/** `aaa_Latn`, `aab_Latn`, …: 500 distinct language-like codes. */
function languageCode(i: number): string {
  const a = 'abcdefghijklmnopqrstuvwxyz'
  return `${a[Math.floor(i / 676) % 26]}${a[Math.floor(i / 26) % 26]}${a[i % 26]}_Latn`
}


interface FileJob { path: string; lengths: number[] }

function planFiles(): FileJob[] {
  const rng = makeRng(1234)
  const jobs: FileJob[] = []
  for (const corpus of corpora) {
    for (const split of splits) {
      for (let l = 0; l < languageCount; l++) {
        const lengths = Array.from({ length: rowGroups * rowsPerGroup },
          () => payloadBytes[0] + Math.floor(rng() * (payloadBytes[1] - payloadBytes[0])))
        jobs.push({ path: `corpus=${corpus}/split=${split}/language=${languageCode(l)}/part-0.parquet`, lengths })
      }
    }
  }
  return jobs
}

/** audio_size for a payload: as if ~20 KB/s of 16 kHz FLAC (0.8 samples per byte). */
const samplesFor = (bytes: number): number => Math.floor(bytes * 0.8)

async function writeFile(conn: DuckDBConnection, root: string, job: FileJob): Promise<void> {
  mkdirSync(join(root, job.path, '..'), { recursive: true })
  // one UNION ALL branch per row group on a single thread makes DuckDB's row groups exact
  const branches = []
  for (let g = 0; g < rowGroups; g++) {
    const values = job.lengths.slice(g * rowsPerGroup, (g + 1) * rowsPerGroup)
      .map((n, r) => `(${g * rowsPerGroup + r}, ${n})`).join(', ')
    branches.push(`(SELECT 'synthetic sentence number ' || i AS text, ` +
      `list_transform(range(n), x -> (floor(random() * 256) - 128)::TINYINT) AS audio_bytes, ` +
      `floor(n * 0.8)::BIGINT AS audio_size FROM (VALUES ${values}) v(i, n) ORDER BY i)`)
  }
  const target = join(root, job.path).replaceAll("'", "''")
  await conn.run(`COPY (${branches.join(' UNION ALL ')}) TO '${target}' ` +
    `(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${rowsPerGroup})`)
}

/** Every file under `dir`, as the engine's fs source lists it (paths relative, `/`-separated). */
function listFiles(dir: string): Promise<SourceFile[]> {
  return createFsSource(dir).then((source) => source.list())
}

async function build(): Promise<SyntheticDataset> {
  const started = Date.now()
  const staging = `${syntheticDir}.partial`
  rmSync(staging, { recursive: true, force: true })
  const root = join(staging, 'version=0')
  const jobs = planFiles()
  const workers = 2
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    const conn = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect()
    await conn.run(`SELECT setseed(${(w + 1) / 10})`)
    for (let j = w; j < jobs.length; j += workers) await writeFile(conn, root, jobs[j])
  }))
  const hours = new Map<string, number>()
  for (const job of jobs) {
    const [corpus, , language] = job.path.split('/').map((s) => s.slice(s.indexOf('=') + 1))
    const key = `${corpus}\t${language}`
    hours.set(key, (hours.get(key) ?? 0) + job.lengths.reduce((t, n) => t + samplesFor(n), 0))
  }
  writeFileSync(join(staging, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\n' +
    [...hours].map(([k, s]) => `${k}\t${s / 16000 / 3600}`).join('\n') + '\n')
  writeFileSync(join(root, manifestName), formatManifest(buildManifest(await listFiles(root))))
  const bytes = (await listFiles(root)).reduce((t, f) => t + f.size, 0)
  const result = { files: jobs.length, bytes, seconds: (Date.now() - started) / 1000 }
  writeFileSync(join(staging, '.complete.json'), JSON.stringify(result) + '\n')
  rmSync(syntheticDir, { recursive: true, force: true })
  renameSync(staging, syntheticDir)
  return { root: join(syntheticDir, 'version=0'), files: result.files, bytes: result.bytes }
}

/** Builds the synthetic dataset unless its marker says it is complete; returns where it is and how big. */
export async function ensureSyntheticDataset(): Promise<SyntheticDataset> {
  if (existsSync(markerPath)) {
    const marker = JSON.parse(readFileSync(markerPath, 'utf8')) as { files: number; bytes: number }
    return { root: join(syntheticDir, 'version=0'), files: marker.files, bytes: marker.bytes }
  }
  return build()
}

if (import.meta.filename === process.argv[1]) {
  const started = Date.now()
  const dataset = await ensureSyntheticDataset()
  console.log(`make-synthetic: ${dataset.files} files, ${(dataset.bytes / 1e9).toFixed(2)} GB at ${dataset.root} ` +
    `(${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
