/**
 * Servers that lead on: an endless `_manifest.json`, a 206 whose body never stops, a `--summary` URL that never
 * answers, and a recipe whose `dataset_summary_path` names `/etc/passwd`. Each ends in a clear error (or a note)
 * within bounded time and memory.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { afterAll, describe, expect, test } from 'vitest'
import { runIsolated, tempDir } from './helpers.ts'

const part = new Uint8Array(parquetWriteBuffer({
  columnData: [
    { name: 'text', type: 'STRING', data: ['a', 'b'] },
    { name: 'audio_size', type: 'INT64', data: [16000n, 32000n] },
  ],
}))
const partPath = 'corpus=c/split=train/language=eng_Latn/part-0.parquet'
const manifest = JSON.stringify({ format: 'mixscope-manifest', version: 1, files: [{ path: partPath, size: part.length }] })

/** Writes 1 MiB chunks until the client goes away. */
function endless(res: ServerResponse): void {
  const chunk = Buffer.alloc(1 << 20, 0x20)
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump)
  }
  pump()
}

const server = createServer((req, res) => {
  const path = decodeURIComponent((req.url ?? '/').split('?')[0])
  if (path.startsWith('/endless-manifest/')) {
    if (path.endsWith('/_manifest.json')) { res.writeHead(200, { 'content-type': 'application/json' }); return endless(res) }
    res.writeHead(404).end()
    return
  }
  if (path.startsWith('/endless-range/')) {
    if (path.endsWith('/_manifest.json')) { res.writeHead(200, { 'content-type': 'application/json' }).end(manifest); return }
    if (path.endsWith('.parquet') && !path.endsWith('/_mixscope_index.parquet')) {
      const m = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '')
      res.writeHead(206, { 'content-range': `bytes ${m?.[1] ?? 0}-${m?.[2] ?? part.length - 1}/${part.length}` })
      return endless(res)
    }
    res.writeHead(404).end()
    return
  }
  if (path === '/silent.tsv') return // never answers
  res.writeHead(404).end()
})
const base = await new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))
afterAll(() => { server.closeAllConnections(); server.close() })

describe('HTTP bodies are bounded', () => {
  test('an endless _manifest.json is cut off at the document cap with an error naming it, not buffered to the timeout', async () => {
    const run = await runIsolated(['stats', `${base}/endless-manifest/`, '--json'], 25_000)
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/_manifest\.json sent at least \d+ bytes, more than the 268435456 bytes expected/)
    expect(run.peakMb).toBeLessThan(900)
  })

  test('a 206 whose body never ends is an error after the bytes asked for, at once', async () => {
    const run = await runIsolated(['stats', `${base}/endless-range/`, '--json'], 25_000)
    expect(run.timedOut).toBe(false)
    expect(run.stdout + run.stderr).toMatch(/part-0\.parquet sent at least \d+ bytes, more than the \d+ bytes expected/)
    expect(run.ms).toBeLessThan(15_000)
    expect(run.peakMb).toBeLessThan(450)
  })
})

describe('summaries', () => {
  test('a --summary URL that never answers is an I/O error after the request timeout (MIXSCOPE_HTTP_TIMEOUT)', async () => {
    const root = tempDir()
    mkdirSync(join(root, 'corpus=c/split=train/language=eng_Latn'), { recursive: true })
    writeFileSync(join(root, partPath), part)
    const run = await runIsolated(['stats', root, '--summary', `${base}/silent.tsv`, '--json'], 30_000, { env: { MIXSCOPE_HTTP_TIMEOUT: '1.5' } })
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/silent\.tsv timed out after 1500 ms/)
    expect(run.ms).toBeGreaterThan(1500)
  })

  test('a MIXSCOPE_HTTP_TIMEOUT that is not a number of seconds is a usage error naming it', async () => {
    for (const bad of ['soon', '0', '-3']) {
      const run = await runIsolated(['stats', `${base}/silent/`, '--json'], 20_000, { env: { MIXSCOPE_HTTP_TIMEOUT: bad } })
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(`MIXSCOPE_HTTP_TIMEOUT must be a number of seconds between 0 and 86400, got "${bad}"`)
    }
  })

  test('a recipe whose dataset_summary_path is /etc/passwd is not read: a note says so, and nothing of it is echoed', async () => {
    const root = tempDir()
    mkdirSync(join(root, 'corpus=c/split=train/language=eng_Latn'), { recursive: true })
    writeFileSync(join(root, partPath), part)
    const recipe = join(root, '..', `recipe-${Date.now()}.yaml`)
    writeFileSync(recipe, 'dataset:\n  mixture_parquet_storage_config:\n    dataset_summary_path: /etc/passwd\n')
    const run = await runIsolated(['batches', root, '--split', 'train', '--config', recipe, '--max-batches', '1'], 30_000)
    expect(run.stdout + run.stderr).not.toMatch(/root:/)
    expect(run.stderr).toMatch(/dataset_summary_path "\/etc\/passwd".* is not a \.tsv file; it is not read/)
  })
})
