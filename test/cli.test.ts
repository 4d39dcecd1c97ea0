/** Spawns the real `npx mixscope` bin (tsx, no build step) and checks outputs and exit codes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startStaticServer, type StaticServer } from './helpers/static-server.ts'
import { writeParquet } from './helpers/duckdb.ts'
import { spawnMixscope, type CliRun } from './helpers/spawn-cli.ts'

function mixscope(args: string[]): Promise<CliRun> {
  return spawnMixscope(args, { timeoutMs: 60_000 })
}

let dir: string
let root: string
let server: StaticServer

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-cli-'))
  root = join(dir, 'version=0')
  await writeParquet(root, `SELECT 't' || i AS text, [1, 2, 3]::TINYINT[] AS audio_bytes, (16000 * (i + 1))::BIGINT AS audio_size,
    ['a', 'b'][1 + i % 2] AS corpus, 'train' AS split, ['eng_Latn', 'fra_Latn'][1 + (i // 2) % 2] AS language FROM range(8) r(i)`,
  'PARTITION_BY (corpus, split, language)')
  await writeFile(join(dir, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\n')
  server = await startStaticServer({ root: dir })
})
afterAll(async () => {
  await server?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('npx mixscope', () => {
  it('prints help for every command', async () => {
    for (const command of ['stats', 'validate', 'manifest']) {
      const r = await mixscope([command, '--help'])
      expect(r.code, command).toBe(0)
      expect(r.stdout).toContain(`Usage: mixscope ${command}`)
    }
    expect((await mixscope(['--help'])).stdout).toContain('Commands:')
    // the package's bin mapping, as `npx mixscope` finds it
    const viaNpx = await new Promise<string>((resolve, reject) => {
      execFile('npx', ['--offline', 'mixscope', '--help'], { cwd: join(import.meta.dirname, '..'), timeout: 60_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout)))
    })
    expect(viaNpx).toContain('Commands:')
  })
  it('stats --json prints the documented shape with sorted partitions', async () => {
    const r = await mixscope(['stats', root, '--json'])
    const report = JSON.parse(r.stdout)
    expect(Object.keys(report)).toEqual(['schema_version', 'root', 'partitions', 'totals', 'summary', 'findings'])
    expect(report.schema_version).toBe(1)
    expect(report.partitions.map((p: Record<string, unknown>) => `${p.corpus}/${p.language}`)).toEqual(['a/eng_Latn', 'a/fra_Latn', 'b/eng_Latn', 'b/fra_Latn'])
    expect(Object.keys(report.partitions[0])).toEqual(['corpus', 'language', 'split', 'files', 'row_groups', 'rows', 'samples', 'hours'])
    expect(report.totals.samples).toBe(16000 * 36)
    expect(report.summary.path).toBe('../language_distribution_0.tsv')
    // every partition is missing from the (empty) TSV: warnings, not errors → exit 0
    expect(r.code).toBe(0)
    expect(report.findings.filter((f: { kind: string }) => f.kind === 'missing-from-tsv')).toHaveLength(4)
  })
  it('is byte-for-byte deterministic', async () => {
    const [a, b] = await Promise.all([mixscope(['stats', root, '--json']), mixscope(['stats', root, '--json'])])
    expect(a.stdout).toBe(b.stdout)
  })
  it('writes --tsv', async () => {
    const out = join(dir, 'out.tsv')
    await mixscope(['stats', root, '--tsv', out])
    const lines = (await readFile(out, 'utf8')).trim().split('\n')
    expect(lines).toEqual(['corpus\tlanguage\thours', `a\teng_Latn\t${(16000 * 6) / 16000 / 3600}`, `a\tfra_Latn\t${(16000 * 10) / 16000 / 3600}`,
      `b\teng_Latn\t${(16000 * 8) / 16000 / 3600}`, `b\tfra_Latn\t${(16000 * 12) / 16000 / 3600}`])
  })
  it('reads the same dataset over HTTP after `manifest`', async () => {
    expect((await mixscope(['manifest', root])).code).toBe(0)
    const manifest = JSON.parse(await readFile(join(root, '_manifest.json'), 'utf8'))
    expect(manifest.format).toBe('mixscope-manifest')
    expect(manifest.files).toHaveLength(4)
    const local = JSON.parse((await mixscope(['stats', root, '--json'])).stdout)
    const remote = JSON.parse((await mixscope(['stats', `${server.url}/version=0/`, '--json'])).stdout)
    expect(remote.partitions).toEqual(local.partitions)
    expect(remote.summary.path).toBe('../language_distribution_0.tsv')
  })
  it('uses the exit codes of docs/conventions.md', async () => {
    expect((await mixscope(['stats', join(dir, 'nope')])).code).toBe(2)
    expect((await mixscope(['stats', root, '--bogus'])).code).toBe(2)
    expect((await mixscope(['frobnicate'])).code).toBe(2)
    expect((await mixscope(['validate', root])).code).toBe(0)
    await writeFile(join(root, 'stray.txt'), 'x')
    const bad = await mixscope(['validate', root, '--json'])
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.stdout).findings.map((f: { kind: string }) => f.kind)).toContain('stray-file')
    await rm(join(root, 'stray.txt'))
  })
})

describe('npx mixscope on example references', () => {
  const demo = join(import.meta.dirname, '../public/demo/version=0')
  it('decodes and featurizes <dataset>#<file>:<row>, and fails clearly on the undecodable demo row', async () => {
    const ok = await mixscope(['decode', `${demo}#corpus=fleurs/split=train/language=swh_Latn/part-0.parquet:2`, '--json'])
    expect(ok.code).toBe(0)
    const decoded = JSON.parse(ok.stdout)
    expect(decoded).toMatchObject({ schema_version: 1, root: demo, sample_rate: 16000, channels: 1, decoder: 'wasm:flac' })
    const fb = await mixscope(['fbank', `${demo}#corpus=fleurs/split=train/language=swh_Latn/part-0.parquet:2`, '--json'])
    expect(JSON.parse(fb.stdout)).toMatchObject({ frames: 1 + Math.floor((decoded.samples - 400) / 160), bins: 80, root: demo })
    const bad = await mixscope(['decode', `${demo}#corpus=fleurs/split=train/language=swh_Latn/part-0.parquet:3`])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('part-0.parquet:3 (flac)')
    expect((await mixscope(['decode', `${demo}#corpus=fleurs/split=train/language=swh_Latn/part-0.parquet:999`])).code).toBe(2)
  })
})
