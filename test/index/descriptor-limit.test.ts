/**
 * 20,000 files under a 1,024 soft descriptor limit (`ulimit -n 1024`, as many machines have): `stats`, `validate` and
 * `index` (then `stats` from the index) run to the end in a spawned shell. Before descriptors were closed
 * synchronously, `stats` died with `EMFILE: too many open files` at the TSV lookup (every file was still open).
 * The numbers are checked against DuckDB over the same files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { query, writeParquet } from '../helpers/duckdb.ts'

const repo = join(import.meta.dirname, '../..')
const files = 20_000
let dir: string
let root: string

/** Runs `mixscope <args>` in bash under `ulimit -n 1024`. */
function limited(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = `ulimit -n 1024 && exec node bin/mixscope.js ${args.map((a) => `'${a}'`).join(' ')}`
  return new Promise((resolve) => {
    execFile('bash', ['-c', command], { cwd: repo, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr })
    })
  })
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-fds-'))
  root = join(dir, 'version=0')
  const one = join(dir, 'one.parquet')
  await writeParquet(one, `SELECT 't' || i AS text, [1, 2, 3]::TINYINT[] AS audio_bytes, (16000 + i)::BIGINT AS audio_size FROM range(2) r(i)`)
  // the same small file 20,000 times, over 1,600 language folders
  const folders = new Set<string>()
  for (let i = 0; i < files; i++) folders.add(`corpus=c${i % 3}/split=train/language=l${i % 1600}_Latn`)
  for (const f of folders) await mkdir(join(root, f), { recursive: true })
  for (let i = 0; i < files; i += 500) {
    await Promise.all(Array.from({ length: Math.min(500, files - i) }, (_, k) =>
      copyFile(one, join(root, `corpus=c${(i + k) % 3}/split=train/language=l${(i + k) % 1600}_Latn/part-${i + k}.parquet`))))
  }
  await rm(one)
  await writeFile(join(dir, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\n')
}, 240_000)
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('20,000 files under ulimit -n 1024', () => {
  it('stats, validate and index run to the end, and stats from the index agree with DuckDB', async () => {
    const expected = await query(`SELECT count(DISTINCT filename) AS files, count(*) AS rows, sum(audio_size) AS samples
      FROM read_parquet('${root}/**/*.parquet', filename = true)`)
    expect(expected[0].files).toBe(files)

    const stats = await limited(['stats', root, '--json'])
    expect(stats.stderr).not.toMatch(/EMFILE/)
    expect(stats.code, stats.stderr.slice(0, 2000)).toBe(0)
    const report = JSON.parse(stats.stdout)
    expect(report.totals).toMatchObject({ files, rows: expected[0].rows, samples: expected[0].samples })

    const validate = await limited(['validate', root, '--json'])
    expect(validate.code, validate.stderr.slice(0, 2000)).toBe(0)
    expect(JSON.parse(validate.stdout)).toMatchObject({ files_checked: files, rows_checked: expected[0].rows })

    const index = await limited(['index', root])
    expect(index.code, index.stderr.slice(0, 2000)).toBe(0)
    const fromIndex = await limited(['stats', root, '--json'])
    expect(fromIndex.code).toBe(0)
    expect(fromIndex.stdout).toBe(stats.stdout)
  }, 600_000)
})
