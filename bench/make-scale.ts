/**
 * Scale benchmark datasets: `<MIXSCOPE_BENCH_DATA or bench/.cache>/scale-<files>/version=0` with 2,000, 20,000 or 100,000 parquet
 * files of tiny payloads, 1,600 languages, 4 corpora and 3 splits (about 5 files per partition folder), one row group
 * per file except every 20th file, which holds 3 row groups of 2 rows. `_manifest.json` inside the root and
 * `language_distribution_0.tsv` beside it (exact hours of the data), as the dataprep lays them out.
 *
 * Written by DuckDB (the reference reader of the benchmarks writes the data too): single-row-group files by one
 * `COPY … PARTITION_BY` (a `part=K` key, then moved to `part-K.parquet` in the language folder), multi-row-group files
 * one `COPY` each (one `UNION ALL` branch per row group on one thread makes DuckDB's row groups exact). Rows come
 * from a fixed seed. Built once: a marker records the result and later calls return it (100,000 files take a few
 * minutes on two cores). Run: `npx tsx bench/make-scale.ts 2000 20000 100000`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { buildManifest, createFsSource, formatManifest, manifestName, mulberry32 } from '../src/engine/node.ts'

/** The dataset sizes `npm run bench -- scale` measures. */
export const scaleSizes = [2_000, 20_000, 100_000] as const

export const languageCount = 1_600
const corpora = ['mls', 'commonvoice', 'fleurs', 'bible']
/** (corpus, split) in the order a language's files fill them: train first, as real datasets are train-heavy. */
const combos: [string, string][] = [
  ['mls', 'train'], ['commonvoice', 'train'], ['fleurs', 'train'], ['mls', 'dev'], ['commonvoice', 'dev'], ['bible', 'train'],
  ['fleurs', 'dev'], ['mls', 'test'], ['commonvoice', 'test'], ['bible', 'dev'], ['fleurs', 'test'], ['bible', 'test'],
]
const filesPerPartition = 5
/** Files written by one partitioned COPY. */
const copyBatch = 2_000
const scripts = ['Latn', 'Cyrl', 'Arab', 'Deva', 'Ethi', 'Hans', 'Beng', 'Thai']

/** What `ensureScaleDataset` returns. */
export interface ScaleDataset {
  /** Absolute path of the root (`…/scale-<files>/version=0`). */
  root: string
  files: number
  /** Row groups in all. */
  rowGroups: number
  /** Bytes of the parquet files. */
  bytes: number
  /** Distinct partition folders. */
  partitions: number
}

/** `aaa_Latn`, `aab_Cyrl`, …: 1,600 distinct language-like codes over a few scripts. */
export function scaleLanguage(i: number): string {
  const a = 'abcdefghijklmnopqrstuvwxyz'
  return `${a[Math.floor(i / 676) % 26]}${a[Math.floor(i / 26) % 26]}${a[i % 26]}_${scripts[i % scripts.length]}`
}

/** One planned file: its folder keys, its name and its rows (`rowGroups` of `rows.length / rowGroups` rows). */
interface PlannedFile {
  corpus: string
  split: string
  language: string
  part: number
  rowGroups: number
  rows: { audioSize: number; payload: number; seed: number }[]
}

/** The deterministic plan of a dataset of `count` files. */
function planScale(count: number): PlannedFile[] {
  const rng = mulberry32(count)
  const out: PlannedFile[] = []
  for (let i = 0; i < count; i++) {
    const l = i % languageCount
    const k = Math.floor(i / languageCount)
    const [corpus, split] = combos[(Math.floor(k / filesPerPartition) + (l % 3)) % combos.length]
    const multi = i % 20 === 7
    const rowGroups = multi ? 3 : 1
    const rowCount = multi ? 6 : 1 + Math.floor(rng() * 3)
    const rows = Array.from({ length: rowCount }, () => ({
      audioSize: 16_000 + Math.floor(rng() * 304_000), payload: 16 + Math.floor(rng() * 48), seed: Math.floor(rng() * 1e6),
    }))
    out.push({ corpus, split, language: scaleLanguage(l), part: k, rowGroups, rows })
  }
  return out
}

/**
 * Where the datasets live: `MIXSCOPE_BENCH_DATA` (a folder outside the repository, e.g. `/work/bench-data`; 100,000
 * files are half a gigabyte), else `bench/.cache`.
 */
export function scaleDir(count: number): string {
  return join(process.env.MIXSCOPE_BENCH_DATA ?? join(import.meta.dirname, '.cache'), `scale-${count}`)
}

const rowSql = (r: PlannedFile['rows'][number], i: number) => `(${i}, ${r.audioSize}, ${r.payload}, ${r.seed})`
/** The row expression of the generated columns, over `v(i, audio_size, payload, seed)`. */
const columnsSql = `'scale sentence ' || seed AS text, ` +
  `list_transform(range(payload), x -> (((seed + x * 31) % 256) - 128)::TINYINT) AS audio_bytes, audio_size::BIGINT AS audio_size`

async function build(count: number): Promise<ScaleDataset> {
  const started = Date.now()
  const dir = scaleDir(count)
  const staging = `${dir}.partial`
  rmSync(staging, { recursive: true, force: true })
  const root = join(staging, 'version=0')
  const flat = join(staging, 'flat')
  mkdirSync(root, { recursive: true })
  const plan = planScale(count)
  const db = await DuckDBInstance.create(':memory:', { threads: '1' })
  const conn = await db.connect()

  // single-row-group files: one partitioned COPY over a CSV of their rows
  const csv = join(staging, 'rows.csv')
  const lines = ['batch,corpus,split,language,part,i,audio_size,payload,seed']
  plan.forEach((f, n) => {
    if (f.rowGroups !== 1) return
    f.rows.forEach((r, i) => lines.push(`${Math.floor(n / copyBatch)},${f.corpus},${f.split},${f.language},${f.part},${i},${r.audioSize},${r.payload},${r.seed}`))
  })
  writeFileSync(csv, lines.join('\n') + '\n')
  await conn.run(`CREATE TABLE rows AS SELECT * FROM read_csv('${csv}', header = true, columns = {'batch': 'INTEGER', ` +
    `'corpus': 'VARCHAR', 'split': 'VARCHAR', 'language': 'VARCHAR', 'part': 'INTEGER', 'i': 'INTEGER', ` +
    `'audio_size': 'BIGINT', 'payload': 'INTEGER', 'seed': 'BIGINT'})`)
  // a few thousand partitions per COPY: DuckDB keeps a buffer per open partition
  for (let b = 0; b * copyBatch < plan.length; b++) {
    await conn.run(`COPY (SELECT corpus, split, language, part, ${columnsSql} FROM rows WHERE batch = ${b} ` +
      `ORDER BY corpus, split, language, part, i) ` +
      `TO '${flat}' (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (corpus, split, language, part), OVERWRITE_OR_IGNORE)`)
  }
  for (const f of plan) {
    const folder = join(root, `corpus=${f.corpus}`, `split=${f.split}`, `language=${f.language}`)
    mkdirSync(folder, { recursive: true })
    const target = join(folder, `part-${f.part}.parquet`)
    if (f.rowGroups === 1) {
      const from = join(flat, `corpus=${f.corpus}`, `split=${f.split}`, `language=${f.language}`, `part=${f.part}`)
      const [name, ...more] = readdirSync(from)
      if (more.length > 0) throw new Error(`make-scale: DuckDB wrote ${more.length + 1} files into ${from}`)
      renameSync(join(from, name), target)
      rmdirSync(from)
    } else {
      const per = f.rows.length / f.rowGroups
      const branches = Array.from({ length: f.rowGroups }, (_, g) =>
        `(SELECT ${columnsSql} FROM (VALUES ${f.rows.slice(g * per, (g + 1) * per).map((r, i) => rowSql(r, g * per + i)).join(', ')}) ` +
        `v(i, audio_size, payload, seed) ORDER BY i)`)
      await conn.run(`COPY (${branches.join(' UNION ALL ')}) TO '${target}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${per})`)
    }
  }
  rmSync(flat, { recursive: true, force: true })
  rmSync(csv)

  const samples = new Map<string, number>()
  for (const f of plan) {
    const key = `${f.corpus}\t${f.language}`
    samples.set(key, (samples.get(key) ?? 0) + f.rows.reduce((t, r) => t + r.audioSize, 0))
  }
  writeFileSync(join(staging, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\n' +
    [...samples].map(([k, s]) => `${k}\t${s / 16000 / 3600}`).join('\n') + '\n')
  const listed = await (await createFsSource(root)).list()
  writeFileSync(join(root, manifestName), formatManifest(buildManifest(listed)))
  const result = {
    files: plan.length,
    rowGroups: plan.reduce((n, f) => n + f.rowGroups, 0),
    bytes: listed.filter((f) => f.path.endsWith('.parquet')).reduce((t, f) => t + f.size, 0),
    partitions: new Set(plan.map((f) => `${f.corpus}/${f.split}/${f.language}`)).size,
    corpora: corpora.length,
    seconds: (Date.now() - started) / 1000,
  }
  writeFileSync(join(staging, '.complete.json'), JSON.stringify(result) + '\n')
  rmSync(dir, { recursive: true, force: true })
  renameSync(staging, dir)
  return { root: join(dir, 'version=0'), ...result }
}

/** Builds the dataset of `count` files unless its marker says it is complete; returns where it is and its size. */
export async function ensureScaleDataset(count: number): Promise<ScaleDataset> {
  const marker = join(scaleDir(count), '.complete.json')
  if (existsSync(marker)) {
    const m = JSON.parse(readFileSync(marker, 'utf8')) as Omit<ScaleDataset, 'root'>
    return { root: join(scaleDir(count), 'version=0'), files: m.files, rowGroups: m.rowGroups, bytes: m.bytes, partitions: m.partitions }
  }
  process.stderr.write(`make-scale: writing ${count} files into ${scaleDir(count)} (once)…\n`)
  return build(count)
}

if (import.meta.filename === process.argv[1]) {
  for (const arg of process.argv.slice(2).length > 0 ? process.argv.slice(2) : scaleSizes.map(String)) {
    const started = Date.now()
    const d = await ensureScaleDataset(Number(arg))
    console.log(`make-scale: ${d.files} files, ${d.rowGroups} row groups, ${d.partitions} partitions, ` +
      `${(d.bytes / 1e6).toFixed(1)} MB at ${d.root} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
  }
}
