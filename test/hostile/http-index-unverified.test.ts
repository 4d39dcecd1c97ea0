/**
 * An index read over HTTP is the listing itself: a ghost entry (a file the server does not have) or a file rewritten
 * with the same size cannot be seen without reading the data, so the numbers it gives are labelled
 * (`index-unverified`), never passed off silently as the data's.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { describe, expect, test } from 'vitest'
import { startFaultServer } from '../fault-server.ts'
import { runCli } from '../helpers/run-cli.ts'
import { tempDir } from './helpers.ts'

const part = (n: number) => new Uint8Array(parquetWriteBuffer({
  columnData: [
    { name: 'text', type: 'STRING', data: Array.from({ length: n }, () => 'a') },
    { name: 'audio_size', type: 'INT64', data: Array.from({ length: n }, () => 16000n) },
  ],
}))

describe('an index over HTTP', () => {
  test('with a ghost corpus (entries for files the server does not have), stats say the numbers are unverified', async () => {
    const root = tempDir()
    const real = 'corpus=real/split=train/language=eng_Latn/part-0.parquet'
    const ghost = 'corpus=ghost/split=train/language=eng_Latn/part-0.parquet'
    for (const p of [real, ghost]) {
      mkdirSync(join(root, p, '..'), { recursive: true })
      writeFileSync(join(root, p), part(3))
    }
    expect((await runCli(['index', root])).code).toBe(0)
    rmSync(join(root, ghost)) // the server has no such file
    const server = await startFaultServer({ [real]: readFileSync(join(root, real)), '_mixscope_index.parquet': readFileSync(join(root, '_mixscope_index.parquet')) })
    try {
      const run = await runCli(['stats', server.url, '--json'])
      const out = JSON.parse(run.stdout)
      const label = out.findings.find((f: { kind: string }) => f.kind === 'index-unverified')
      expect(label, run.stdout).toBeDefined()
      expect(label.severity).toBe('warning')
      expect(label.message).toMatch(/2 file\(s\) are described by _mixscope_index\.parquet alone/)
    } finally {
      await server.close()
    }
  })
})
