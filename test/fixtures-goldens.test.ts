/**
 * Keeps the committed fixtures honest: every golden is re-derived with DuckDB from the committed files, and the
 * demo dataset (public/demo) is checked against the dataprep's schema, its TSV, its manifest and defects.json.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import type { DuckDBConnection } from '@duckdb/node-api'
import { tableFromIPC } from 'apache-arrow'
import { beforeAll, describe, expect, it } from 'vitest'
import { compareUtf8Bytes, duckdbGolden, listDatasetFiles } from '../scripts/demo-duckdb-stats.ts'
import { fixtureRoots } from '../scripts/make-fixtures.ts'

const repo = join(import.meta.dirname, '..')
const fixtures = join(repo, 'test', 'fixtures', 'parquet')
const demo = join(repo, 'public', 'demo')
const demoRoot = join(demo, 'version=0')

let conn: DuckDBConnection
beforeAll(async () => {
  conn = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect()
})

const q = (s: string): string => `'${s.replaceAll("'", "''")}'`
async function rows(sql: string): Promise<unknown[][]> {
  return (await conn.runAndReadAll(sql)).getRows()
}
function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T
}
function parseTsv(path: string): Map<string, number> {
  const [header, ...lines] = readFileSync(path, 'utf8').trim().split('\n')
  expect(header).toBe('corpus\tlanguage\thours')
  return new Map(lines.map((l) => l.split('\t')).map(([c, l, h]) => [`${c}/${l}`, Number(h)]))
}

describe('parquet fixture goldens', () => {
  it.each(fixtureRoots)('%s golden matches DuckDB over %s', async (name, root) => {
    const golden = readJson(join(fixtures, `${name}.golden.json`))
    expect(await duckdbGolden(conn, join(fixtures, root), root)).toEqual(golden)
  })

  it('dataprep TSV hours equal Σ audio_size per (corpus, language) over all splits', async () => {
    const tsv = parseTsv(join(fixtures, 'dataprep', 'language_distribution_0.tsv'))
    const data = await rows(`SELECT corpus || '/' || language, sum(audio_size) / 16000 / 3600 FROM read_parquet(` +
      `${q(join(fixtures, 'dataprep/version=0/**/*.parquet'))}, hive_partitioning = true, hive_types_autocast = false) GROUP BY ALL`)
    expect(new Map(data.map(([k, h]) => [String(k), Number(h)]))).toEqual(tsv)
  })

  it('key-order covers every codec DuckDB writes, binary audio and dictionary-encoded text', async () => {
    const meta = await rows(`SELECT DISTINCT compression, path_in_schema, type, encodings FROM parquet_metadata(${q(join(fixtures, 'key-order/**/*.parquet'))})`)
    const codecs = new Set(meta.map((m) => String(m[0])))
    expect([...codecs].sort()).toEqual(['BROTLI', 'GZIP', 'LZ4_RAW', 'SNAPPY', 'UNCOMPRESSED', 'ZSTD'])
    expect(meta.some((m) => m[1] === 'audio_bytes' && m[2] === 'BYTE_ARRAY')).toBe(true)
    expect(meta.some((m) => m[1] === 'text' && String(m[3]).includes('DICTIONARY'))).toBe(true)
  })

  it('large-list carries an ARROW:schema typing audio_bytes as LargeList<Int8>', async () => {
    const kv = await rows(`SELECT key::VARCHAR, value::VARCHAR FROM parquet_kv_metadata(${q(join(fixtures, 'large-list/**/*.parquet'))})`)
    const entry = kv.find((r) => r[0] === 'ARROW:schema')
    expect(entry).toBeDefined()
    const message = Buffer.from(String(entry![1]), 'base64')
    const eos = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])
    const schema = tableFromIPC(Buffer.concat([message, eos])).schema
    expect(schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['text:Utf8', 'audio_bytes:LargeList<Int8>', 'audio_size:Int64'])
  })

  it('broken.expected.json names existing paths; the corrupt files are unreadable to DuckDB', async () => {
    const expected = readJson<{ path: string; row: number | null; problem: string }[]>(join(fixtures, 'broken.expected.json'))
    for (const e of expected) expect(existsSync(join(fixtures, 'broken/version=0', e.path)), e.path).toBe(true)
    for (const file of ['part-1.parquet', 'part-2.parquet']) {
      const path = join(fixtures, 'broken/version=0/corpus=c/split=train/language=ok_Latn', file)
      await expect(rows(`SELECT * FROM parquet_file_metadata(${q(path)})`)).rejects.toThrow()
    }
  })
})

describe('demo dataset (public/demo)', () => {
  const files = listDatasetFiles(demoRoot)
  const parquet = files.filter((f) => f.endsWith('.parquet'))

  it('is laid out as the dataprep writes it', () => {
    expect(parquet.length).toBeGreaterThan(40)
    for (const f of parquet) expect(f).toMatch(/^corpus=[^/]+\/split=(train|dev|test)\/language=[a-z]{3}_[A-Z][a-z]{3}\/part-\d+\.parquet$/)
    expect(files.filter((f) => !f.endsWith('.parquet'))).toEqual([])
  })

  it('every file has text string, audio_bytes list<int8>, audio_size int64 and 10–20-row groups', async () => {
    let multiGroup = 0
    for (const f of parquet) {
      const path = q(join(demoRoot, f))
      const schema = await rows(`DESCRIBE SELECT * FROM read_parquet(${path}, hive_partitioning = false)`)
      expect(schema.map((r) => `${r[0]}:${r[1]}`), f).toEqual(['text:VARCHAR', 'audio_bytes:TINYINT[]', 'audio_size:BIGINT'])
      const groups = (await rows(`SELECT row_group_id, any_value(row_group_num_rows) FROM parquet_metadata(${path}) GROUP BY ALL ORDER BY 1`)).map((r) => Number(r[1]))
      groups.forEach((n, i) => {
        expect(n, `${f} group ${i}`).toBeLessThanOrEqual(20)
        if (i < groups.length - 1) expect(n, `${f} group ${i}`).toBeGreaterThanOrEqual(10)
      })
      if (groups.length > 1) multiGroup++
    }
    expect(multiGroup).toBeGreaterThan(0)
  })

  it('language_distribution_0.tsv hours equal the data (all splits)', async () => {
    const tsv = parseTsv(join(demo, 'language_distribution_0.tsv'))
    const data = await rows(`SELECT corpus || '/' || language, sum(audio_size) / 16000 / 3600 FROM read_parquet(` +
      `${q(join(demoRoot, '**/*.parquet'))}, hive_partitioning = true, hive_types_autocast = false) GROUP BY ALL`)
    expect(data.length).toBe(tsv.size)
    for (const [key, hours] of data) expect(tsv.get(String(key)), String(key)).toBeCloseTo(Number(hours), 15)
  })

  it('_manifest.json lists exactly the files under version=0 with their sizes', () => {
    const manifest = readJson<{ format: string; version: number; files: { path: string; size: number }[] }>(join(demoRoot, '_manifest.json'))
    expect(manifest.format).toBe('mixscope-manifest')
    expect(manifest.version).toBe(1)
    const onDisk = [...files].sort(compareUtf8Bytes).map((path) => ({ path, size: statSync(join(demoRoot, path)).size }))
    expect(manifest.files).toEqual(onDisk)
  })

  it('defects.json ids point at rows that have the defect', async () => {
    const defects = readJson<{ id: string; kind: string; note: string }[]>(join(demo, 'defects.json'))
    expect(defects.map((d) => d.kind).sort()).toEqual(['empty-text', 'fast-speech', 'undecodable-audio'])
    for (const d of defects) {
      const [file, row] = [d.id.slice(0, d.id.lastIndexOf(':')), Number(d.id.slice(d.id.lastIndexOf(':') + 1))]
      expect(parquet).toContain(file)
      const [[text, bytes, size]] = await rows(`SELECT text, len(audio_bytes), audio_size FROM read_parquet(` +
        `${q(join(demoRoot, file))}, hive_partitioning = false, file_row_number = true) WHERE file_row_number = ${row}`)
      if (d.kind === 'empty-text') expect(text).toBe('')
      if (d.kind === 'fast-speech') expect(Number(size) / String(text).length).toBeLessThan(160)
      if (d.kind === 'undecodable-audio') expect(Number(bytes)).toBeLessThan(200)
    }
  })
})
