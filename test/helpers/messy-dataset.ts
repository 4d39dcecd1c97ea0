/**
 * A messy copy of the demo dataset (public/demo/version=0, 51 parquet files): two parquet files made unreadable (one
 * cut in half, one with its footer magic zeroed), a stray text file beside the parquet files, and one row whose
 * `audio_size` is −5 (its file rewritten by DuckDB, same rows, order and row groups). What was broken is returned, as
 * the truth tests compare the engine's counts with: nothing here asks the engine.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { query, writeParquet } from './duckdb.ts'

const demoRoot = resolve(import.meta.dirname, '..', '..', 'public/demo/version=0')

export interface MessyDataset {
  /** The temporary folder holding `version=0`. */
  dir: string
  /** The dataset root (`<dir>/version=0`). */
  root: string
  /** Parquet files under the root (the demo's, broken ones included). */
  parquetFiles: number
  /** Parquet files whose footer cannot be read. */
  unreadable: string[]
  /** Files under the root that are not parquet. */
  stray: string[]
  /** The rows with `audio_size` −5, as `{ path, row }`. */
  badAudioSize: { path: string; row: number }[]
  /** With `tsv`: the stats TSV written in the root (`language_distribution_0.tsv`, the demo's hours over every split, written before anything broke), else `null`. */
  tsv: string | null
  /** Removes the folder. */
  remove(): void
}

/** Parquet files under `dir`, relative, `/`-separated. */
function parquetUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((p) => p.split('\\').join('/'))
    .filter((p) => p.endsWith('.parquet') && !p.split('/').some((s) => s.startsWith('.') || s.startsWith('_')))
}

/**
 * Writes the messy copy; with `tsv`, also a stats TSV of the demo as it was (DuckDB's sums of audio_size over every
 * split per corpus and language, as the reference dataprep writes it), so the unreadable files' hours are known.
 */
export async function writeMessyDataset(options: { tsv?: boolean } = {}): Promise<MessyDataset> {
  const dir = mkdtempSync(join(tmpdir(), 'mixscope-messy-'))
  const root = join(dir, 'version=0')
  cpSync(demoRoot, root, { recursive: true })
  // the demo's manifest lists the files as they were; a folder open does not read it, but no stale listing either
  rmSync(join(root, '_manifest.json'), { force: true })
  let tsv: string | null = null
  if (options.tsv) {
    const glob = join(root, '**', '*.parquet').replaceAll("'", "''")
    const rows = await query(`SELECT corpus, language, sum(audio_size) / 16000 / 3600 AS hours
      FROM read_parquet('${glob}', hive_partitioning = true) GROUP BY corpus, language ORDER BY corpus, language`)
    tsv = 'language_distribution_0.tsv'
    writeFileSync(join(root, tsv), ['corpus\tlanguage\thours', ...rows.map((r) => `${r.corpus}\t${r.language}\t${r.hours}`)].join('\n') + '\n')
  }

  const cut = 'corpus=mls/split=dev/language=deu_Latn/part-0.parquet'
  truncateSync(join(root, cut), Math.floor(readFileSync(join(root, cut)).length / 2))
  const zeroed = 'corpus=fleurs/split=test/language=rus_Cyrl/part-0.parquet'
  const bytes = readFileSync(join(root, zeroed))
  bytes.fill(0, bytes.length - 4)
  writeFileSync(join(root, zeroed), bytes)

  const stray = 'corpus=mls/split=train/language=eng_Latn/notes.txt'
  writeFileSync(join(root, stray), 'not parquet: left here by hand\n')

  // row 2 of this file gets audio_size -5; the demo's mls files have row groups of 10
  const rewritten = 'corpus=mls/split=train/language=deu_Latn/part-0.parquet'
  const source = join(root, rewritten)
  const moved = `${source}.orig`
  renameSync(source, moved)
  await writeParquet(source,
    `SELECT text, audio_bytes, CASE WHEN file_row_number = 2 THEN -5::BIGINT ELSE audio_size END AS audio_size
     FROM read_parquet('${moved.replaceAll("'", "''")}', file_row_number = true) ORDER BY file_row_number`,
    'ROW_GROUP_SIZE 10, COMPRESSION zstd')
  rmSync(moved)

  return {
    dir, root,
    parquetFiles: parquetUnder(root).length,
    unreadable: [cut, zeroed].sort(),
    stray: [relative(root, join(root, stray)).split('\\').join('/')],
    badAudioSize: [{ path: rewritten, row: 2 }],
    tsv,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
