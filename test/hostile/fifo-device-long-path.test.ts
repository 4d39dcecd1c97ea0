/**
 * FIFOs, devices and long paths where mixscope reads whole files: a FIFO or a link to `/dev/zero` named
 * `_mixscope_index.parquet` or `language_distribution_0.tsv` is refused at once (never waited on, never read to
 * gigabytes), and a file whose absolute path passes PATH_MAX is a finding, not a silent gap.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { describe, expect, test } from 'vitest'
import { runIsolated, tempDir } from './helpers.ts'

const part = new Uint8Array(parquetWriteBuffer({
  columnData: [
    { name: 'text', type: 'STRING', data: ['a', 'b'] },
    { name: 'audio_size', type: 'INT64', data: [16000n, 32000n] },
  ],
}))

/** `<tmp>/version=0/corpus=c/split=train/language=eng_Latn/part-0.parquet`; returns the `version=0` folder. */
function dataset(): string {
  const root = join(tempDir(), 'version=0')
  mkdirSync(join(root, 'corpus=c/split=train/language=eng_Latn'), { recursive: true })
  writeFileSync(join(root, 'corpus=c/split=train/language=eng_Latn/part-0.parquet'), part)
  return root
}

type Finding = { path: string; kind: string; severity: string; message: string }

describe('FIFOs and devices', () => {
  test('a FIFO named _mixscope_index.parquet is a bad-index warning at once, and stats come from the data', async () => {
    const root = dataset()
    execFileSync('mkfifo', [join(root, '_mixscope_index.parquet')])
    const run = await runIsolated(['stats', root, '--json'], 20_000)
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(0)
    const out = JSON.parse(run.stdout)
    const bad = out.findings.find((f: Finding) => f.kind === 'bad-index')
    expect(bad?.message).toMatch(/_mixscope_index\.parquet is a FIFO, not a regular file/)
    expect(out.totals.rows).toBe(2)
  })

  test('a link to /dev/zero named _mixscope_index.parquet is refused without reading it', async () => {
    const root = dataset()
    symlinkSync('/dev/zero', join(root, '_mixscope_index.parquet'))
    const run = await runIsolated(['stats', root, '--json'], 20_000)
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(0)
    const bad = JSON.parse(run.stdout).findings.find((f: Finding) => f.kind === 'bad-index')
    expect(bad?.message).toMatch(/is a character device, not a regular file/)
    expect(run.peakMb).toBeLessThan(450)
  })

  test('a FIFO named language_distribution_0.tsv beside version=0 is an I/O error naming it, at once', async () => {
    const root = dataset()
    execFileSync('mkfifo', [join(root, '../language_distribution_0.tsv')])
    const run = await runIsolated(['stats', root, '--json'], 20_000)
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/language_distribution_0\.tsv is a FIFO, not a regular file/)
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })

  test('a FIFO among the data files is an error finding naming it', async () => {
    const root = dataset()
    execFileSync('mkfifo', [join(root, 'corpus=c/split=train/language=eng_Latn/part-1.parquet')])
    const run = await runIsolated(['validate', root, '--json'], 20_000)
    expect(run.timedOut).toBe(false)
    const f = JSON.parse(run.stdout).findings.find((x: Finding) => x.kind === 'unlistable-entry')
    expect(f).toMatchObject({ path: 'corpus=c/split=train/language=eng_Latn/part-1.parquet', severity: 'error' })
    expect(f.message).toMatch(/is a FIFO/)
  })
})

describe('long paths', () => {
  test('a parquet file whose absolute path passes PATH_MAX (4096 bytes) is an error finding, its folder not called empty', async () => {
    const root = dataset()
    // folders of 200 bytes each, made relative to an open folder (python's dir_fd), as no absolute path can reach them
    const script = `
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
for i in range(22):
    name = 'd%d' % i + 'x' * 197
    os.mkdir(name, dir_fd=fd)
    fd2 = os.open(name, os.O_RDONLY, dir_fd=fd); os.close(fd); fd = fd2
out = os.open('part-9.parquet', os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
os.write(out, open(sys.argv[2], 'rb').read())
`
    execFileSync('python3', ['-c', script, join(root, 'corpus=c/split=train/language=eng_Latn'), join(root, 'corpus=c/split=train/language=eng_Latn/part-0.parquet')])
    const run = await runIsolated(['validate', root, '--json'], 30_000)
    expect(run.timedOut).toBe(false)
    const findings = JSON.parse(run.stdout).findings as Finding[]
    const long = findings.find((f) => f.kind === 'unlistable-entry')
    expect(long, JSON.stringify(findings)).toBeDefined()
    expect(long!.severity).toBe('error')
    expect(long!.message).toMatch(/longer than the system allows/)
    expect(findings.filter((f) => f.kind === 'empty-folder')).toEqual([])
  })
})
